/**
 * Standing through PostgreSQL (DATABASE_URL): two proxies on one real PostgreSQL, in front of one
 * sandbox, over HTTP. A decision recorded on A is previewed and flagged by a policy saved on B
 * (B holds no profile: it judges from the record), A then answers "needs re-vet" from the shared
 * vetting_standing_change table, and a newer decision on A clears it for both. Skipped, with the
 * reason, only where PostgreSQL is not installed (team/replicas.test-support.ts).
 */
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../sql/engines.test-support.ts';
import { asUser, useReplicas, useSandbox } from '../team/replicas.test-support.ts';
import type { RunningProxy } from '../helpers.test-support.ts';

const SANDBOX_KEY = 'sk_test_shared_standing';
const DOT = '4418207';
const headers = asUser('val');
const postgres = usePostgres();
const replicas = useReplicas(useSandbox({ apiKey: SANDBOX_KEY }));

/** A replica on the database at `databaseUrl`, in front of the shared sandbox. */
const replica = (databaseUrl: string) => replicas.start({ databaseUrl });

async function current(proxy: RunningProxy) {
  const answer = await proxy.call(`/api/local/decisions/current?dot_numbers=${DOT}`, { headers });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { items: Record<string, unknown>[] }).items[0];
}

async function flaggedTotal(proxy: RunningProxy) {
  const answer = await proxy.call('/api/local/decisions/current?all=1&needs_revet=1', { headers });
  expect(answer.status, answer.text).toBe(200);
  return (answer.json as { total: number }).total;
}

describe('standing shared by two proxies on one PostgreSQL', () => {
  it('a policy saved on one replica flags a decision recorded on the other, until a newer one', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);
    expect((await a.call(`/api/local/verdict?dot_number=${DOT}`, { headers })).status).toBe(200);
    const approved = await a.call('/api/local/decisions', {
      method: 'POST',
      headers,
      body: {
        dot_number: DOT,
        decision: 'approved',
        override_reason: 'Vouched for by the shipper',
      },
    });
    expect(approved.status, approved.text).toBe(201);
    expect(await current(a)).toMatchObject({ standing: 'holds', now: { source: 'profile' } });

    const body = { rules: { shared_identifiers: { outcome: 'fail' } } };
    const preview = await b.call('/api/local/policy/preview', { method: 'POST', headers, body });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json).toMatchObject({
      version_from: 1,
      would_fail: [{ dot_number: DOT, standing_before: 'holds', standing_after: 'now_fails' }],
      would_review: [],
      would_pass: [],
      unchanged: 0,
    });
    const saved = await b.call('/api/local/policy', { method: 'PUT', headers, body });
    expect(saved.status, saved.text).toBe(201);

    expect(await current(a)).toMatchObject({
      standing: 'now_fails',
      needs_revet: true,
      now: { verdict: 'fail', policy_version: 2, source: 'profile' },
    });
    expect(await current(b)).toMatchObject({
      standing: 'now_fails',
      needs_revet: true,
      now: { verdict: 'fail', source: 'record' },
    });
    expect(await flaggedTotal(a)).toBe(1);

    const rejected = await a.call('/api/local/decisions', {
      method: 'POST',
      headers,
      body: { dot_number: DOT, decision: 'rejected' },
    });
    expect(rejected.status, rejected.text).toBe(201);
    expect(await current(b)).toMatchObject({ decision: 'rejected', needs_revet: false });
    expect(await flaggedTotal(b)).toBe(0);
  });
});
