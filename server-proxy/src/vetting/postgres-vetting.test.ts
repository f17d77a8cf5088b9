/**
 * Policy versions and the decision chain shared through PostgreSQL (DATABASE_URL): two proxies,
 * each with its own DATA_DIR, on one real PostgreSQL and in front of one sandbox, over HTTP, stand
 * for two replicas behind a load balancer (team/replicas.test-support.ts). Skipped, with the
 * reason, only where PostgreSQL is not installed.
 */
import { describe, expect, it } from 'vitest';
import type { LogStream } from '../logging.ts';
import { usePostgres } from '../sql/engines.test-support.ts';
import { asUser, useReplicas, useSandbox } from '../team/replicas.test-support.ts';
import { captureLog, type CallResult, type RunningProxy } from '../helpers.test-support.ts';
import { GENESIS_HASH } from './store.ts';

const SANDBOX_KEY = 'sk_test_shared_decisions';
const DOT = '568253';
const postgres = usePostgres();
const replicas = useReplicas(useSandbox({ apiKey: SANDBOX_KEY }));

interface Record {
  id: number;
  hash: string;
  prev_hash: string;
  dot_number: string;
  decision: string;
  note: string | null;
  user: { id: string; name: string };
  policy_version: number;
}

const as = asUser;

/** A replica on the database at `databaseUrl`, in front of the shared sandbox. */
const replica = (databaseUrl: string, logStream?: LogStream) =>
  replicas.start({ databaseUrl, ...(logStream && { logStream }) });

/** View the carrier's verdict (its profile is then cached on this replica, and audited). */
async function view(proxy: RunningProxy, user: string): Promise<CallResult> {
  const answer = await proxy.call(`/api/local/verdict?dot_number=${DOT}`, { headers: as(user) });
  expect(answer.status, answer.text).toBe(200);
  return answer;
}

function decide(proxy: RunningProxy, user: string, note: string): Promise<CallResult> {
  return proxy.call('/api/local/decisions', {
    method: 'POST',
    headers: as(user),
    body: { dot_number: DOT, decision: 'approved', note },
  });
}

/** Every record, oldest first, read page by page from `proxy`. */
async function allRecords(proxy: RunningProxy): Promise<Record[]> {
  const records: Record[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await proxy.call(`/api/local/decisions?page=${page}`, { headers: as('val') });
    expect(answer.status, answer.text).toBe(200);
    const body = answer.json as { items: Record[]; total: number };
    records.push(...body.items);
    if (body.items.length === 0 || records.length >= body.total) break;
  }
  return records.sort((a, b) => a.id - b.id);
}

describe('decisions shared by two proxies on one PostgreSQL', () => {
  it('a decision recorded on one replica is listed, current and verified on the other; so is a policy', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);

    await view(a, 'val');
    const posted = await decide(a, 'val', 'insurance confirmed');
    expect(posted.status, posted.text).toBe(201);
    const record = posted.json as Record;
    expect(record).toMatchObject({ prev_hash: GENESIS_HASH, user: { id: 'val' } });

    const listed = await b.call('/api/local/decisions', { headers: as('ana') });
    expect(listed.json).toMatchObject({
      total: 1,
      items: [{ id: record.id, hash: record.hash }],
    });
    expect(
      (await b.call(`/api/local/decisions/${record.id}`, { headers: as('ana') })).json,
    ).toEqual(record);
    const current = await b.call(`/api/local/decisions/current?dot_numbers=${DOT}`, {
      headers: as('ana'),
    });
    // B holds no profile of the carrier: its verdict now comes from the record A wrote
    expect(current.json).toEqual({
      items: [
        {
          ...record,
          now: expect.objectContaining({ verdict: 'pass', source: 'record' }),
          standing: 'holds',
          needs_revet: false,
          override: false,
          revet_due: null,
        },
      ],
    });
    const verified = await b.call('/api/local/decisions/verify', { headers: as('ana') });
    expect(verified.json).toMatchObject({ ok: true, count: 1, signed: 1 });

    // a policy saved on B is the policy of A's next verdict and decision
    const saved = await b.call('/api/local/policy', {
      method: 'PUT',
      headers: as('ana'),
      body: { rules: { new_entrant: { threshold: 365 } }, note: 'shorter' },
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json).toMatchObject({ version: 2, created_by: 'ana' });
    expect((await a.call('/api/local/policy', { headers: as('val') })).json).toMatchObject({
      version: 2,
      note: 'shorter',
    });
    expect((await view(a, 'val')).json).toMatchObject({ policy_version: 2 });
    const second = await decide(a, 'val', 'after the policy change');
    expect(second.json).toMatchObject({ policy_version: 2, prev_hash: record.hash });
  });

  it('decisions recorded at once on both replicas form one intact chain', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);
    await view(a, 'val');
    await view(b, 'ana');

    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        n % 2 ? decide(a, 'val', `a ${n}`) : decide(b, 'ana', `b ${n}`),
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);

    const records = await allRecords(a);
    expect(records).toHaveLength(24);
    expect(records[0]?.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < records.length; i += 1) {
      expect(records[i]?.prev_hash).toBe(records[i - 1]?.hash);
    }
    expect(new Set(records.map((r) => r.user.id))).toEqual(new Set(['val', 'ana']));
    for (const proxy of [a, b]) {
      const verified = await proxy.call('/api/local/decisions/verify', { headers: as('val') });
      expect(verified.json).toMatchObject({ ok: true, count: 24, signed: 24 });
    }
  });

  it('a carrier viewed on one replica may be decided on from the other (the audit log is shared)', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);
    const never = await decide(b, 'ana', 'not viewed anywhere');
    expect(never.status, never.text).toBe(404);
    expect(never.json).toMatchObject({ code: 'profile_not_fetched' });

    await view(a, 'val');
    // A writes its audit rows in batches: B sees the view once A's batch is in
    let posted = await decide(b, 'ana', 'viewed on A');
    for (let tries = 0; posted.status === 404 && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      posted = await decide(b, 'ana', 'viewed on A');
    }
    expect(posted.status, posted.text).toBe(201);
    expect(posted.json).toMatchObject({ dot_number: DOT, user: { id: 'ana' } });
  });

  // Last: stops the server.
  it('PostgreSQL down: the vetting routes answer 503 storage_unavailable, not 500', async () => {
    const log = captureLog();
    const a = await replica(await postgres.freshDatabase(), log);
    await view(a, 'val');
    const posted = await decide(a, 'val', 'before');
    expect(posted.status, posted.text).toBe(201);
    const { id } = posted.json as Record;
    await postgres.stop();

    const get = (path: string) => a.call(path, { headers: as('val') });
    const answers = [
      await get(`/api/local/verdict?dot_number=${DOT}`),
      await decide(a, 'val', 'after'),
      await get('/api/local/decisions'),
      await get('/api/local/decisions/verify'),
      await get(`/api/local/decisions/current?dot_numbers=${DOT}`),
      await get(`/api/local/decisions/${id}`),
      await get('/api/local/policy'),
      await get('/api/local/policy/versions'),
      await get('/api/local/policy/versions/1'),
      await a.call('/api/local/policy', {
        method: 'PUT',
        headers: as('val'),
        body: { rules: { new_entrant: { threshold: 365 } } },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(503);
      expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
      expect(answer.headers.get('retry-after')).toBe('5');
    }
    expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
  });
});
