/**
 * Browser figures (printed and written to bench/results/browser-<date>.json in the shape of
 * ./bench-results.ts; no assertions): the built SPA served by the real proxy, which forwards to a
 * sandbox, both in this process on 127.0.0.1 (port 0, started by ./bench-servers.ts), measured in
 * headless Chromium with `performance.now()` inside the page:
 *
 * a. autocomplete: last `keydown` in the omnibox → the listbox shows the suggestions answered for
 *    that prefix (real name prefixes, each typed once);
 * b. monitoring inbox with 10,000 watched carriers and ≥ 100,000 change records (seeded through the
 *    sandbox's monitoring/add and /__sandbox/advance), read by the page from the proxy's monitoring
 *    view: list data arrived → the table holds the 500 rows (a virtualised table: its
 *    data-row-count, and its first rows in the DOM), and the same from the list request's start
 *    (the proxy's share: its upstream call, parse and change ids), a
 *    channel filter switch, 20 page changes with the JS heap (CDP, after a GC) before and after;
 * c. the heavy profile (DOT 3999999): navigation → overview rendered, tab switch → the first rows
 *    of the inspections table rendered, → inspection map `data-state="idle"`; the bytes on the wire
 *    (CDP Network, `encodedDataLength`) of the API answers from navigation until the overview is
 *    rendered; and the JS heap (CDP, after a GC) once every tab has been visited;
 * d. the bulk-vetting results table of 5,000 rows (BENCH_BULK_ROWS): click on a column header →
 *    rows re-sorted, and a jump of the scroll box → the rows of the new position rendered. The
 *    job is synthetic (the page's own GET of it is answered by `page.route` with a contract-shaped
 *    job): running 5,000 carriers through the proxy would take minutes and measure the proxy, not
 *    the table.
 * e. the heavy carrier's network graph (520 linked DOTs): click on the Network tab (its `network`
 *    view already read by the overview's network line) → the graph drawn and laid out, and click on "Expand" for a linked carrier the
 *    proxy already holds → its links drawn (at least 5 runs, BENCH_RUNS if more).
 * f. a DOT typed in the header (issue 29): a fresh context opens /search and waits for the network
 *    to settle, the omnibox is clicked, a light population carrier's DOT typed, Enter pressed →
 *    the verdict summary drawn under the carrier's name; each run a DOT the proxy has not fetched
 *    (proxy cold), then the same DOTs again (proxy warm), at least 7 of each, with the page's
 *    requests of the median run printed as a waterfall (ms after Enter).
 *
 * "rendered" is the MutationObserver callback that first sees the finished DOM; "frame" is the next
 * animation frame plus a task, i.e. after layout and paint, when the page can take input again.
 * The page's fetch is wrapped so "data arrived" means the whole body was read.
 *
 *   npx tsx scripts/bench-browser.ts
 *   BENCH_POPULATION=20000 BENCH_WATCHED=2000 BENCH_RUNS=1 npx tsx scripts/bench-browser.ts
 *
 * BENCH_POPULATION (100000), BENCH_WATCHED (10000), BENCH_CHANGES (100000: records to reach),
 * BENCH_QUERIES (60: autocomplete prefixes), BENCH_RUNS (5), BENCH_DIST (build here instead of a
 * temp dir; an existing build is reused when it has an index.html), CHROMIUM_PATH.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { SandboxApp } from '../server-proxy/src/sandbox/app.ts';
import type { BulkItem, BulkJob } from '../src/lib/bulk/contract.ts';
import { autocompleteTerm } from '../src/features/search/api/get-autocomplete.ts';
import {
  metric,
  percentile,
  summarise,
  writeResultsFile,
  type MetricEntry,
  type Summary,
} from './bench-results.ts';
import {
  BENCH_KEY,
  chromiumPath,
  setting,
  startBenchSite,
  type BenchServers,
} from './bench-servers.ts';

const FIRST_POPULATION_DOT = 5_000_000;
const HEAVY_DOT = '3999999';
const PAGE_SIZE = 500;
const PAGE_CHANGES = 20;
const ADD_CHUNK = 10_000;
const ADVANCE_STEP_DAYS = 4;
const MAX_ADVANCE_DAYS = 60;

const POPULATION = setting('BENCH_POPULATION', 100_000, 5_000_000);
const WATCHED = setting('BENCH_WATCHED', 10_000, 100_000);
const CHANGES = setting('BENCH_CHANGES', 100_000, 10_000_000);
const QUERIES = setting('BENCH_QUERIES', 60, 1000);
const RUNS = setting('BENCH_RUNS', 5, 20);
const BULK_ROWS = setting('BENCH_BULK_ROWS', 5_000, 5_000);
/** `BENCH_ONLY=autocomplete,inbox,profile,bulk,graph,typed` (any subset) runs only those; all by default. */
const SECTIONS = ['autocomplete', 'inbox', 'profile', 'bulk', 'graph', 'typed'] as const;
type Section = (typeof SECTIONS)[number];
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? SECTIONS.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name): name is Section => (SECTIONS as readonly string[]).includes(name)),
);

/** Issue 17: API bytes before the heavy overview draws, and the heap after every tab. */
const PROFILE_BYTES_KB = 100;
const PROFILE_HEAP_MB = 150;

const TARGETS_MS = {
  autocomplete: 50,
  inboxPage: 250,
  inboxFilter: 300,
  inboxPageChange: 300,
  profileOverview: 600,
  profileTab: 150,
  profileMap: 1200,
  bulkInteraction: 100,
  graphInteractive: 1500,
  graphExpand: 200,
  typedDotVerdict: 800,
} as const;

// ---------------------------------------------------------------------------------------------
// In the page: a plain script (a string, so no build helper can leak into it) installed before the
// app's own scripts. `__bench.arm(spec)` starts watching the DOM before the action that changes it;
// `__bench.pending` resolves with the timings once the spec's condition holds.
// ---------------------------------------------------------------------------------------------

interface FetchSpec {
  /** the response's path, or any of these paths */
  path: string | readonly string[];
  params?: Record<string, string>;
}

