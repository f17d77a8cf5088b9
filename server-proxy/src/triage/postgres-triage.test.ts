/**
 * Triage shared through PostgreSQL (DATABASE_URL): two proxies, each with its own DATA_DIR, on one
 * real PostgreSQL, over HTTP, stand for two replicas behind a load balancer. Skipped, with the
 * reason, only where PostgreSQL is not installed (sql/engines.test-support.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { triageId } from '../../../src/lib/service/triage-id.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import {
  captureLog,
  CSRF,
  startProxy,
  testConfig,
  type CallResult,
  type RunningProxy,
} from '../helpers.test-support.ts';

const postgres = usePostgres();

const proxies: RunningProxy[] = [];

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const PROFILE = '568253-MC277621';
const FIELD = 'insurance_bipd_on_file';
const CHANGE = triageId({
  profileId: PROFILE,
  field: FIELD,
  date: '2026-09-12',
  prior: null,
  current: 1000000,
});
const AS_VAL = { 'x-forwarded-user': 'val', 'x-forwarded-role': 'admin' };

function config(databaseUrl: string, logLevel?: 'info') {
  return testConfig({
    auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
    databaseUrl,
    ...(logLevel && { logLevel }),
  });
}

function markReviewed(proxy: RunningProxy, note: string): Promise<CallResult> {
  return proxy.call('/api/local/triage', {
    method: 'PUT',
    headers: { ...CSRF, ...AS_VAL },
    body: { items: [{ id: CHANGE, profile_id: PROFILE, field: FIELD, state: 'reviewed', note }] },
  });
}

function readTriage(proxy: RunningProxy): Promise<CallResult> {
  return proxy.call(`/api/local/triage?ids=${CHANGE}`, { headers: AS_VAL });
}

describe('triage shared by two proxies on one PostgreSQL', () => {
  it('a change marked Reviewed with a note on one replica reads as Reviewed on the other', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await startProxy(config(databaseUrl));
    const b = await startProxy(config(databaseUrl));
    proxies.push(a, b);

    const put = await markReviewed(a, 'insurer confirmed by phone');
    expect(put.status, put.text).toBe(200);

    const onB = await readTriage(b);
    expect(onB.status, onB.text).toBe(200);
    expect(onB.json).toEqual({
      items: [
        {
          id: CHANGE,
          profile_id: PROFILE,
          field: FIELD,
          channel: 'insurance',
          state: 'reviewed',
          note: 'insurer confirmed by phone',
          by: 'val',
          at: expect.any(String) as unknown,
        },
      ],
    });
    const summary = await b.call('/api/local/triage/summary', { headers: AS_VAL });
    expect(summary.json).toMatchObject({ total: { reviewed: 1, escalated: 0 } });

    // the inbox visit too: recorded on B, the previous one on A
    const first = await a.call('/api/local/triage/last-visit', {
      method: 'PUT',
      headers: { ...CSRF, ...AS_VAL },
      body: {},
    });
    expect(first.status, first.text).toBe(200);
    const second = await b.call('/api/local/triage/last-visit', {
      method: 'PUT',
      headers: { ...CSRF, ...AS_VAL },
      body: {},
    });
    expect(second.json).toMatchObject({
      previousVisitAt: (first.json as { lastVisitAt: string }).lastVisitAt,
    });

    // set back to New on B: gone on A
    const reset = await b.call('/api/local/triage', {
      method: 'PUT',
      headers: { ...CSRF, ...AS_VAL },
      body: { items: [{ id: CHANGE, profile_id: PROFILE, field: FIELD, state: 'new' }] },
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await readTriage(a)).json).toEqual({ items: [] });
  });

  // Last: stops the server.
  it('PostgreSQL down: the triage routes answer 503 storage_unavailable, not 500', async () => {
    const log = captureLog();
    const a = await startProxy(config(await postgres.freshDatabase(), 'info'), {
      logStream: log,
    });
    proxies.push(a);
    expect((await markReviewed(a, 'before')).status).toBe(200);
    await postgres.stop();

    const answers = [
      await readTriage(a),
      await markReviewed(a, 'after'),
      await a.call('/api/local/triage/summary', { headers: AS_VAL }),
      await a.call('/api/local/triage/last-visit', { headers: AS_VAL }),
      await a.call('/api/local/triage/last-visit', {
        method: 'PUT',
        headers: { ...CSRF, ...AS_VAL },
        body: {},
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
    }
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  });
});
