/**
 * The bulk vetting routes over real HTTP: a proxy in front of its embedded sandbox (no rate limits),
 * jobs run by the real runner through the mirror, faults injected at the sandbox, and the
 * sandbox's own billing ledger read to show that no DOT is billed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkEstimateSchema,
  bulkJobListSchema,
  bulkJobSchema,
  createdAnswerSchema,
  dryRunAnswerSchema,
  type BulkEstimate,
  type BulkJob,
} from '../../../src/lib/bulk/contract.ts';
import type { ProxyConfig } from '../context.ts';
import {
  CSRF,
  request,
  startProxy,
  embeddedSandboxConfig,
  type RunningProxy,
} from '../helpers.test-support.ts';

function sandboxConfig(overrides: Partial<ProxyConfig> = {}): ProxyConfig {
  return embeddedSandboxConfig(overrides, { retryDelayMs: 20 });
}

/** DOTs of the sandbox's generated population (5000000 …, 300 rows in tests). */
const population = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => String(5_000_000 + from + i));

let proxy: RunningProxy;

beforeAll(async () => {
  proxy = await startProxy(sandboxConfig());
});

afterAll(async () => {
  await proxy.close();
});

async function sandboxCall(p: RunningProxy, path: string, method = 'GET', body?: unknown) {
  const sandbox = p.app.proxy.sandbox;
  if (!sandbox) throw new Error('no embedded sandbox');
  return request(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
    ...(body === undefined ? {} : { body }),
  });
}

async function arm(p: RunningProxy, rules: Record<string, unknown>[]) {
  const armed = await sandboxCall(p, '/__sandbox/faults', 'POST', { rules });
  expect(armed.status).toBe(200);
}

/** The sandbox's own bill for profile calls this month. */
async function sandboxProfileBill(p: RunningProxy) {
  const answer = await sandboxCall(p, '/__sandbox/ledger');
  const body = answer.json as {
    keys: {
      months: {
        lines: { kind: string; calls: number; billed_calls: number; unique_dots: number }[];
      }[];
    }[];
  };
  const lines = body.keys.flatMap((key) => key.months.flatMap((month) => month.lines));
  const profile = lines.filter((line) => line.kind === 'profile');
  return {
    calls: profile.reduce((sum, line) => sum + line.calls, 0),
    billed: profile.reduce((sum, line) => sum + line.billed_calls, 0),
    uniqueDots: profile.reduce((sum, line) => sum + line.unique_dots, 0),
  };
}

