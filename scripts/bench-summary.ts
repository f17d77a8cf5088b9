/**
 * The one summary of `npm run bench`: every figure issue 6 asks for, in the issue's order, read from
 * the benchmarks' result files (`bench/results/<bench>-<date>.json`, shape in ./bench-results.ts).
 * A figure no file provides is a "no figures" row, so a missing or failed step shows.
 */
import { z } from 'zod';
import type { MetricEntry, ResultsFile, Spread, Target } from './bench-results.ts';

/** The benchmarks, in the order `npm run bench` runs them; each writes `<bench>-<date>.json`. */
export const SOURCES = [
  'bundle',
  'sandbox',
  'autocomplete',
  'proxy',
  'replicas',
  'bulk',
  'bulk-memory',
  'preview',
  'tender',
  'browser',
  'lighthouse',
];

export interface ExpectedMetric {
  group: string;
  /** the entry's id; with `prefix`, every entry whose id starts with it */
  metric: string;
  label: string;
  unit: string;
  target: Target | null;
  prefix?: boolean;
}

const atMost = (value: number): Target => ({ op: '<=', value });
const atLeast = (value: number): Target => ({ op: '>=', value });
const exactly = (value: number): Target => ({ op: '=', value });

function proxyRows(): ExpectedMetric[] {
  const group = 'proxy: cached autocomplete, 10 connections';
  const targets = [
    ['sandbox', 'sandbox direct'],
    ['proxy', 'through the proxy (cache hit)'],
    ['nginx', 'nginx proxy_pass'],
  ] as const;
  return [
    ...targets.flatMap(([id, name]) => [
      { group, metric: `proxy.rps.${id}`, label: `${name}: req/s`, unit: 'req/s', target: null },
      { group, metric: `proxy.p50.${id}`, label: `${name}: p50`, unit: 'ms', target: null },
      { group, metric: `proxy.p99.${id}`, label: `${name}: p99`, unit: 'ms', target: null },
    ]),
    {
      group,
      metric: 'proxy.ratio_nginx',
      label: 'proxy req/s ÷ nginx req/s',
      unit: 'ratio',
      target: atLeast(0.7),
    },
    {
      group,
      metric: 'proxy.added_p50',
      label: 'added p50, proxy − direct (1 connection)',
      unit: 'ms',
      target: atMost(1),
    },
  ];
}

function lighthouseRows(): ExpectedMetric[] {
  const categories = [
    ['performance', atLeast(95)],
    ['accessibility', exactly(100)],
    ['best-practices', exactly(100)],
    ['seo', null],
  ] as const;
  return ['search', 'profile'].flatMap((page) =>
    categories.map(([category, target]) => ({
      group: 'Lighthouse, desktop preset (median score)',
      metric: `lighthouse.${page}.${category}`,
      label: `${page} page: ${category}`,
      unit: 'score',
      target,
    })),
  );
}

