/**
 * The budget is a cap: spend is reserved (written as pending ledger rows) before a call is sent,
 * in the same transaction as the budget check, so concurrent calls cannot together cross it; a
 * search whose DOTs are unknown is priced at its page's worst case. And the reservation's end:
 * settled by the answer, released when nothing reached the service, kept as uncertain otherwise.
 * Real proxy, fake origin, real SQLite file.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  answerJson,
  startFakeOrigin,
  startProxy,
  profileByDot,
  testConfig,
  type FakeOrigin,
  type OriginHandler,
  type RunningProxy,
} from './helpers.test-support.ts';

let origin: FakeOrigin | undefined;
let proxy: RunningProxy | undefined;

afterEach(async () => {
  await proxy?.close();
  await origin?.close();
  proxy = undefined;
  origin = undefined;
});

async function start(handler: OriginHandler, monthlyBudgetUsd?: number, baseUrl?: string) {
  origin = await startFakeOrigin(handler);
  const config = testConfig({
    monthlyBudgetUsd,
    upstream: { baseUrl: baseUrl ?? origin.url } as never,
  });
  proxy = await startProxy(config);
  return { origin, proxy, file: join(config.dataDir, 'proxy.sqlite') };
}

interface LedgerLine {
  dot: string | null;
  state: string;
  price_mills: number;
}

function ledger(file: string): LedgerLine[] {
  const reader = new Database(file, { readonly: true });
  try {
    return reader
      .prepare<[], LedgerLine>('SELECT dot, state, price_mills FROM spend_ledger ORDER BY id')
      .all();
  } finally {
    reader.close();
  }
}

const profileCalls = (o: FakeOrigin) => o.requests.filter((r) => r.url.startsWith('/v2/profile'));

describe('the monthly budget is a cap', () => {
  it('lets at most 3 of 20 concurrent new-DOT profile views (3 USD each) through a 10 USD budget', async () => {
    const { origin, proxy } = await start((req, res) => {
      // slow enough that all 20 are in flight together
      setTimeout(() => profileByDot(req, res), 150);
    }, 10);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        proxy.call(`/api/v2/profile?dot_number=${1000 + i}`, { headers: CSRF }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    const refused = answers.find((a) => a.status === 402);
    expect(refused?.json).toMatchObject({ code: 'budget_exceeded' });
    expect((refused?.json as { error: string }).error).toMatch(/3\.00 USD.*9\.00 of 10\.00 USD/);
    expect(profileCalls(origin)).toHaveLength(3);
    const usage = (await proxy.call('/api/local/usage')).json as {
      spentUsd: number;
      reservedUsd: number;
    };
    expect(usage.spentUsd).toBe(9);
    expect(usage.reservedUsd).toBe(0);
  });

  it('refuses a company search whose page could cross the budget, before sending it', async () => {
    const { origin, proxy } = await start(profileByDot, 10);
    const search = await proxy.call('/api/v2/profile?company=hansen', { headers: CSRF });
    expect(search.status).toBe(402);
    expect(search.json).toMatchObject({ code: 'budget_exceeded' });
    // the default page is 100 carriers at 3.00 USD
    expect((search.json as { error: string }).error).toMatch(/300\.00 USD/);
    const lite = await proxy.call('/api/v2/profile-lite?company=hansen&pageSize=21', {
      headers: CSRF,
    });
    expect(lite.status).toBe(402);
    expect((lite.json as { error: string }).error).toMatch(/10\.50 USD/);
    expect(profileCalls(origin)).toHaveLength(0);
  });

  it('lets a search through when its page fits, and bills the DOTs it served', async () => {
    const { origin, proxy, file } = await start(
      (_req, res) =>
        answerJson(res, 200, {
          items: [
            { dot_number: '11', doc_id: '11-MC1' },
            { dot_number: '12', doc_id: '12-MC2' },
          ],
          total_count: 2,
        }),
      10,
    );
    const search = await proxy.call('/api/v2/profile?company=hansen&pageSize=3', {
      headers: CSRF,
    });
    expect(search.status, search.text).toBe(200);
    expect(profileCalls(origin)).toHaveLength(1);
    expect(ledger(file)).toEqual([
      { dot: '11', state: 'settled', price_mills: 3000 },
      { dot: '12', state: 'settled', price_mills: 3000 },
    ]);
  });
});

describe('the reservation of a call', () => {
  it('is released when the call never reached the service', async () => {
    // port 9 (discard) on loopback refuses the connection: nothing was sent
    const { proxy, file } = await start(profileByDot, undefined, 'http://127.0.0.1:9');
    const failed = await proxy.call('/api/v2/profile?dot_number=77', { headers: CSRF });
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ code: 'upstream_unreachable' });
    expect(ledger(file)).toEqual([]);
  });

  it('stays, priced at the quote and uncertain, when the connection broke after sending', async () => {
    const { origin, proxy, file } = await start((_req, res) => res.socket?.destroy());
    const failed = await proxy.call('/api/v2/profile?company=hansen&pageSize=2', {
      headers: CSRF,
    });
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ code: 'upstream_interrupted' });
    expect(profileCalls(origin)).toHaveLength(1);
    expect(ledger(file)).toEqual([{ dot: null, state: 'uncertain', price_mills: 6000 }]);
    const usage = (await proxy.call('/api/local/usage')).json as {
      spentUsd: number;
      uncertainUsd: number;
    };
    expect(usage).toMatchObject({ spentUsd: 6, uncertainUsd: 6 });
  });

  it('is released when the service answers an error it does not bill', async () => {
    const { proxy, file } = await start((_req, res) =>
      answerJson(res, 404, { error: 'Not found', code: 'not_found' }),
    );
    const missing = await proxy.call('/api/v2/profile-fmcsa?dot_number=5', { headers: CSRF });
    expect(missing.status).toBe(404);
    expect(ledger(file)).toEqual([]);
  });
});