type Condition =
  | { kind: 'suggestions' }
  | { kind: 'inbox'; page: number; rows?: number; pressed?: { label: string; value: boolean } }
  /** the tab drawn; with `rows`, its first table rows too */
  | { kind: 'tab'; label: string; rows?: boolean }
  | { kind: 'map-idle' }
  | { kind: 'bulk-sort'; label: string; direction: 'ascending' | 'descending' }
  /** the row window moved: every rendered row index is outside [min, max] */
  | { kind: 'bulk-scroll'; min: number; max: number }
  /** the network graph drawn with at least this many carriers, this many of them expanded */
  | { kind: 'graph-drawn'; nodes: number; expanded: number }
  /** a profile's verdict summary (Pass, Review or Fail) under the carrier's name */
  | { kind: 'verdict'; dot: string };

type ArmSpec = Condition & {
  /** a response that must have arrived first; its arrival time is reported */
  fetch?: FetchSpec;
  /** a response reported when one arrived, not waited for (pages that may come from a cache) */
  optionalFetch?: FetchSpec;
  timeoutMs?: number;
  /** several watches may run at once, each in its own slot (default "main") */
  slot?: string;
};

interface Timing {
  /** performance.now() when the watch began (0 for a navigation watch armed at document start) */
  since: number;
  /** when the page's fetch of the awaited response started (null without one) */
  sent: number | null;
  arrived: number | null;
  rendered: number;
  frame: number;
  keydown: number;
  click: number;
  bytes: number | null;
}

const PROBE_SOURCE = String.raw`(() => {
  const probe = { arrivals: [], lastKeydown: -1, lastClick: -1, pending: {} };
  window.__bench = probe;
  document.addEventListener('keydown', () => { probe.lastKeydown = performance.now(); }, true);
  document.addEventListener('click', () => { probe.lastClick = performance.now(); }, true);

  const originalFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const sent = performance.now();
    const response = await originalFetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
    if (!url.pathname.startsWith('/api/')) return response;
    const body = await response.arrayBuffer();
    let count = null;
    if (url.pathname.endsWith('/monitoring/list') && response.ok) {
      count = Object.keys(JSON.parse(new TextDecoder().decode(body)).items ?? {}).length;
    } else if (url.pathname === '/api/local/monitoring-view' && response.ok) {
      count = JSON.parse(new TextDecoder().decode(body)).list?.profiles?.length ?? null;
    }
    probe.arrivals.push({ url: url.href, sent, at: performance.now(), bytes: body.byteLength, count });
    const empty = [101, 204, 205, 304].includes(response.status);
    return new Response(empty ? null : body, {
      status: response.status, statusText: response.statusText, headers: response.headers,
    });
  };

  const matches = (arrival, spec) => {
    const url = new URL(arrival.url);
    if (![spec.path].flat().includes(url.pathname)) return false;
    return Object.entries(spec.params ?? {}).every(([k, v]) => url.searchParams.get(k) === v);
  };

  const inboxTable = () => [...document.querySelectorAll('table')].find(
    (t) => t.caption?.textContent === 'Watched carriers and their changes');

  const conditions = {
    suggestions: () => {
      const list = document.querySelector('[role=listbox]');
      return !!list && !list.hidden && list.getAttribute('aria-busy') === 'false' &&
        !!list.querySelector('[role=option] mark');
    },
    inbox: (spec, arrival) => {
      const table = inboxTable();
      if (!table || table.closest('[aria-busy]')?.getAttribute('aria-busy') !== 'false') return false;
      const pager = document.querySelector('nav[aria-label="Inbox pages"]');
      if (!pager?.textContent?.includes('Page ' + spec.page + ' of')) return false;
      if (spec.pressed) {
        const button = [...document.querySelectorAll('nav[aria-label="Channels"] button')].find(
          (b) => b.textContent?.startsWith(spec.pressed.label));
        if (button?.getAttribute('aria-pressed') !== String(spec.pressed.value)) return false;
      }
      const rows = spec.rows ?? arrival?.count;
      // A virtualised table renders a window of rows and states the whole count in data-row-count.
      if (table.hasAttribute('data-row-count')) {
        return Number(table.getAttribute('data-row-count')) === rows &&
          (rows === 0 || !!table.querySelector('tbody[data-index]'));
      }
      return table.tBodies[0]?.rows.length === rows;
    },
    tab: (spec) => {
      const section = document.querySelector('section[aria-labelledby="profile-tab-heading"]');
      if (!section || section.querySelector('h2')?.textContent !== spec.label) return false;
      if (section.textContent?.includes('Loading the ') || section.children.length <= 1) return false;
      return !spec.rows || !!section.querySelector('tr[data-row-id]');
    },
    'map-idle': () => !!document.querySelector('[data-testid="map-view"][data-state="idle"]'),
    'bulk-sort': (spec) => [...document.querySelectorAll('th[aria-sort]')].some(
      (th) => th.textContent?.startsWith(spec.label) && th.getAttribute('aria-sort') === spec.direction),
    'bulk-scroll': (spec) => {
      const rows = [...document.querySelectorAll('tbody[data-index]')].map((b) => Number(b.dataset.index));
      return rows.length > 0 && rows.every((i) => i < spec.min || i > spec.max);
    },
    'graph-drawn': (spec) => {
      const graph = document.querySelector('[data-testid="network-graph"]');
      return graph?.dataset.graphState === 'ready' &&
        Number(graph.dataset.drawnNodes) >= spec.nodes &&
        Number(graph.dataset.drawnExpanded) >= spec.expanded;
    },
    verdict: (spec) => location.pathname.startsWith('/carriers/' + spec.dot + '/') &&
      !!document.querySelector('#verdict-summary[data-verdict]'),
  };

  probe.arm = (spec, since = performance.now()) => {
    probe.pending[spec.slot ?? 'main'] = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error('timed out waiting for ' + JSON.stringify(spec)));
      }, spec.timeoutMs ?? 60000);
      const check = () => {
        const wanted = spec.fetch ?? spec.optionalFetch;
        const arrival = wanted
          ? probe.arrivals.find((a) => a.at >= since && matches(a, wanted)) : undefined;
        if (spec.fetch && !arrival) return;
        if (!conditions[spec.kind](spec, arrival)) return;
        observer.disconnect();
        clearTimeout(timer);
        const rendered = performance.now();
        requestAnimationFrame(() => setTimeout(() => resolve({
          since, sent: arrival?.sent ?? null, arrived: arrival?.at ?? null, rendered,
          frame: performance.now(),
          keydown: probe.lastKeydown, click: probe.lastClick, bytes: arrival?.bytes ?? null,
        }), 0));
      };
      const observer = new MutationObserver(check);
      observer.observe(document, {
        subtree: true, childList: true, attributes: true, characterData: true,
      });
    });
    return true;
  };

  const initial = window.__benchArmAtStart;
  if (initial) probe.arm(initial, 0);
})();`;