/** The table, one row per figure. */
export const EXPECTED: readonly ExpectedMetric[] = [
  {
    group: 'autocomplete: last keystroke → suggestions rendered',
    metric: 'browser.autocomplete.median',
    label: 'p50',
    unit: 'ms',
    target: null,
  },
  {
    group: 'autocomplete: last keystroke → suggestions rendered',
    metric: 'browser.autocomplete.p95',
    label: 'p95',
    unit: 'ms',
    target: atMost(100),
  },
  ...proxyRows(),
  {
    group: 'bundle (gzip)',
    metric: 'bundle.initial-js',
    label: 'initial JS of the search page',
    unit: 'kB',
    target: atMost(150),
  },
  {
    group: 'bundle (gzip)',
    metric: 'bundle.lazy.',
    label: 'lazy chunks per route / feature',
    unit: 'kB',
    target: null,
    prefix: true,
  },
  ...[
    ['overview', 'navigation → overview', 600],
    ['inspections-tab', 'tab switch → inspections, first rows', 150],
    ['map-idle', 'tab switch → inspection map idle', 1200],
  ].map(([id, label, ms]) => ({
    group: 'heavy profile 3999999 (median)',
    metric: `browser.profile.${id}.median`,
    label: String(label),
    unit: 'ms',
    target: atMost(Number(ms)),
  })),
  {
    group: 'heavy profile 3999999 (median)',
    metric: 'browser.profile.overview-bytes',
    label: 'API bytes on the wire before the overview draws',
    unit: 'kB',
    target: atMost(100),
  },
  {
    group: 'heavy profile 3999999 (median)',
    metric: 'browser.profile.heap-all-tabs',
    label: 'JS heap after visiting every tab',
    unit: 'MB',
    target: atMost(150),
  },
  {
    group: 'typed DOT → verdict, cold page (issue 29)',
    metric: 'browser.typed-dot.cold.median',
    label: 'DOT typed in the header + Enter → verdict visible, proxy cold, median',
    unit: 'ms',
    target: atMost(800),
  },
  {
    group: 'typed DOT → verdict, cold page (issue 29)',
    metric: 'browser.typed-dot.warm.median',
    label: 'the same, proxy warm (the DOT already held), median',
    unit: 'ms',
    target: null,
  },
  {
    group: 'monitoring inbox (median)',
    metric: 'browser.inbox.page-rendered.median',
    label: 'page of 500: data arrived → rows',
    unit: 'ms',
    target: atMost(250),
  },
  {
    group: 'monitoring inbox (median)',
    metric: 'browser.inbox.request-to-rows.median',
    label: 'page of 500: list request sent → rows (the proxy reading the page included)',
    unit: 'ms',
    target: null,
  },
  ...[
    ['channel-switch', 'channel switch: data arrived → rows'],
    ['channel-switch-cached', 'channel switch back (cached): click → rows'],
    ['page-change', 'page change: data arrived → rows'],
    ['page-change-click', 'page change: click → rows (with the request)'],
  ].map(([id, label]) => ({
    group: 'monitoring inbox (median)',
    metric: `browser.inbox.${id}.median`,
    label: String(label),
    unit: 'ms',
    target: atMost(300),
  })),
  ...lighthouseRows(),
  {
    group: 'sandbox (1,000,000 carriers in a full run)',
    metric: 'sandbox.startup',
    label: 'start-up',
    unit: 'ms',
    target: atMost(10_000),
  },
  {
    group: 'sandbox (1,000,000 carriers in a full run)',
    metric: 'sandbox.rss.startup',
    label: 'RSS after start-up',
    unit: 'MB',
    target: atMost(600),
  },
  {
    group: 'sandbox (1,000,000 carriers in a full run)',
    metric: 'sandbox.autocomplete.p95',
    label: 'autocomplete p95 (server side)',
    unit: 'ms',
    target: atMost(5),
  },
  {
    group: 'sandbox (1,000,000 carriers in a full run)',
    metric: 'sandbox.profile_first.p95',
    label: 'profile by DOT p95, first lookup (server side)',
    unit: 'ms',
    target: atMost(5),
  },
  {
    group: 'two proxy replicas on Redis (issue 18), cached autocomplete',
    metric: 'replicas.ratio_two',
    label: 'two replicas req/s ÷ one replica req/s',
    unit: 'ratio',
    target: atLeast(1.6),
  },
  {
    group: 'two proxy replicas on Redis (issue 18), cached autocomplete',
    metric: 'replicas.added_p50_redis',
    label: 'added p50, REDIS_URL − none, one replica (1 connection)',
    unit: 'ms',
    target: atMost(1),
  },
  {
    group: 'bulk vetting through the proxy',
    metric: 'bulk.carriers_per_second',
    label: 'job of 1,000 sandbox carriers, rate limits off',
    unit: 'carriers/s',
    target: atLeast(50),
  },
  {
    group: 'bulk job memory (issue 31), proxy process, 5,000 carriers',
    metric: 'bulk_memory.proxy_peak_rss',
    label: 'proxy RSS peak during the job',
    unit: 'MB',
    target: atMost(400),
  },
  {
    group: 'bulk job memory (issue 31), proxy process, 5,000 carriers',
    metric: 'bulk_memory.proxy_rss_kept',
    label: 'proxy RSS after the job and an idle while − before it',
    unit: 'MB',
    target: atMost(50),
  },
  ...(['held', 'records'] as const).map((source) => ({
    group: 'policy preview at the proxy (issue 29), 2,000 current decisions',
    metric: `preview.${source}.p50`,
    label: `${source === 'held' ? 'from held profiles' : 'from the decision records'} p50`,
    unit: 'ms',
    target: atMost(1000),
  })),
  ...(['held', 'cold'] as const).map((kind) => ({
    group: 'tender check at the proxy (issue 33), median',
    metric: `tender.${kind}.p50`,
    label:
      kind === 'held'
        ? 'every search held (no billed call)'
        : 'cold: profile + phone search + e-mail search',
    unit: 'ms',
    target: atMost(kind === 'held' ? 150 : 1500),
  })),
  ...(['sort', 'scroll'] as const).map((kind) => ({
    group: 'bulk vetting results table (5,000 rows)',
    metric: `browser.bulk.${kind}.p95`,
    label: `${kind === 'sort' ? 'click a column header → sorted rows' : 'scroll → rows painted'} p95`,
    unit: 'ms',
    target: atMost(100),
  })),
  ...(['cold', 'warm'] as const).map((kind) => ({
    group: 'autocomplete round trip through the proxy (no rendering)',
    metric: `autocomplete.${kind}.p95`,
    label: `${kind === 'cold' ? 'cache miss' : 'cache hit'} p95`,
    unit: 'ms',
    target: null,
  })),
];

// ---------------------------------------------------------------------------------------------
// Result files
// ---------------------------------------------------------------------------------------------

const targetSchema = z.object({ op: z.enum(['<=', '>=', '=']), value: z.number() });

const entrySchema = z.object({
  metric: z.string().min(1),
  label: z.string(),
  value: z.number().nullable(),
  unit: z.string(),
  target: targetSchema.nullable(),
  met: z.boolean().nullable(),
  spread: z.object({ n: z.number(), min: z.number(), max: z.number() }).optional(),
});