function post(
  p: RunningProxy,
  path: string,
  body?: unknown,
  headers: Record<string, string> = CSRF,
) {
  return p.call(path, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
}

async function estimate(p: RunningProxy, identifiers: string[]): Promise<BulkEstimate> {
  const answer = await post(p, '/api/local/bulk-jobs', { identifiers, dry_run: true });
  expect(answer.status).toBe(200);
  return dryRunAnswerSchema.parse(answer.json).estimate;
}

async function createJob(p: RunningProxy, identifiers: string[]): Promise<string> {
  const answer = await post(p, '/api/local/bulk-jobs', { identifiers });
  expect(answer.status, answer.text).toBe(202);
  return createdAnswerSchema.parse(answer.json).id;
}

async function job(p: RunningProxy, id: string, query = ''): Promise<BulkJob> {
  const answer = await p.call(`/api/local/bulk-jobs/${id}${query}`);
  expect(answer.status, answer.text).toBe(200);
  return bulkJobSchema.parse(answer.json);
}

async function waitFor(p: RunningProxy, id: string, done: (j: BulkJob) => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const current = await job(p, id, '?limit=5000');
    if (done(current)) return current;
    if (Date.now() > until) throw new Error(`job ${id} stayed ${current.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const finished = (j: BulkJob) => ['done', 'failed', 'cancelled', 'paused'].includes(j.status);

describe('POST /api/local/bulk-jobs: checks and estimate', () => {
  it('lists rejected entries and prices the new carriers (nothing billed in sandbox)', async () => {
    const e = await estimate(proxy, ['568253', 'junk', 'USDOT 568253', '2214589', 'MC-277621']);
    expect(bulkEstimateSchema.parse(e)).toEqual(e);
    expect(e.rejected.map((r) => [r.position, r.reason])).toEqual([
      [2, 'invalid'],
      [3, 'duplicate'],
    ]);
    expect(e).toMatchObject({
      carriers: 3,
      already_fetched: 0,
      billable: 3,
      unit_price_usd: 3,
      cost_usd: 0,
      metered_cost_usd: 9,
      billed: false,
      rate_per_minute: null,
      budget_usd: null,
      left_usd: null,
      within_budget: true,
    });
  });

  it('counts a cached carrier and a DOT already billed this month as free', async () => {
    const viewed = await proxy.call('/api/v2/profile?dot_number=4418207');
    expect(viewed.status).toBe(200);
    const e = await estimate(proxy, ['4418207', '3187452']);
    expect(e).toMatchObject({ carriers: 2, already_fetched: 1, billable: 1, metered_cost_usd: 3 });
    // billed this month though no longer cached: still free (the service bills a DOT once a month)
    expect(proxy.app.proxy.cache.invalidateDots(['4418207'])).toBeGreaterThan(0);
    const again = await estimate(proxy, ['4418207', '3187452']);
    expect(again).toMatchObject({ already_fetched: 1, billable: 1 });
  });

  it('refuses more than 5,000 identifiers, an empty list and a list without a valid entry', async () => {
    const many = Array.from({ length: 5001 }, (_, i) => String(i + 1));
    const tooMany = await post(proxy, '/api/local/bulk-jobs', { identifiers: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toMatchObject({
      code: 'too_many_identifiers',
      hint: expect.stringContaining('5,000'),
    });
    for (const identifiers of [[], ['junk', 'MC']]) {
      const none = await post(proxy, '/api/local/bulk-jobs', { identifiers });
      expect(none.status).toBe(400);
      expect(none.json).toMatchObject({ code: 'no_valid_identifiers' });
    }
    const bad = await post(proxy, '/api/local/bulk-jobs', { identifiers: '568253' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_identifiers' });
    const extra = await post(proxy, '/api/local/bulk-jobs', { identifiers: ['1'], run: true });
    expect(extra.json).toMatchObject({ code: 'unknown_field' });
  });

  it('numbers entries by their row in the file; the entries left out stay with the job after a restart', async () => {
    const config = sandboxConfig();
    const first = await startProxy(config);
    // rows of a spreadsheet: a header on row 1, blank rows 3, 6 and 8
    const body = {
      identifiers: ['568253', 'junk', '2214589', '123456789', 'USDOT 568253'],
      rows: [2, 4, 5, 7, 9],
      numbering: 'row',
    };
    const created = await post(first, '/api/local/bulk-jobs', body);
    expect(created.status, created.text).toBe(202);
    const { id, estimate: accepted } = createdAnswerSchema.parse(created.json);
    expect(accepted.numbering).toBe('row');
    expect(accepted.rejected.map((r) => [r.position, r.reason, r.input])).toEqual([
      [4, 'invalid', 'junk'],
      [7, 'invalid', '123456789'],
      [9, 'duplicate', 'USDOT 568253'],
    ]);
    expect(accepted.rejected[2]?.message).toBe('Repeats row 2 (568253).');
    await waitFor(first, id, (j) => j.status === 'done');
    await first.app.close();

    const second = await startProxy(config);
    try {
      const again = await job(second, id);
      expect(again.estimate).toEqual(accepted);
      expect(again.items.map((item) => [item.row, item.identifier, item.status])).toEqual([
        [2, '568253', 'done'],
        [5, '2214589', 'done'],
      ]);
      const listed = bulkJobListSchema.parse((await second.call('/api/local/bulk-jobs')).json);
      expect(listed.jobs[0]?.estimate.rejected).toHaveLength(3);
      const mismatch = await post(second, '/api/local/bulk-jobs', { ...body, rows: [2] });
      expect(mismatch.status).toBe(400);
      expect(mismatch.json).toMatchObject({ code: 'invalid_rows' });
    } finally {
      await second.close();
    }
  });

  it('refuses every write without the CSRF header, or cross-origin', async () => {
    const id = await createJob(proxy, ['568253']);
    const paths = [
      '/api/local/bulk-jobs',
      ...['pause', 'resume', 'cancel', 'retry-failed'].map(
        (a) => `/api/local/bulk-jobs/${id}/${a}`,
      ),
    ];
    for (const path of paths) {
      const bare = await post(proxy, path, { identifiers: ['2214589'] }, {});
      expect(bare.status, path).toBe(403);
      const cross = await post(
        proxy,
        path,
        { identifiers: ['2214589'] },
        {
          ...CSRF,
          origin: 'https://evil.example',
        },
      );
      expect(cross.status, path).toBe(403);
    }
    expect((await proxy.call('/api/local/bulk-jobs')).status).toBe(200);
  });
});

describe('running jobs through the mirror', () => {
  it('vets 60 carriers through an injected 429 and 503, each once, each DOT billed once', async () => {
    const before = await sandboxProfileBill(proxy);
    const dots = population(0, 60);
    await arm(proxy, [
      { path: '/v2/profile', status: 429, retry_after: 0, count: 1 },
      { path: '/v2/profile', status: 503, retry_after: 0, count: 1 },
    ]);
    const id = await createJob(proxy, dots);
    const ran = await waitFor(proxy, id, finished);
    expect(ran).toMatchObject({ status: 'done', total: 60, done: 60, failed: 0 });
    expect(ran.items.map((item) => item.dot_number)).toEqual(dots);
    expect(ran.items.every((item) => item.status === 'done' && item.attempts === 1)).toBe(true);
    expect(new Set(ran.items.map((item) => item.source))).toEqual(new Set(['upstream']));
    expect(ran.items[0]?.result).toMatchObject({ verdict: expect.any(String), policy_version: 1 });
    expect(ran.rate_per_minute).toBeGreaterThan(0);
    expect(ran.eta_seconds).toBeNull();
    const faults = await sandboxCall(proxy, '/__sandbox/faults');
    expect(faults.json).toEqual({ rules: [] });
    const after = await sandboxProfileBill(proxy);
    expect(after.billed - before.billed).toBe(60);
    expect(after.uniqueDots - before.uniqueDots).toBe(60);

    // The same list again: every carrier comes from the cache, nothing reaches the service.
    const e = await estimate(proxy, dots);
    expect(e).toMatchObject({ already_fetched: 60, billable: 0, duration_seconds: 0 });
    const rerun = await waitFor(proxy, await createJob(proxy, dots), finished);
    expect(rerun).toMatchObject({ status: 'done', done: 60 });
    expect(new Set(rerun.items.map((item) => item.source))).toEqual(new Set(['stored']));
    expect((await sandboxProfileBill(proxy)).calls).toBe(after.calls);

    const list = bulkJobListSchema.parse((await proxy.call('/api/local/bulk-jobs')).json);
    expect(list.jobs[0]?.id).not.toBe(id);
    expect(list.jobs.some((entry) => entry.id === id)).toBe(true);
  });

  it("holds the job's profiles within the cache's bulk share, keeping a user's held profile", async () => {
    // a 1 MB cache: the bulk share (1/8) holds a few sandbox profiles, the job looks up 40
    const small = await startProxy(
      sandboxConfig({ cache: { ...sandboxConfig().cache, maxBytes: 1024 * 1024 } }),
    );
    try {
      const held = (dot: string) =>
        small.call(`/api/v2/profile?dot_number=${dot}`, {
          headers: { ...CSRF, 'cache-control': 'only-if-cached' },
        });
      const viewed = population(200, 1)[0] ?? '';
      const view = await small.call(`/api/v2/profile?dot_number=${viewed}`, { headers: CSRF });
      expect(view.status).toBe(200);
      const dots = population(100, 40);
      const ran = await waitFor(small, await createJob(small, dots), finished);
      expect(ran).toMatchObject({ status: 'done', done: 40 });
      const { cache } = small.app.proxy;
      expect(cache.bulkBytes).toBeGreaterThan(0);
      expect(cache.bulkBytes).toBeLessThanOrEqual((1024 * 1024) / 8);
      // the user's view is still held; the job's first carriers were pushed out by its later ones
      expect((await held(viewed)).status).toBe(200);
      expect((await held(dots[0] ?? '')).status).toBe(504);
      expect((await held(dots.at(-1) ?? '')).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('judges each carrier as the verdict route does (same policy, same reasons)', async () => {
    const dots = ['2214589', '4418207', '3187452', '265752'];
    const ran = await waitFor(proxy, await createJob(proxy, dots), finished);
    expect(ran.done).toBe(dots.length);
    for (const item of ran.items) {
      const answer = await proxy.call(`/api/local/verdict?dot_number=${item.dot_number ?? ''}`);
      const verdict = answer.json as {
        verdict: string;
        legal_name: string;
        reasons: { outcome: string; label: string; message: string }[];
      };
      expect(item.verdict).toBe(verdict.verdict);
      expect(item.result?.name).toBe(verdict.legal_name);
      expect(item.result?.reasons).toEqual(
        verdict.reasons
          .filter((reason) => reason.outcome !== 'pass')
          .map((reason) => `${reason.label}: ${reason.message}`),
      );
    }
    expect(ran.items.map((item) => item.verdict)).toContain('review');
    // the chameleon pair: 4418207 is linked to the out-of-service 3187452
    expect(ran.items[1]?.result?.linked_warnings).toBeGreaterThan(0);
  });

  it('fails unknown carriers as not_found and pages items by status', async () => {
    const id = await createJob(proxy, ['568253', '99999998', 'MC9999997']);
    const ran = await waitFor(proxy, id, finished);
    expect(ran).toMatchObject({ status: 'done', done: 1, failed: 2 });
    const failed = await job(proxy, id, '?status=failed&limit=1&offset=1');
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      position: 3,
      status: 'failed',
      error: { code: 'not_found' },
    });
    const bad = await proxy.call(`/api/local/bulk-jobs/${id}?limit=5001`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_limit' });
    expect((await proxy.call('/api/local/bulk-jobs/nope')).status).toBe(404);
    expect((await post(proxy, '/api/local/bulk-jobs/nope/pause')).status).toBe(404);

    // retry-failed runs the failed items again, and only them
    const retried = await post(proxy, `/api/local/bulk-jobs/${id}/retry-failed`);
    expect(retried.status).toBe(200);
    const again = await waitFor(proxy, id, (j) => j.status === 'done' && j.failed === 2);
    expect(again.items.map((item) => item.attempts)).toEqual([1, 2, 2]);
  });

  it('pauses, resumes and cancels a running job; impossible transitions are 409', async () => {
    await arm(proxy, [{ path: '/v2/profile', delay_ms: 150, count: 40 }]);
    const id = await createJob(proxy, population(100, 20));
    await waitFor(proxy, id, (j) => j.status === 'running' && j.done >= 1);
    const paused = await post(proxy, `/api/local/bulk-jobs/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.json).toMatchObject({ status: 'paused' });
    const again = await post(proxy, `/api/local/bulk-jobs/${id}/pause`);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'invalid_transition', hint: expect.any(String) });
    // the item in hand finishes; nothing after it starts
    await new Promise((resolve) => setTimeout(resolve, 400));
    const held = await job(proxy, id);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await job(proxy, id)).done).toBe(held.done);
    expect(held.eta_seconds).toBeNull();

    expect((await post(proxy, `/api/local/bulk-jobs/${id}/resume`)).status).toBe(200);
    await waitFor(proxy, id, (j) => j.done > held.done);
    const cancelled = await post(proxy, `/api/local/bulk-jobs/${id}/cancel`);
    expect(cancelled.json).toMatchObject({ status: 'cancelled' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const end = await job(proxy, id);
    expect(end.status).toBe('cancelled');
    expect(end.done).toBeLessThan(20);
    expect(end.items.filter((item) => item.status === 'cancelled').length).toBe(20 - end.done);
    for (const action of ['resume', 'cancel', 'pause', 'retry-failed']) {
      expect((await post(proxy, `/api/local/bulk-jobs/${id}/${action}`)).status).toBe(409);
    }
    await sandboxCall(proxy, '/__sandbox/faults', 'DELETE');
  });
});