async function arm(page: Page, spec: ArmSpec): Promise<void> {
  await page.evaluate(`window.__bench.arm(${JSON.stringify(spec)})`);
}

function settle(page: Page, slot = 'main'): Promise<Timing> {
  return page.evaluate(`window.__bench.pending[${JSON.stringify(slot)}]`) as Promise<Timing>;
}

async function newPage(browser: Browser, base: string, armAtStart?: ArmSpec) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 1366, height: 900 },
  });
  if (armAtStart) {
    await context.addInitScript({
      content: `window.__benchArmAtStart = ${JSON.stringify(armAtStart)};`,
    });
  }
  await context.addInitScript({ content: PROBE_SOURCE });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  return { context, page };
}

// ---------------------------------------------------------------------------------------------
// Figures
// ---------------------------------------------------------------------------------------------

interface Measure {
  /** stable id of the figure in bench/results (`browser.<section>.<what>`) */
  id: string;
  name: string;
  /** the figure compared with the target */
  headline: 'median' | 'p95';
  /** undefined: a figure printed for context, compared with nothing */
  target: number | undefined;
  rendered: Summary;
  frame: Summary;
}

function measure(
  id: string,
  name: string,
  target: number | undefined,
  headline: Measure['headline'],
  rendered: number[],
  frame: number[],
): Measure {
  return { id, name, target, headline, rendered: summarise(rendered), frame: summarise(frame) };
}

