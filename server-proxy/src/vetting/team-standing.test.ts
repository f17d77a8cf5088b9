/**
 * The standing's held data in team mode: two proxies on one PostgreSQL and one Redis (REDIS_URL),
 * over HTTP, in front of one sandbox behind a recording pass-through. A carrier viewed and decided
 * on A is judged on B from the profile in the shared cache (a peek: B fetches nothing, the service
 * sees no new call), not from the record. Skipped, with the reason, only where PostgreSQL or
 * Redis is not installed (team/replicas.test-support.ts).
 */
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../sql/engines.test-support.ts';
import { asUser, useRedis, useReplicas, useSandbox } from '../team/replicas.test-support.ts';
import type { RunningProxy } from '../helpers.test-support.ts';

const SANDBOX_KEY = 'sk_test_team_standing';
const DOT = '4418207';
const headers = asUser('val');
const postgres = usePostgres();
const shared = useRedis();
const sandbox = useSandbox({ apiKey: SANDBOX_KEY, recording: true });
const replicas = useReplicas(sandbox);

/** A replica on the database at `databaseUrl`, with the shared Redis when `redisUrl` is given. */
const replica = (databaseUrl: string, redisUrl: string | undefined) =>
  replicas.start({ databaseUrl, ...(redisUrl ? { redisUrl } : {}) });

async function nowOf(proxy: RunningProxy) {
  const answer = await proxy.call(`/api/local/decisions/current?dot_numbers=${DOT}`, { headers });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { items: { now: { source: string; verdict: string } | null }[] }).items[0]
    ?.now;
}

describe('standing with a shared cache', () => {
  it('a replica judges from the profile another replica holds in the shared cache, fetching nothing', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl, shared.url);
    const b = await replica(databaseUrl, shared.url);
    const alone = await replica(databaseUrl, undefined);
    expect((await a.call(`/api/local/verdict?dot_number=${DOT}`, { headers })).status).toBe(200);
    const decided = await a.call('/api/local/decisions', {
      method: 'POST',
      headers,
      body: { dot_number: DOT, decision: 'approved', override_reason: 'Vouched for' },
    });
    expect(decided.status, decided.text).toBe(201);
    const calls = sandbox.front.callsTo('/v2/profile').length;
    expect(calls).toBe(1);

    expect(await nowOf(b)).toMatchObject({ source: 'profile', verdict: 'review' });
    // without the shared cache, a replica holding nothing judges from the record
    expect(await nowOf(alone)).toMatchObject({ source: 'record', verdict: 'review' });
    const preview = await b.call('/api/local/policy/preview', {
      method: 'POST',
      headers,
      body: { rules: { shared_identifiers: { outcome: 'fail' } } },
    });
    expect(preview.json).toMatchObject({ would_fail: [{ dot_number: DOT }] });
    expect(sandbox.front.callsTo('/v2/profile').length).toBe(calls);
  });
});