describe('the monthly budget', () => {
  let capped: RunningProxy;

  beforeAll(async () => {
    capped = await startProxy(sandboxConfig({ monthlyBudgetUsd: 10 }));
  });

  afterAll(async () => {
    await capped.close();
  });

  it('refuses a run that would cross it, with the figures; pauses a job the budget stops', async () => {
    const over = await post(capped, '/api/local/bulk-jobs', {
      identifiers: population(0, 4),
    });
    expect(over.status).toBe(402);
    expect(over.json).toMatchObject({ code: 'budget_exceeded' });
    expect((over.json as { error: string }).error).toMatch(/12\.00 USD.*0\.00 of 10\.00 USD/);
    const e = await estimate(capped, population(0, 4));
    expect(e).toMatchObject({ within_budget: false, budget_usd: 10, left_usd: 10, cost_usd: 0 });

    // A job accepted within the budget; while its first carrier is in flight, two profiles are
    // viewed directly (9 of 10 USD spent): the job's second carrier would cross the budget.
    await arm(capped, [{ path: '/v2/profile', delay_ms: 300, count: 10 }]);
    const id = await createJob(capped, population(0, 3));
    const views = await Promise.all(
      ['568253', '2214589'].map((dot) => capped.call(`/api/v2/profile?dot_number=${dot}`)),
    );
    expect(views.map((view) => view.status)).toEqual([200, 200]);
    const stopped = await waitFor(capped, id, finished);
    expect(stopped).toMatchObject({
      status: 'paused',
      done: 1,
      failed: 0,
      eta_seconds: null,
      pause_reason: { code: 'budget_exceeded', message: expect.stringContaining('10.00') },
    });
    expect(stopped.items.map((item) => item.status)).toEqual(['done', 'pending', 'pending']);
    const bill = await sandboxProfileBill(capped);
    expect(bill.billed).toBe(3);
    await sandboxCall(capped, '/__sandbox/faults', 'DELETE');
  });
});