function printMeasures(measures: readonly Measure[]): void {
  console.table(
    measures.map((m) => {
      const figure = m.frame[m.headline];
      return {
        measure: m.name,
        n: m.rendered.n,
        'rendered p50 / p95 ms': `${m.rendered.median} / ${m.rendered.p95}`,
        'frame p50 / p95 ms': `${m.frame.median} / ${m.frame.p95}`,
        'frame min–max ms': `${m.frame.min}–${m.frame.max}`,
        target: m.target === undefined ? '—' : `${m.headline} ≤ ${m.target}`,
        verdict:
          m.frame.n === 0 || m.target === undefined ? 'n/a' : figure <= m.target ? 'met' : 'MISSED',
      };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Servers and data
// ---------------------------------------------------------------------------------------------

function profileId(sandbox: SandboxApp, dot: string): string | undefined {
  const identity = sandbox.sandbox.dataset.getIdentity(dot);
  if (!identity) return undefined;
  return identity.docket ? `${dot}-${identity.docket}` : dot;
}

/** DOTs spread evenly over the generated population. */
function populationDots(count: number): string[] {
  const step = POPULATION / count;
  return Array.from({ length: count }, (_, i) =>
    String(FIRST_POPULATION_DOT + Math.floor(i * step)),
  );
}

async function sandboxPost(sandbox: SandboxApp, url: string, payload: unknown) {
  const response = await sandbox.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  if (response.statusCode !== 200) {
    throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
  }
}

function changeCount(sandbox: SandboxApp): number {
  const row = sandbox.sandbox.db.prepare('SELECT count(*) AS n FROM monitoring_change').get() as {
    n: number;
  };
  return row.n;
}

/** Watch WATCHED population carriers, then advance the clock until CHANGES records exist. */
async function seedMonitoring(sandbox: SandboxApp) {
  const started = performance.now();
  const ids = populationDots(WATCHED).flatMap((dot) => profileId(sandbox, dot) ?? []);
  for (let i = 0; i < ids.length; i += ADD_CHUNK) {
    await sandboxPost(sandbox, '/v2/monitoring/add', { profile_ids: ids.slice(i, i + ADD_CHUNK) });
  }
  let days = 0;
  while (changeCount(sandbox) < CHANGES && days < MAX_ADVANCE_DAYS) {
    await sandboxPost(sandbox, '/__sandbox/advance', { days: ADVANCE_STEP_DAYS });
    days += ADVANCE_STEP_DAYS;
  }
  const seeded = {
    watched: ids.length,
    changes: changeCount(sandbox),
    advancedDays: days,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  console.log(
    `seeded ${seeded.watched} watched carriers, ${seeded.changes} change records (${days} days advanced) in ${seeded.seconds} s`,
  );
  return seeded;
}

// ---------------------------------------------------------------------------------------------
// a. Autocomplete
// ---------------------------------------------------------------------------------------------

/**
 * Distinct prefixes (3 to 8 characters) of real legal names from across the population. None is the
 * start of another: typing PIONEER may ask for PIO on the way, and PIO typed later would then be
 * answered from the page's cache with no request, which the measure waits for.
 */
function typedPrefixes(sandbox: SandboxApp): string[] {
  const terms = new Map<string, string>();
  const overlaps = (term: string) =>
    [...terms.keys()].some((other) => other.startsWith(term) || term.startsWith(other));
  const dots = populationDots(QUERIES * 4);
  for (const [i, dot] of dots.entries()) {
    const name = sandbox.sandbox.dataset.getIdentity(dot)?.legalName;
    if (!name) continue;
    const typed = name.slice(0, 3 + (i % 6)).trimEnd();
    const term = autocompleteTerm(typed);
    if (term.length >= 3 && !overlaps(term)) terms.set(term, typed);
    if (terms.size >= QUERIES) break;
  }
  return [...terms.values()];
}

async function benchAutocomplete(browser: Browser, base: string, prefixes: readonly string[]) {
  const { context, page } = await newPage(browser, base);
  const rendered: number[] = [];
  const frame: number[] = [];
  try {
    await page.goto('/search');
    const box = page.getByRole('combobox', { name: 'Search carriers' });
    await box.click();
    for (const typed of prefixes) {
      await box.fill('');
      await arm(page, {
        kind: 'suggestions',
        fetch: { path: '/api/v2/autocomplete', params: { q: autocompleteTerm(typed) } },
      });
      await page.keyboard.type(typed);
      const timing = await settle(page);
      rendered.push(timing.rendered - timing.keydown);
      frame.push(timing.frame - timing.keydown);
    }
  } finally {
    await context.close();
  }
  return measure(
    'browser.autocomplete',
    `autocomplete: last keydown → suggestions (${prefixes.length} prefixes)`,
    TARGETS_MS.autocomplete,
    'p95',
    rendered,
    frame,
  );
}

// ---------------------------------------------------------------------------------------------
// b. Monitoring inbox
// ---------------------------------------------------------------------------------------------

/**
 * The inbox reads its pages from the proxy's monitoring view (the list's query, parsed); builds from
 * before that route read the mirror's list, so a build of either kind can be measured.
 */
const LIST_PATH = ['/api/local/monitoring-view', '/api/v2/monitoring/list'];
const FILTER_CHANNELS = ['Insurance', 'Fleet', 'Safety', 'Contact', 'Risk'] as const;

async function openInbox(browser: Browser, base: string) {
  const spec: ArmSpec = {
    kind: 'inbox',
    page: 1,
    fetch: { path: LIST_PATH, params: { page: '1', pageSize: String(PAGE_SIZE) } },
  };
  const opened = await newPage(browser, base, spec);
  await opened.page.goto(`/monitoring?pageSize=${PAGE_SIZE}`);
  const timing = await settle(opened.page);
  return { ...opened, timing };
}

async function heapMiB(context: BrowserContext, page: Page): Promise<number> {
  const session = await context.newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const { usedSize } = await session.send('Runtime.getHeapUsage');
  await session.detach();
  return Math.round((usedSize / 1024 / 1024) * 10) / 10;
}

/** Toggle a channel on (a new list request) and off again (the cached unfiltered page). */
async function switchChannel(page: Page, label: string) {
  const button = page
    .getByRole('navigation', { name: 'Channels' })
    .getByRole('button')
    .filter({ hasText: label });
  await arm(page, {
    kind: 'inbox',
    page: 1,
    pressed: { label, value: true },
    fetch: { path: LIST_PATH, params: { [`view_changes_${label.toLowerCase()}`]: 'true' } },
  });
  await button.click();
  const on = await settle(page);
  await arm(page, { kind: 'inbox', page: 1, rows: PAGE_SIZE, pressed: { label, value: false } });
  await button.click();
  const off = await settle(page);
  return { on, off };
}

async function changePage(page: Page, to: number, rows: number, forward: boolean) {
  const name = forward ? 'Next page' : 'Previous page';
  await arm(page, {
    kind: 'inbox',
    page: to,
    rows,
    optionalFetch: { path: LIST_PATH, params: { page: String(to) } },
  });
  await page.getByRole('navigation', { name: 'Inbox pages' }).getByRole('button', { name }).click();
  return settle(page);
}

/** 20 page changes: forward to the last page, back to the first, and so on (cached pages too). */
async function pageThrough(page: Page, watched: number): Promise<Timing[]> {
  const pageCount = Math.ceil(watched / PAGE_SIZE);
  const rowsOn = (n: number) => Math.min(PAGE_SIZE, watched - (n - 1) * PAGE_SIZE);
  const timings: Timing[] = [];
  let current = 1;
  let step = 1;
  for (let i = 0; i < PAGE_CHANGES && pageCount > 1; i += 1) {
    if (current + step < 1 || current + step > pageCount) step = -step;
    current += step;
    timings.push(await changePage(page, current, rowsOn(current), step > 0));
  }
  return timings;
}

async function benchInbox(browser: Browser, base: string, watched: number) {
  const load = { rendered: [] as number[], frame: [] as number[], bytes: 0 };
  // from the page's list request going out: the proxy's share (the upstream call, parsing, ids) too
  const sent = { rendered: [] as number[], frame: [] as number[] };
  for (let run = 0; run < RUNS; run += 1) {
    const { context, timing } = await openInbox(browser, base);
    const arrived = timing.arrived ?? 0;
    load.rendered.push(timing.rendered - arrived);
    load.frame.push(timing.frame - arrived);
    sent.rendered.push(timing.rendered - (timing.sent ?? 0));
    sent.frame.push(timing.frame - (timing.sent ?? 0));
    load.bytes = timing.bytes ?? 0;
    await context.close();
  }
  const { context, page } = await openInbox(browser, base);
  try {
    const filter = { rendered: [] as number[], frame: [] as number[] };
    const filterOff = { rendered: [] as number[], frame: [] as number[] };
    for (const label of FILTER_CHANNELS.slice(0, Math.max(RUNS, 3))) {
      const { on, off } = await switchChannel(page, label);
      filter.rendered.push(on.rendered - (on.arrived ?? 0));
      filter.frame.push(on.frame - (on.arrived ?? 0));
      filterOff.rendered.push(off.rendered - off.click);
      filterOff.frame.push(off.frame - off.click);
    }
    const heapBefore = await heapMiB(context, page);
    const pages = await pageThrough(page, watched);
    const heapAfter = await heapMiB(context, page);
    const fetched = pages.filter((t) => t.arrived !== null);
    const measures = [
      measure(
        'browser.inbox.page-rendered',
        `inbox: list data arrived → ${PAGE_SIZE} rows (${(load.bytes / 1024 / 1024).toFixed(1)} MiB page)`,
        TARGETS_MS.inboxPage,
        'median',
        load.rendered,
        load.frame,
      ),
      measure(
        'browser.inbox.request-to-rows',
        `inbox: list request sent → ${PAGE_SIZE} rows (frame)`,
        undefined,
        'median',
        sent.rendered,
        sent.frame,
      ),
      measure(
        'browser.inbox.channel-switch',
        'inbox: channel filter on, data arrived → rows',
        TARGETS_MS.inboxFilter,
        'median',
        filter.rendered,
        filter.frame,
      ),
      measure(
        'browser.inbox.channel-switch-cached',
        'inbox: channel filter off (cached), click → rows',
        TARGETS_MS.inboxFilter,
        'median',
        filterOff.rendered,
        filterOff.frame,
      ),
      measure(
        'browser.inbox.page-change',
        `inbox: page change, data arrived → rows (${fetched.length} fetched)`,
        TARGETS_MS.inboxPageChange,
        'median',
        fetched.map((t) => t.rendered - (t.arrived ?? 0)),
        fetched.map((t) => t.frame - (t.arrived ?? 0)),
      ),
      measure(
        'browser.inbox.page-change-click',
        `inbox: page change, click → rows (all ${pages.length})`,
        TARGETS_MS.inboxPageChange,
        'median',
        pages.map((t) => t.rendered - t.click),
        pages.map((t) => t.frame - t.click),
      ),
    ];
    console.log(
      `inbox JS heap after GC: ${heapBefore} MiB before ${PAGE_CHANGES} page changes, ${heapAfter} MiB after`,
    );
    return { measures, heap: { beforeMiB: heapBefore, afterMiB: heapAfter } };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// c. Heavy profile
// ---------------------------------------------------------------------------------------------

/** The profile's tabs in the tab bar's order (their link names). */
const PROFILE_TAB_LABELS = [
  'Overview',
  'Authority & insurance',
  'Safety',
  'Inspections',
  'Crashes',
  'Fleet & equipment',
  'Contact & history',
  'Network',
  'FMCSA record',
  'Raw',
] as const;

/** Body bytes on the wire per response (CDP `encodedDataLength`), API answers and the rest. */
async function recordWireBytes(context: BrowserContext, page: Page) {
  const session = await context.newCDPSession(page);
  const urls = new Map<string, string>();
  const finished: { url: string; bytes: number }[] = [];
  session.on('Network.responseReceived', (event) => urls.set(event.requestId, event.response.url));
  session.on('Network.loadingFinished', (event) => {
    finished.push({ url: urls.get(event.requestId) ?? '', bytes: event.encodedDataLength });
  });
  await session.send('Network.enable');
  return {
    /** API bytes and all bytes received so far */
    totals() {
      const api = finished.filter((f) => new URL(f.url).pathname.startsWith('/api/'));
      const sum = (list: typeof finished) => list.reduce((total, f) => total + f.bytes, 0);
      return {
        api: sum(api),
        all: sum(finished),
        apiPaths: api.map((f) => new URL(f.url).pathname),
      };
    },
    detach: () => session.detach(),
  };
}

async function clickTab(page: Page, label: string, rows = false) {
  await arm(page, { kind: 'tab', label, rows, timeoutMs: 120_000 });
  await page
    .getByRole('navigation', { name: 'Profile sections' })
    .getByRole('link', { name: label, exact: true })
    .click();
  return settle(page);
}

async function profileRun(browser: Browser, base: string, visitAll: boolean) {
  const { context, page } = await newPage(browser, base, { kind: 'tab', label: 'Overview' });
  try {
    const wire = await recordWireBytes(context, page);
    await page.goto(`/carriers/${HEAVY_DOT}/overview`);
    const overview = await settle(page);
    const bytes = wire.totals();
    await wire.detach();
    await arm(page, { kind: 'map-idle', slot: 'map' });
    const tab = await clickTab(page, 'Inspections', true);
    const map = await settle(page, 'map');
    let heap: number | undefined;
    if (visitAll) {
      for (const label of PROFILE_TAB_LABELS.filter((l) => l !== 'Inspections'))
        await clickTab(page, label);
      heap = await heapMiB(context, page);
    }
    return {
      overview: { rendered: overview.rendered, frame: overview.frame },
      tab: { rendered: tab.rendered - tab.click, frame: tab.frame - tab.click },
      map: { rendered: map.rendered - tab.click, frame: map.frame - tab.click },
      bytes,
      heap,
    };
  } finally {
    await context.close();
  }
}

async function benchProfile(browser: Browser, base: string): Promise<SectionResult> {
  const runs = [];
  // the first run also visits every tab for the heap figure (the Network and Raw tabs load the
  // full profile, so the later runs would start from a warm proxy either way)
  for (let run = 0; run < RUNS; run += 1) runs.push(await profileRun(browser, base, run === 0));
  const apiKb = runs.map((r) => Math.round((r.bytes.api / 1024) * 10) / 10);
  const allKb = runs.map((r) => Math.round((r.bytes.all / 1024) * 10) / 10);
  const heap = runs[0]?.heap ?? null;
  const bytesKb = summarise(apiKb).median;
  console.log(
    `heavy profile: ${bytesKb} kB of API answers on the wire before the overview (all responses with the app's code: ${summarise(allKb).median} kB; ${runs[0]?.bytes.apiPaths.join(', ') ?? ''}); JS heap after every tab: ${heap ?? 'n/a'} MiB`,
  );
  return {
    measures: [
      measure(
        'browser.profile.overview',
        `heavy profile ${HEAVY_DOT}: navigation → overview`,
        TARGETS_MS.profileOverview,
        'median',
        runs.map((r) => r.overview.rendered),
        runs.map((r) => r.overview.frame),
      ),
      measure(
        'browser.profile.inspections-tab',
        'heavy profile: click → inspections tab, first rows',
        TARGETS_MS.profileTab,
        'median',
        runs.map((r) => r.tab.rendered),
        runs.map((r) => r.tab.frame),
      ),
      measure(
        'browser.profile.map-idle',
        'heavy profile: click → inspection map idle',
        TARGETS_MS.profileMap,
        'median',
        runs.map((r) => r.map.rendered),
        runs.map((r) => r.map.frame),
      ),
    ],
    metrics: [
      metric({
        metric: 'browser.profile.overview-bytes',
        label: `heavy profile ${HEAVY_DOT}: API bytes on the wire before the overview draws, median`,
        value: bytesKb,
        unit: 'kB',
        target: { op: '<=', value: PROFILE_BYTES_KB },
        spread: { n: apiKb.length, min: Math.min(...apiKb), max: Math.max(...apiKb) },
      }),
      metric({
        metric: 'browser.profile.heap-all-tabs',
        label: `heavy profile ${HEAVY_DOT}: JS heap after visiting every tab (after a GC)`,
        value: heap,
        unit: 'MB',
        target: { op: '<=', value: PROFILE_HEAP_MB },
      }),
    ],
    details: { profile: { apiKb, allKb, heapMiB: heap, overviewApi: runs[0]?.bytes.apiPaths } },
  };
}

// ---------------------------------------------------------------------------------------------
// d. Bulk-vetting results table
// ---------------------------------------------------------------------------------------------

const BULK_JOB_ID = 'bench-bulk';
/**
 * Header clicks and scroll jumps per table (each): 4 × BENCH_RUNS, at least 20, so that the p95 is
 * not simply the slowest one (nearest rank: the 19th of 20), which is the first click after the
 * page loaded, while its code is still cold.
 */
const BULK_STEPS = Math.max(RUNS * 4, 20);
const WORDS = ['ACME', 'BLUE', 'RIVER', 'SUMMIT', 'EAGLE', 'PRAIRIE', 'COASTAL', 'IRON'];

/** A finished job of `rows` carriers in the shape of the contract, varied enough to sort. */
function syntheticBulkJob(rows: number): BulkJob {
  const verdicts = ['pass', 'review', 'fail'] as const;
  const items = Array.from({ length: rows }, (_, i): BulkItem => {
    const dot = String(FIRST_POPULATION_DOT + ((i * 7919) % 1_000_000));
    if (i % 50 === 49) {
      const error = { code: 'not_found', message: `No carrier has DOT ${dot}.` };
      return { position: i + 1, identifier: dot, status: 'failed', attempts: 3, error };
    }
    const verdict = verdicts[i % 3] ?? 'pass';
    const name = `${WORDS[(i * 5) % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} ${i} LLC`;
    const alerts =
      verdict === 'pass' ? [] : ['Unsafe driving', 'HOS compliance'].slice(0, (i % 2) + 1);
    const result = {
      name,
      verdict,
      policy_version: 1,
      reasons: alerts,
      usdot_status: 'ACTIVE',
      authority: i % 11 ? 'Active' : 'Revoked',
      insurance: i % 13 ? 'On file' : 'None on file',
      safety_rating: ['Satisfactory', 'Conditional', null][i % 3] ?? null,
      basic_alerts: alerts,
      out_of_service: i % 17 === 0,
      linked_warnings: i % 23 === 0 ? 2 : 0,
      snapshot_date: '2026-11-20',
    };
    return {
      position: i + 1,
      identifier: dot,
      dot_number: dot,
      status: 'done',
      verdict,
      result,
      source: 'upstream',
      attempts: 1,
      finished_at: '2026-11-26T01:00:00Z',
    };
  });
  const failed = items.filter((item) => item.status === 'failed').length;
  const estimate = {
    carriers: rows,
    rejected: [],
    already_fetched: 0,
    billable: rows,
    unit_price_usd: 0.1,
    cost_usd: 0,
    billed: false,
    rate_per_minute: null,
    duration_seconds: 60,
    budget_usd: null,
    spent_usd: 0,
    left_usd: null,
    within_budget: true,
  };
  return {
    id: BULK_JOB_ID,
    status: 'done',
    created_at: '2026-11-26T00:00:00Z',
    updated_at: '2026-11-26T01:00:00Z',
    created_by: 'bench',
    total: rows,
    done: rows - failed,
    failed,
    merged: 0,
    rate_per_minute: null,
    eta_seconds: null,
    estimate,
    pause_reason: null,
    items,
    offset: 0,
    limit: rows,
  };
}

async function benchBulkTable(browser: Browser, base: string) {
  const body = JSON.stringify(syntheticBulkJob(BULK_ROWS));
  const { context, page } = await newPage(browser, base);
  const sort = { rendered: [] as number[], frame: [] as number[] };
  const scroll = { rendered: [] as number[], frame: [] as number[] };
  try {
    await context.route(new RegExp(`/api/local/bulk-jobs/${BULK_JOB_ID}(\\?|$)`), (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body }),
    );
    await page.goto(`/bulk/${BULK_JOB_ID}`);
    const table = page.getByRole('table', { name: 'Results of the job' });
    await page.locator(`table[data-row-count="${BULK_ROWS}"] tbody[data-index]`).first().waitFor();
    const columns = ['Carrier', 'DOT', 'Verdict', 'Identifier'];
    for (let i = 0; i < BULK_STEPS; i += 1) {
      const label = columns[i % columns.length] ?? 'Carrier';
      // each header's first click sorts its first direction: Verdict descending, the others ascending
      const direction = label === 'Verdict' ? 'descending' : 'ascending';
      await arm(page, { kind: 'bulk-sort', label, direction });
      await table.getByRole('button', { name: new RegExp(`^${label}`) }).click();
      const timing = await settle(page);
      sort.rendered.push(timing.rendered - timing.click);
      sort.frame.push(timing.frame - timing.click);
    }
    const box = page.getByTestId('virtual-table-scroll');
    for (let i = 0; i < BULK_STEPS; i += 1) {
      // jumps of a fifth of the table, down then back up: each lands on rows not rendered before
      await box.evaluate((element, step) => {
        const rows = [...element.querySelectorAll('tbody[data-index]')].map((b) =>
          Number((b as HTMLElement).dataset.index),
        );
        const max = element.scrollHeight - element.clientHeight;
        const fifth = Math.floor(max / 5);
        const target = step % 10 < 5 ? ((step % 5) + 1) * fifth : (4 - (step % 5)) * fifth;
        const bench = (window as unknown as { __bench: { arm: (spec: unknown) => void } }).__bench;
        bench.arm({ kind: 'bulk-scroll', min: Math.min(...rows), max: Math.max(...rows) });
        element.scrollTop = target;
      }, i);
      const settled = await settle(page);
      scroll.rendered.push(settled.rendered - settled.since);
      scroll.frame.push(settled.frame - settled.since);
    }
  } finally {
    await context.close();
  }
  return [
    measure(
      'browser.bulk.sort',
      `bulk results (${BULK_ROWS} rows): header click → re-sorted rows`,
      TARGETS_MS.bulkInteraction,
      'p95',
      sort.rendered,
      sort.frame,
    ),
    measure(
      'browser.bulk.scroll',
      `bulk results (${BULK_ROWS} rows): scroll jump → rows of the new position`,
      TARGETS_MS.bulkInteraction,
      'p95',
      scroll.rendered,
      scroll.frame,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// e. Network graph of the heavy carrier
// ---------------------------------------------------------------------------------------------

const GRAPH_RUNS = Math.max(RUNS, 5);
const HEAVY_LINKED = 520;

async function graphRun(browser: Browser, base: string) {
  const { context, page } = await newPage(browser, base);
  try {
    // The overview's network line reads the proxy's `network` view, which the Network tab draws
    // from too: a user who opens the tab after the overview finds it in the page's cache.
    const networkView = page.waitForResponse(
      (r) => r.url().includes('/api/local/profile-view') && r.url().includes('view=network'),
      { timeout: 120_000 },
    );
    await page.goto(`/carriers/${HEAVY_DOT}/overview`);
    await networkView;
    await page
      .getByText('Checking the carriers it shares identifiers with')
      .waitFor({ state: 'detached', timeout: 120_000 });
    await arm(page, { kind: 'graph-drawn', nodes: HEAVY_LINKED + 1, expanded: 1 });
    await page
      .getByRole('navigation', { name: 'Profile sections' })
      .getByRole('link', { name: 'Network' })
      .click();
    const open = await settle(page);

    // a linked carrier the proxy already holds (warmed before the run): expanding it is free
    const option = page
      .getByRole('listbox', { name: /^Carriers in the graph/ })
      .getByRole('option');
    const id = await option.nth(1).getAttribute('id');
    const dot = id?.replace('network-graph-node-', '') ?? '';
    await option.nth(1).click();
    const expand = page.getByRole('group', { name: `Expand DOT ${dot}` });
    await expand.getByText('Cost: free').waitFor();
    await arm(page, { kind: 'graph-drawn', nodes: HEAVY_LINKED + 1, expanded: 2 });
    await expand.getByRole('button', { name: `Expand DOT ${dot}` }).click();
    const expanded = await settle(page);
    const nodes = Number(await page.getByTestId('network-graph').getAttribute('data-drawn-nodes'));
    return {
      open: { rendered: open.rendered - open.click, frame: open.frame - open.click },
      expand: {
        rendered: expanded.rendered - expanded.click,
        frame: expanded.frame - expanded.click,
      },
      nodes,
      dot,
    };
  } finally {
    await context.close();
  }
}

/** Has the proxy fetch the heavy carrier's lowest linked DOT (the first after it in the graph's list). */
async function warmFirstLinked(base: string): Promise<string> {
  const headers = { 'x-requested-with': 'carrier-desk' };
  const heavy = (await (
    await fetch(`${base}/api/v2/profile?dot_number=${HEAVY_DOT}`, { headers })
  ).json()) as { items?: { network_graph_equipment?: string[] }[] };
  const linked = (heavy.items?.[0]?.network_graph_equipment ?? [])
    .map(Number)
    .sort((a, b) => a - b);
  const first = String(linked[0]);
  const answer = await fetch(`${base}/api/v2/profile?dot_number=${first}`, { headers });
  if (!answer.ok) throw new Error(`warming DOT ${first}: HTTP ${answer.status}`);
  return first;
}

async function benchGraph(browser: Browser, base: string): Promise<SectionResult> {
  const warmed = await warmFirstLinked(base);
  const runs = [];
  for (let run = 0; run < GRAPH_RUNS; run += 1) runs.push(await graphRun(browser, base));
  const expandedDot = runs[0]?.dot;
  if (expandedDot !== warmed) console.warn(`graph: expanded ${expandedDot}, warmed ${warmed}`);
  return {
    measures: [
      measure(
        'browser.graph.interactive',
        `heavy network graph (${HEAVY_LINKED} linked DOTs): Network tab click → graph drawn`,
        TARGETS_MS.graphInteractive,
        'median',
        runs.map((r) => r.open.rendered),
        runs.map((r) => r.open.frame),
      ),
      measure(
        'browser.graph.expand-cached',
        'heavy network graph: expand a held carrier, click → its links drawn',
        TARGETS_MS.graphExpand,
        'median',
        runs.map((r) => r.expand.rendered),
        runs.map((r) => r.expand.frame),
      ),
    ],
    details: { graph: { runs: runs.length, expandedDot, nodesAfterExpand: runs[0]?.nodes } },
  };
}

// ---------------------------------------------------------------------------------------------
// f. A DOT typed in the header → the verdict (issue 29)
// ---------------------------------------------------------------------------------------------

const TYPED_RUNS = Math.max(RUNS, 7);

/**
 * Population carriers (normal-sized profiles) no other section fetches: the inbox watches every
 * tenth DOT from the first, these are 3 past such a DOT.
 */
function typedDots(count: number): string[] {
  const stride = Math.max(10, Math.floor(POPULATION / (count + 1) / 10) * 10);
  return Array.from({ length: count }, (_, i) =>
    String(FIRST_POPULATION_DOT + (i + 1) * stride + 3),
  );
}

/** One step of the page's way from Enter to the verdict, in ms since the Enter keydown. */
interface WaterfallStep {
  what: string;
  start: number;
  end: number;
}

/** The page's requests after `since` (API calls as the page's fetch saw them, code from Resource Timing). */
async function waterfall(page: Page, since: number): Promise<WaterfallStep[]> {
  const steps = (await page.evaluate(`(() => {
    const api = window.__bench.arrivals.map((a) => ({
      what: new URL(a.url).pathname + new URL(a.url).search, start: a.sent, end: a.at }));
    const code = performance.getEntriesByType('resource')
      .filter((e) => !new URL(e.name).pathname.startsWith('/api/'))
      .map((e) => ({ what: new URL(e.name).pathname, start: e.startTime, end: e.responseEnd }));
    return [...api, ...code];
  })()`)) as WaterfallStep[];
  const round = (value: number) => Math.round((value - since) * 10) / 10;
  return steps
    .filter((step) => step.start >= since - 1)
    .map((step) => ({ what: step.what, start: round(step.start), end: round(step.end) }))
    .sort((a, b) => a.start - b.start);
}

/**
 * A fresh browser context (no cache, no cookies) opens /search and waits for the page to settle;
 * then the DOT is typed in the header's omnibox and Enter pressed: from that keydown to the verdict
 * summary drawn under the carrier's name on its profile (frame: laid out and painted).
 */
async function typedDotRun(browser: Browser, base: string, dot: string) {
  const { context, page } = await newPage(browser, base);
  try {
    await page.goto('/search', { waitUntil: 'networkidle' });
    const box = page.getByRole('combobox', { name: 'Search carriers' });
    await box.click();
    await box.pressSequentially(dot);
    await arm(page, { kind: 'verdict', dot, timeoutMs: 30_000 });
    await box.press('Enter');
    const timing = await settle(page);
    return {
      rendered: timing.rendered - timing.keydown,
      frame: timing.frame - timing.keydown,
      steps: await waterfall(page, timing.keydown),
    };
  } finally {
    await context.close();
  }
}

function printWaterfall(title: string, steps: readonly WaterfallStep[], frame: number): void {
  console.log(`${title} (ms after Enter; verdict drawn at ${Math.round(frame)} ms)`);
  for (const step of steps) {
    console.log(
      `  ${String(step.start).padStart(7)} → ${String(step.end).padStart(7)}  ${step.what}`,
    );
  }
}

async function benchTypedDot(browser: Browser, base: string): Promise<SectionResult> {
  const dots = typedDots(TYPED_RUNS);
  // proxy cold: each run a DOT the proxy has never fetched; warm: the same DOTs again
  type Run = Awaited<ReturnType<typeof typedDotRun>>;
  const cold: Run[] = [];
  for (const dot of dots) cold.push(await typedDotRun(browser, base, dot));
  const warm: Run[] = [];
  for (const dot of dots) warm.push(await typedDotRun(browser, base, dot));
  const middle = (runs: readonly Run[]) =>
    [...runs].sort((a, b) => a.frame - b.frame)[Math.floor(runs.length / 2)];
  const coldMiddle = middle(cold);
  const warmMiddle = middle(warm);
  if (coldMiddle)
    printWaterfall('typed DOT, proxy cold, median run', coldMiddle.steps, coldMiddle.frame);
  if (warmMiddle)
    printWaterfall('typed DOT, proxy warm, median run', warmMiddle.steps, warmMiddle.frame);
  const p90 = (runs: readonly Run[]) => {
    const sorted = runs.map((r) => r.frame).sort((a, b) => a - b);
    return Math.round(percentile(sorted, 90) * 10) / 10;
  };
  console.log(
    `typed DOT → verdict (frame), p90: proxy cold ${p90(cold)} ms, proxy warm ${p90(warm)} ms (n=${dots.length} each)`,
  );
  return {
    measures: [
      measure(
        'browser.typed-dot.cold',
        `typed DOT + Enter in the header → verdict visible, cold page, proxy cold (${dots.length} DOTs)`,
        TARGETS_MS.typedDotVerdict,
        'median',
        cold.map((r) => r.rendered),
        cold.map((r) => r.frame),
      ),
      measure(
        'browser.typed-dot.warm',
        'typed DOT + Enter in the header → verdict visible, cold page, proxy warm',
        undefined,
        'median',
        warm.map((r) => r.rendered),
        warm.map((r) => r.frame),
      ),
    ],
    metrics: [
      metric({
        metric: 'browser.typed-dot.cold.p90',
        label: 'typed DOT → verdict, cold page, proxy cold, p90',
        value: p90(cold),
        unit: 'ms',
      }),
      metric({
        metric: 'browser.typed-dot.warm.p90',
        label: 'typed DOT → verdict, cold page, proxy warm, p90',
        value: p90(warm),
        unit: 'ms',
      }),
    ],
    details: {
      typedDot: {
        dots,
        coldMs: cold.map((r) => Math.round(r.frame)),
        warmMs: warm.map((r) => Math.round(r.frame)),
        coldWaterfall: coldMiddle?.steps,
        warmWaterfall: warmMiddle?.steps,
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** The figures compared with the targets ("frame" timings): the headline, plus the median of a p95. */
function measureEntries(m: Measure): MetricEntry[] {
  const spread = { n: m.frame.n, min: m.frame.min, max: m.frame.max };
  const value = (figure: number) => (m.frame.n === 0 ? null : figure);
  const headline = metric({
    metric: `${m.id}.${m.headline}`,
    label: `${m.name}, ${m.headline}`,
    value: value(m.frame[m.headline]),
    unit: 'ms',
    ...(m.target === undefined ? {} : { target: { op: '<=' as const, value: m.target } }),
    spread,
  });
  if (m.headline === 'median') return [headline];
  const median = metric({
    metric: `${m.id}.median`,
    label: `${m.name}, median`,
    value: value(m.frame.median),
    unit: 'ms',
    spread,
  });
  return [median, headline];
}

function writeResults(
  measures: readonly Measure[],
  extra: readonly MetricEntry[],
  details: Record<string, unknown>,
): string {
  return writeResultsFile({
    bench: 'browser',
    settings: {
      population: POPULATION,
      watched: WATCHED,
      changes: CHANGES,
      queries: QUERIES,
      runs: RUNS,
      bulkRows: BULK_ROWS,
      sections: [...ONLY],
    },
    metrics: [...measures.flatMap(measureEntries), ...extra],
    details: { measures, ...details },
  });
}

interface SectionResult {
  measures: Measure[];
  /** figures that are not timings (bytes, heap) */
  metrics?: MetricEntry[];
  details?: Record<string, unknown>;
}

async function runSection(
  name: Section,
  browser: Browser,
  servers: BenchServers,
): Promise<SectionResult> {
  if (name === 'autocomplete') {
    const prefixes = typedPrefixes(servers.sandbox);
    return { measures: [await benchAutocomplete(browser, servers.base, prefixes)] };
  }
  if (name === 'inbox') {
    const seeded = await seedMonitoring(servers.sandbox);
    const inbox = await benchInbox(browser, servers.base, seeded.watched);
    return { measures: inbox.measures, details: { seeded, inboxHeap: inbox.heap } };
  }
  if (name === 'bulk') return { measures: await benchBulkTable(browser, servers.base) };
  if (name === 'graph') return await benchGraph(browser, servers.base);
  if (name === 'typed') return await benchTypedDot(browser, servers.base);
  return await benchProfile(browser, servers.base);
}

/** The selected sections in turn; one that fails is reported and the others still run. */
async function runSections(browser: Browser, servers: BenchServers) {
  const measures: Measure[] = [];
  const metrics: MetricEntry[] = [];
  const details: Record<string, unknown> = {};
  const failed: Section[] = [];
  for (const name of SECTIONS.filter((section) => ONLY.has(section))) {
    try {
      const result = await runSection(name, browser, servers);
      printMeasures(result.measures);
      measures.push(...result.measures);
      metrics.push(...(result.metrics ?? []));
      Object.assign(details, result.details);
    } catch (error) {
      console.error(`${name} failed:`, error);
      failed.push(name);
    }
  }
  return { measures, metrics, details: { ...details, failed }, failed };
}

async function main(): Promise<void> {
  const site = await startBenchSite('bench-browser', POPULATION);
  const { servers } = site;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--enable-unsafe-swiftshader',
      ],
    });
    const { measures, metrics, details, failed } = await runSections(browser, servers);
    const file = writeResults(measures, metrics, details);
    console.log(`results written to ${file}`);
    if (failed.length > 0) {
      console.error(`failed section(s): ${failed.join(', ')} (their figures are missing)`);
      process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    await site.close();
  }
}

await main();
