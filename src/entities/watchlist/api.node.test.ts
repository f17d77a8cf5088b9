// @vitest-environment node
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from '../../../server-proxy/src/config.ts';
import { dotOfRow } from '../../../server-proxy/src/sandbox/data/population-identity.ts';
import { formatProfileId } from '../../../server-proxy/src/sandbox/monitoring/ids.ts';
import {
  startProxy,
  testConfig,
  type RunningProxy,
} from '../../../server-proxy/src/helpers.test-support.ts';
import {
  bulkWatch,
  getWatchState,
  listWatchedIds,
  unwatchProfiles,
  type BulkProgress,
} from './api.ts';
import { estimateWatch, planResolution, resolveEntries } from './cost.ts';
import { canonicalProfileId, profileIdOf } from '../../lib/watchlist/profile-id.ts';

const NETWORK_SIZE = 250;
let proxy: RunningProxy;
let network: string[];

async function sandbox(method: string, path: string, body?: unknown) {
  const url = proxy.app.proxy.sandbox?.url ?? '';
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${EMBEDDED_SANDBOX_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok).toBe(true);
  return (await response.json()) as unknown;
}

function arm207(count: number) {
  return sandbox('POST', '/__sandbox/faults', {
    rules: [{ path: '/v2/monitoring/add', method: 'POST', status: 207, count }],
  });
}

/** Paid monitoring charges per DOT in the sandbox's own ledger. */
function monitoringCharges(): Map<string, number> {
  const db = proxy.app.proxy.sandbox?.app.sandbox.db;
  const rows =
    db
      ?.prepare<[], { dot: string; n: number }>(
        `SELECT dot, COUNT(*) AS n FROM ledger_events
         WHERE kind = 'monitoring' AND amount_mills > 0 GROUP BY dot`,
      )
      .all() ?? [];
  return new Map(rows.map((row) => [row.dot, row.n]));
}

const options = () => ({ baseUrl: proxy.url, onUnauthenticated: () => undefined });