const resultsFileSchema = z.object({
  bench: z.string(),
  date: z.string(),
  settings: z.record(z.string(), z.unknown()),
  metrics: z.array(entrySchema),
  details: z.unknown().optional(),
});

/** A results file's JSON checked against the shape; an Error says what is wrong. */
export function parseResultsFile(json: unknown): ResultsFile | Error {
  const parsed = resultsFileSchema.safeParse(json);
  return parsed.success ? parsed.data : new Error(z.prettifyError(parsed.error));
}

export interface FileInfo {
  name: string;
  mtimeMs: number;
}

/** The newest `<bench>-YYYY-MM-DD.json` written at or after `since` (ms since the epoch). */
export function latestResultFile(
  files: readonly FileInfo[],
  bench: string,
  since = 0,
): string | undefined {
  const pattern = new RegExp(`^${bench}-\\d{4}-\\d{2}-\\d{2}\\.json$`);
  const candidates = files.filter((file) => pattern.test(file.name) && file.mtimeMs >= since);
  candidates.sort((a, b) => b.mtimeMs - a.mtimeMs);
  return candidates[0]?.name;
}

// ---------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------

export type Status = 'met' | 'MISSED' | 'no target' | 'not measured' | 'no figures';

export interface SummaryRow {
  group: string;
  metric: string;
  label: string;
  value: number | null;
  unit: string;
  target: Target | null;
  status: Status;
  spread?: Spread;
}

function statusOf(entry: MetricEntry): Status {
  if (entry.value === null) return 'not measured';
  if (entry.met === null) return 'no target';
  return entry.met ? 'met' : 'MISSED';
}

function fromEntry(group: string, label: string, entry: MetricEntry): SummaryRow {
  const row: SummaryRow = {
    group,
    metric: entry.metric,
    label,
    value: entry.value,
    unit: entry.unit,
    target: entry.target,
    status: statusOf(entry),
  };
  return entry.spread ? { ...row, spread: entry.spread } : row;
}

function missing(expected: ExpectedMetric): SummaryRow {
  const { group, metric, label, unit, target } = expected;
  return { group, metric, label, value: null, unit, target, status: 'no figures' };
}

const benchOf = (metric: string) => metric.split('.', 1)[0] ?? '';

/**
 * The expected figures in order (a "no figures" row where no file has one), then every other
 * figure the files hold, under "also measured".
 */
export function buildSummary(
  files: Partial<Record<string, ResultsFile>>,
  expected: readonly ExpectedMetric[] = EXPECTED,
): SummaryRow[] {
  const used = new Set<MetricEntry>();
  const rows: SummaryRow[] = [];
  for (const wanted of expected) {
    const entries = files[benchOf(wanted.metric)]?.metrics ?? [];
    const found = entries.filter((entry) =>
      wanted.prefix ? entry.metric.startsWith(wanted.metric) : entry.metric === wanted.metric,
    );
    if (found.length === 0) rows.push(missing(wanted));
    for (const entry of found) {
      used.add(entry);
      rows.push(fromEntry(wanted.group, wanted.prefix ? entry.label : wanted.label, entry));
    }
  }
  for (const file of Object.values(files)) {
    for (const entry of file?.metrics ?? []) {
      if (!used.has(entry))
        rows.push(fromEntry(`also measured (${file?.bench})`, entry.label, entry));
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

const OP_TEXT = { '<=': '≤', '>=': '≥', '=': '=' } as const;

/** Two significant decimals under 10, one under 1,000, none above; a ratio always has two. */
function number(value: number, unit: string): string {
  if (unit === 'ratio') return value.toFixed(2);
  const magnitude = Math.abs(value);
  const digits = magnitude < 10 ? 2 : magnitude < 1000 ? 1 : 0;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

function withUnit(value: number, unit: string): string {
  return unit === 'ratio' || unit === 'score'
    ? number(value, unit)
    : `${number(value, unit)} ${unit}`;
}

export function targetText(target: Target | null, unit: string): string {
  return target ? `${OP_TEXT[target.op]} ${withUnit(target.value, unit)}` : '—';
}

export function figureText(row: SummaryRow): string {
  if (row.value === null) return row.status === 'no figures' ? 'no figures' : 'not measured';
  const figure = withUnit(row.value, row.unit);
  if (!row.spread || row.spread.n < 2) return figure;
  const { n, min, max } = row.spread;
  return `${figure} (n=${n}, ${number(min, row.unit)}–${number(max, row.unit)})`;
}

/** A Markdown table (as docs/performance.md shows it): metric, what, figure, target, result. */
export function markdownTable(rows: readonly SummaryRow[]): string {
  const cells = rows.map((row, index) => [
    index > 0 && rows[index - 1]?.group === row.group ? '' : row.group,
    row.label,
    figureText(row),
    targetText(row.target, row.unit),
    row.status === 'no figures' || row.status === 'not measured' ? '' : row.status,
  ]);
  const header = ['metric', 'what', 'figure', 'target', 'result'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const line = (values: readonly string[]) =>
    `| ${values.map((value, column) => value.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  return [line(header), rule, ...cells.map(line)].join('\n');
}
