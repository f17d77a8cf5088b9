/**
 * The vetting routes over real HTTP: a proxy in front of its embedded sandbox, trusted-header users,
 * a real SQLite file in DATA_DIR that survives a restart and is tampered with between two runs.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import { openProxyDb } from '../db.ts';
import {
  CSRF,
  captureLog,
  makeTempDir,
  request,
  embeddedSandboxConfig,
  startProxy,
  type CallInit,
} from '../helpers.test-support.ts';
import { GENESIS_HASH } from './store.ts';

const dataDir = makeTempDir();
const config = embeddedSandboxConfig({
  dataDir,
  auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
});

interface Running {
  call(path: string, init?: CallInit): ReturnType<typeof request>;
  close(): Promise<void>;
}

async function start(): Promise<Running> {
  const app = await buildProxyApp(config, { sandbox: { population: 300 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { call: (path, init) => request(`${url}${path}`, init), close: () => app.close() };
}

let proxy: Running;

function as(user: string, extra: Record<string, string> = {}) {
  return { ...CSRF, 'x-forwarded-user': user, 'x-forwarded-role': 'admin', ...extra };
}

function get(path: string, user = 'alice') {
  return proxy.call(path, { headers: as(user) });
}

function post(body: unknown, user = 'alice', headers: Record<string, string> = as(user)) {
  return proxy.call('/api/local/decisions', { method: 'POST', headers, body });
}

interface Reason {
  rule: string;
  outcome: string;
  message: string;
  fields: { name: string; value: unknown }[];
  tab: string;
}
interface Verdict {
  verdict: string;
  policy_version: number;
  evaluated_at: string;
  snapshot_date: string;
  fetched_at: string;
  reasons: Reason[];
}
interface DecisionRecord {
  id: number;
  hash: string;
  prev_hash: string;
  dot_number: string;
  decision: string;
  note: string | null;
  conditions: string | null;
  expires_on: string | null;
  user: { id: string; name: string };
  decided_at: string;
  policy_version: number;
  verdict: Verdict;
  profile: {
    snapshot_date: string;
    fetched_at: string;
    identity: { name: string; value: unknown }[];
  };
}
interface DecisionPage {
  items: DecisionRecord[];
  total: number;
  page: number;
  page_size: number;
}

async function profileCalls(): Promise<number> {
  const usage = (await get('/api/local/usage')).json as {
    byCategory: { category: string; calls: number; cacheHits: number }[];
  };
  const profile = usage.byCategory.find((c) => c.category === 'profile');
  return (profile?.calls ?? 0) - (profile?.cacheHits ?? 0);
}

async function decisionCount(): Promise<number> {
  return ((await get('/api/local/decisions')).json as DecisionPage).total;
}

beforeAll(async () => {
  proxy = await start();
});

afterAll(async () => {
  await proxy.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /api/local/verdict', () => {
  it('answers the verdict of 568253 from one billed profile call, then from the cache', async () => {
    const before = await profileCalls();
    const first = await get('/api/local/verdict?dot_number=568253');
    expect(first.status).toBe(200);
    const body = first.json as Verdict;
    expect(body).toMatchObject({ verdict: 'pass', policy_version: 1, snapshot_date: '2026-11-16' });
    expect(Date.parse(body.evaluated_at)).not.toBeNaN();
    expect(Date.parse(body.fetched_at)).not.toBeNaN();
    expect(body.reasons.length).toBeGreaterThan(10);
    for (const reason of body.reasons) {
      expect(Object.keys(reason)).toEqual(
        expect.arrayContaining(['rule', 'outcome', 'message', 'fields', 'tab']),
      );
    }
    const again = await get('/api/local/verdict?dot_number=568253');
    expect(again.headers.get('x-cache')).toBe('hit');
    // the profile page's own call is a cache hit too
    const page = await get('/api/v2/profile?dot_number=568253');
    expect(page.headers.get('x-cache')).toBe('hit');
    expect(await profileCalls()).toBe(before + 1);
  });

  it('names the shared identifiers of 4418207 and reviews 2214589; asks by docket too', async () => {
    const chameleon = (await get('/api/local/verdict?dot_number=4418207')).json as Verdict;
    expect(chameleon.verdict).toBe('review');
    const shared = chameleon.reasons.find((r) => r.rule === 'shared_identifiers');
    expect(shared).toMatchObject({ outcome: 'review', tab: 'network' });
    expect(shared?.message).toContain(
      'physical address, telephone and equipment (4 VINs) with DOT 3187452',
    );
    const byDocket = await get('/api/local/verdict?docket_number=MC745120');
    expect(byDocket.status).toBe(200);
    expect(byDocket.json).toMatchObject({ verdict: 'review', dot_number: '2214589' });
  });

  it('answers 404 for an unknown carrier and 400 for a bad query', async () => {
    const unknown = await get('/api/local/verdict?dot_number=4999999');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'not_found' });
    for (const query of [
      '',
      '?dot_number=568253&docket_number=MC1',
      '?company=x',
      '?dot_number=abc',
    ]) {
      const bad = await get(`/api/local/verdict${query}`);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({
        error: expect.any(String),
        code: expect.any(String),
        hint: expect.any(String),
      });
    }
  });

  it('is guarded against cross-site use like the profile summary, which may bill too', async () => {
    const headers = { 'x-forwarded-user': 'alice', 'x-forwarded-role': 'admin' };
    const extras: Record<string, string>[] = [{}, { 'sec-fetch-site': 'cross-site' }];
    for (const extra of extras) {
      const verdict = await proxy.call('/api/local/verdict?dot_number=568253', {
        headers: { ...headers, ...extra },
      });
      const summary = await proxy.call('/api/local/profile-summary?dot_number=568253', {
        headers: { ...headers, ...extra },
      });
      expect(verdict.status).toBe(summary.status);
    }
    const cross = await proxy.call('/api/local/verdict?dot_number=568253', {
      headers: { ...as('alice'), 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.status).toBe(403);
  });
});

describe('POST /api/local/decisions', () => {
  it('refuses a DOT never fetched, an unknown one, and bad input, storing nothing', async () => {
    const before = await decisionCount();
    const billedBefore = await profileCalls();
    const never = await post({ dot_number: '1893346', decision: 'approved' });
    expect(never.status).toBe(404);
    expect(never.json).toMatchObject({ code: 'profile_not_fetched', hint: expect.any(String) });
    const unknown = await post({ dot_number: '4999999', decision: 'approved' });
    expect(unknown.status).toBe(404);
    const cases: [unknown, string][] = [
      [[], 'invalid_body'],
      [{ dot_number: '568253', decision: 'maybe' }, 'invalid_decision'],
      [{ dot_number: '568253', decision: 'approved', note: 'x'.repeat(4001) }, 'invalid_note'],
      [{ dot_number: 'DOT1', decision: 'approved' }, 'invalid_dot_number'],
      [
        { dot_number: '568253', decision: 'approved', expires_on: '2026-02-30' },
        'invalid_expires_on',
      ],
      [{ dot_number: '568253', decision: 'approved_with_conditions' }, 'missing_conditions'],
      [{ dot_number: '568253', decision: 'approved', colour: 'red' }, 'unknown_field'],
      [{ dot_number: '568253', decision: 'approved', supersedes: 99999 }, 'invalid_supersedes'],
    ];
    for (const [body, code] of cases) {
      const reply = await post(body);
      expect(reply.status, code).toBe(400);
      expect(reply.json).toMatchObject({
        code,
        error: expect.any(String),
        hint: expect.any(String),
      });
    }
    const noCsrf = await post({ dot_number: '568253', decision: 'approved' }, 'alice', {
      'x-forwarded-user': 'alice',
      'x-forwarded-role': 'admin',
    });
    expect(noCsrf.status).toBe(403);
    expect(await decisionCount()).toBe(before);
    expect(await profileCalls()).toBe(billedBefore);
  });

  it('records what was seen, chained to the record before, without a new billed call', async () => {
    // a re-vet date 60 days ahead (one in the past, or past a year, is refused)
    const revetOn = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    await get('/api/v2/profile?dot_number=2214589');
    const billed = await profileCalls();
    const first = await post({
      dot_number: '2214589',
      decision: 'approved_with_conditions',
      note: 'Known lane partner',
      conditions: 'Team drivers only',
      expires_on: revetOn,
      override_reason: 'Conditional rating under appeal; team drivers only',
    });
    expect(first.status).toBe(201);
    const record = first.json as DecisionRecord;
    expect(record).toMatchObject({
      dot_number: '2214589',
      decision: 'approved_with_conditions',
      note: 'Known lane partner',
      conditions: 'Team drivers only',
      expires_on: revetOn,
      user: { id: 'alice', name: 'alice' },
      policy_version: 1,
      prev_hash: GENESIS_HASH,
    });
    expect(record.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.verdict.verdict).toBe('review');
    expect(
      record.verdict.reasons.find((r) => r.rule === 'rating_conditional')?.fields,
    ).toContainEqual({
      name: 'safety_rating_desc',
      value: 'Conditional',
    });
    expect(record.profile.snapshot_date).toBe('2026-11-16');
    expect(record.profile.identity).toContainEqual({
      name: 'legal_name',
      value: 'IRONCLAD FREIGHT SYSTEMS INC',
    });
    expect(Date.parse(record.profile.fetched_at)).not.toBeNaN();
    expect(await profileCalls()).toBe(billed);

    const second = (await post({ dot_number: '568253', decision: 'approved' }, 'bob'))
      .json as DecisionRecord;
    expect(second.prev_hash).toBe(record.hash);
    expect(second.user.id).toBe('bob');
    const correction = await post({
      dot_number: '2214589',
      decision: 'rejected',
      note: 'Conditions not accepted',
      supersedes: record.id,
    });
    expect(correction.status).toBe(201);
    expect(correction.json).toMatchObject({ supersedes: record.id, prev_hash: second.hash });
    expect((await get(`/api/local/decisions/${record.id}`)).json).toEqual(record);
    const current = (await get('/api/local/decisions/current?dot_numbers=2214589,568253,1893346'))
      .json as { items: DecisionRecord[] };
    expect(current.items.map((r) => [r.dot_number, r.decision])).toEqual([
      ['2214589', 'rejected'],
      ['568253', 'approved'],
    ]);
    expect((await get('/api/local/decisions/current?dot_numbers=x')).status).toBe(400);
    expect((await get('/api/local/decisions/current')).status).toBe(400);
    expect((await get('/api/local/decisions/999999')).status).toBe(404);
  });

  it('lists the records, newest first, with filters', async () => {
    const all = (await get('/api/local/decisions')).json as DecisionPage;
    expect(all).toMatchObject({ total: 3, page: 1, page_size: 50 });
    expect(all.items.map((r) => r.decision)).toEqual([
      'rejected',
      'approved',
      'approved_with_conditions',
    ]);
    const carrier = (await get('/api/local/decisions?dot_number=2214589')).json as DecisionPage;
    expect(carrier.items.map((r) => r.decision)).toEqual(['rejected', 'approved_with_conditions']);
    expect(((await get('/api/local/decisions?user=bob')).json as DecisionPage).total).toBe(1);
    expect(((await get('/api/local/decisions?decision=approved')).json as DecisionPage).total).toBe(
      1,
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(
      ((await get(`/api/local/decisions?from=${today}&to=${today}`)).json as DecisionPage).total,
    ).toBe(3);
    expect(((await get('/api/local/decisions?to=2000-01-01')).json as DecisionPage).total).toBe(0);
    expect(((await get('/api/local/decisions?page=2')).json as DecisionPage).items).toEqual([]);
    for (const query of [
      'decision=maybe',
      'from=yesterday',
      'page=0',
      'dot_number=x',
      'colour=red',
    ]) {
      const bad = await get(`/api/local/decisions?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.json).toMatchObject({ code: expect.any(String), hint: expect.any(String) });
    }
  });
});

describe('the policy', () => {
  it('starts at the default version 1 and lists its rules', async () => {
    const policy = (await get('/api/local/policy')).json as {
      version: number;
      rules: { id: string; defaults: { outcome: string } }[];
      settings: Record<string, { threshold?: number }>;
    };
    expect(policy.version).toBe(1);
    expect(policy.rules.map((r) => r.id)).toContain('shared_identifiers');
    expect(policy.settings.contact_changes?.threshold).toBe(30);
  });

  it('saves a change as a new numbered version that the verdict uses at once', async () => {
    const put = (body: unknown, user = 'carol') =>
      proxy.call('/api/local/policy', { method: 'PUT', headers: as(user), body });
    const saved = await put({
      rules: { shared_identifiers: { outcome: 'fail' }, new_entrant: { threshold: 180 } },
      note: 'Chameleons are a hard no',
    });
    expect(saved.status).toBe(201);
    expect(saved.json).toMatchObject({
      version: 2,
      created_by: 'carol',
      note: 'Chameleons are a hard no',
      changes: [
        'New entrant: threshold 540 → 180',
        'Identifiers shared with a carrier in bad standing: outcome review → fail',
      ],
    });
    const verdict = (await get('/api/local/verdict?dot_number=4418207')).json as Verdict;
    expect(verdict).toMatchObject({ verdict: 'fail', policy_version: 2 });
    expect(verdict.reasons[0]).toMatchObject({ rule: 'shared_identifiers', outcome: 'fail' });
    const same = await put({ rules: { new_entrant: { threshold: 180 } } });
    expect(same.status).toBe(400);
    expect(same.json).toMatchObject({ code: 'no_change' });
    for (const [body, code] of [
      [{ rules: { nope: {} } }, 'unknown_rule'],
      [{ rules: { bipd_insurance: { no_data: 'fail' } } }, 'invalid_setting'],
      [{ rules: {}, extra: 1 }, 'unknown_field'],
      [[], 'invalid_body'],
    ] as const) {
      const bad = await put(body);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code });
    }
    const noCsrf = await proxy.call('/api/local/policy', {
      method: 'PUT',
      headers: { 'x-forwarded-user': 'carol', 'x-forwarded-role': 'admin' },
      body: { rules: { new_entrant: { threshold: 100 } } },
    });
    expect(noCsrf.status).toBe(403);
    const versions = (await get('/api/local/policy/versions')).json as {
      items: { version: number }[];
    };
    expect(versions.items.map((v) => v.version)).toEqual([2, 1]);
    const v1 = (await get('/api/local/policy/versions/1')).json as {
      settings: Record<string, { outcome: string }>;
    };
    expect(v1.settings.shared_identifiers?.outcome).toBe('review');
    expect((await get('/api/local/policy/versions/7')).status).toBe(404);
  });
});

describe('GET /api/local/decisions/verify', () => {
  it('verifies the chain, survives a restart, and names a row changed in the SQLite file', async () => {
    expect((await get('/api/local/decisions/verify')).json).toMatchObject({
      ok: true,
      count: 3,
      signed: 3,
    });
    await proxy.close();
    const file = new Database(join(dataDir, 'proxy.sqlite'));
    file.exec('DROP TRIGGER vetting_decision_no_update');
    file.prepare("UPDATE vetting_decision SET decision = 'do_not_use' WHERE id = 2").run();
    file.close();
    proxy = await start();
    const after = await get('/api/local/decisions/verify');
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ ok: false, count: 3, first_bad_id: 2 });
    expect(await decisionCount()).toBe(3);
  });
});

describe('the SQLite file refusing writes', () => {
  it('answers a policy save and a decision with 503 storage_unavailable, not 500, then records again', async () => {
    let db: Database.Database | undefined;
    const log = captureLog();
    const own = await startProxy(
      embeddedSandboxConfig({
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
        logLevel: 'info',
      }),
      { openDb: (path) => (db = openProxyDb(path, { busyTimeoutMs: 100 })), logStream: log },
    );
    try {
      const headers = as('dana');
      const viewed = await own.call('/api/local/verdict?dot_number=568253', { headers });
      expect(viewed.status, viewed.text).toBe(200);
      const decide = () =>
        own.call('/api/local/decisions', {
          method: 'POST',
          headers,
          body: { dot_number: '568253', decision: 'approved' },
        });
      db?.pragma('query_only = ON');
      const refused = [
        await own.call('/api/local/policy', {
          method: 'PUT',
          headers,
          body: { rules: { new_entrant: { threshold: 200 } } },
        }),
        await decide(),
      ];
      for (const answer of refused) {
        expect(answer.status, answer.text).toBe(503);
        expect(answer.json).toMatchObject({ code: 'storage_unavailable' });
      }
      db?.pragma('query_only = OFF');
      // once the storage's back-off has passed, the next decision is recorded
      let recorded = await decide();
      for (let tries = 0; recorded.status === 503 && tries < 80; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        recorded = await decide();
      }
      expect(recorded.status, recorded.text).toBe(201);
      expect((await own.call('/api/local/decisions/verify', { headers })).json).toMatchObject({
        ok: true,
        count: 1,
        signed: 1,
      });
      expect(log.lines.filter((line) => line.includes('unexpected error'))).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