beforeAll(async () => {
  proxy = await startProxy(
    testConfig({
      mode: 'sandbox',
      embeddedSandbox: true,
      upstream: { baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
    }),
  );
  const dataset = proxy.app.proxy.sandbox?.app.sandbox.dataset;
  network = Array.from({ length: NETWORK_SIZE }, (_, row) => {
    const identity = dataset?.getIdentity(dotOfRow(row));
    return formatProfileId(identity?.dot ?? '', identity?.docket);
  });
}, 60_000);

afterAll(async () => {
  await proxy.close();
});

beforeEach(async () => {
  await sandbox('DELETE', '/__sandbox/faults');
});

describe('canonicalProfileId', () => {
  it('upper-cases and trims ids, refuses anything else', () => {
    expect(canonicalProfileId(' 568253-mc277621 ')).toBe('568253-MC277621');
    expect(canonicalProfileId('1234567')).toBe('1234567');
    expect(canonicalProfileId('MC277621')).toBeUndefined();
    expect(canonicalProfileId('0568253-MC277621')).toBeUndefined();
  });
});

describe('profileIdOf', () => {
  it('takes doc_id, else <dot>-<docket>, else the DOT alone', () => {
    expect(profileIdOf({ dot_number: '568253', doc_id: '568253-mc277621' })).toBe(
      '568253-MC277621',
    );
    expect(profileIdOf({ dot_number: '568253', docket: 'MC277621' })).toBe('568253-MC277621');
    expect(
      profileIdOf({ dot_number: '568253', docket_prefix: 'MC', docket_number: '277621' }),
    ).toBe('568253-MC277621');
    expect(profileIdOf({ dot_number: '1455872' })).toBe('1455872');
    expect(profileIdOf({ doc_id: 'nonsense', docket: 'MC1' }, '1455872')).toBe('1455872-MC1');
    expect(profileIdOf({})).toBeUndefined();
  });
});

describe('bulkWatch against the proxy and sandbox', () => {
  it('commits a network of 250 ids through injected 207s, verified, and billed once', async () => {
    const seeded = '568253-MC277621'; // on the seeded watchlist
    await arm207(3);
    const progress: BulkProgress[] = [];
    const result = await bulkWatch([...network, seeded, network[0] ?? '', 'MC277621'], {
      ...options(),
      onProgress: (p) => progress.push(p),
    });
    expect(result.failed).toEqual([{ id: 'MC277621', reason: 'Not a profile id' }]);
    expect([...result.added].sort()).toEqual([...network].sort());
    expect(result.alreadyWatched).toEqual([seeded]);
    // every requested id is on the list
    const watched = await listWatchedIds(options());
    expect(network.every((id) => watched.has(id))).toBe(true);
    // the faults were all used, so the first chunk was sent four times
    expect(await sandbox('GET', '/__sandbox/faults')).toEqual({ rules: [] });
    // billed once per DOT, in the sandbox's ledger and the proxy's meter
    // (the seeded carrier was complimentary until this key re-added it: billed once too)
    const charges = monitoringCharges();
    for (const id of [...network, seeded]) expect(charges.get(id.split('-')[0] ?? '')).toBe(1);
    const usage = await proxy.call('/api/local/usage');
    const monitoring = (
      usage.json as { byCategory: { category: string; billedUnits: number }[] }
    ).byCategory.find((c) => c.category === 'monitoring');
    expect(monitoring?.billedUnits).toBe(NETWORK_SIZE + 1);
    // progress: checking, every chunk sent, verified
    expect(progress[0]).toMatchObject({ phase: 'checking' });
    expect(progress.filter((p) => p.phase === 'sending').map((p) => p.done)).toEqual([
      100, 200, 251,
    ]);
    expect(progress.at(-1)).toEqual({ phase: 'verifying', done: 251, total: 251 });
  }, 60_000);

  it('reports what the attempts could not commit, and nothing else', async () => {
    const ids = network.slice(0, 150);
    await unwatchProfiles(ids, options());
    // one 207 on the first chunk: the second attempt commits it
    await arm207(1);
    const result = await bulkWatch(ids, { ...options(), maxAttempts: 2 });
    expect(result.failed).toEqual([]);
    expect(result.added).toHaveLength(150);

    await unwatchProfiles(ids, options());
    await sandbox('POST', '/__sandbox/faults', {
      rules: [{ path: '/v2/monitoring/add', method: 'POST', status: 207, count: 100 }],
    });
    const failing = await bulkWatch(ids, { ...options(), maxAttempts: 2, chunkSize: 150 });
    // the sandbox commits chunks of 100 and fails the last one: ids 101-150 stay out
    expect(failing.added).toEqual(ids.slice(0, 100));
    expect(failing.failed.map((f) => f.id)).toEqual(ids.slice(100));
    expect(failing.failed[0]?.reason).toMatch(/not committed|retry/i);
    expect((await getWatchState(ids[120] ?? '', options())).watched).toBe(false);
    expect((await getWatchState(ids[10] ?? '', options())).watched).toBe(true);
  }, 60_000);

  it("reports an unknown carrier with the service's reason after bounded attempts", async () => {
    const ids = ['9999999-MC1', ...network.slice(0, 3)];
    await unwatchProfiles(network.slice(0, 3), options());
    const result = await bulkWatch(ids, { ...options(), maxAttempts: 2 });
    // an unknown carrier is reported by the service's 207 and re-sent until attempts run out
    expect(result.failed).toMatchObject([{ id: '9999999-MC1', reason: 'Profile not found' }]);
    expect(result.added).toEqual(network.slice(0, 3));
  }, 60_000);
});

describe('costs before watching', () => {
  it('estimates ids with and without a docket, free once billed this month', async () => {
    const ids = [network[200] ?? '', network[201] ?? '', '1455872'];
    await unwatchProfiles(ids, options());
    const before = await estimateWatch(ids, options());
    expect(before).toMatchObject({ units: 3, unitPriceUsd: 0.5 });
    const result = await bulkWatch(ids, options());
    expect(result.failed).toEqual([]);
    const after = await estimateWatch(ids, options());
    expect(after).toMatchObject({ units: 3, billableUnits: 0, costUsd: 0 });
    expect(after.billing?.billed).toBe(false);
  }, 60_000);

  it('plans for free, then resolves DOTs to profile ids', async () => {
    const dot = network[202]?.split('-')[0] ?? '';
    const entries = [dot, '1455872', network[203] ?? '', 'hansen'];
    const plan = await planResolution(entries, options());
    expect(plan).toMatchObject({ entries: 4, profileIds: 1, dots: 2, dockets: 0, invalid: 1 });
    expect(plan.maxCostUsd).toBeGreaterThan(0);
    const resolution = await resolveEntries(entries, options());
    expect(resolution.profile_ids).toEqual([network[202], '1455872', network[203]]);
    expect(resolution.unresolved).toMatchObject([{ input: 'hansen', reason: 'invalid_entry' }]);
  }, 60_000);
});
