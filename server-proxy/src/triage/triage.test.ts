import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { triageId } from '../../../src/lib/service/triage-id.ts';
import { buildProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import { CSRF, makeTempDir, request, testConfig, type CallInit } from '../helpers.test-support.ts';

interface Running {
  call(path: string, init?: CallInit): ReturnType<typeof request>;
  close(): Promise<void>;
}

/** Build and listen on the given config; closing keeps DATA_DIR, so a restart sees the same data. */
async function start(config: ProxyConfig): Promise<Running> {
  const app = await buildProxyApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { call: (path, init) => request(`${url}${path}`, init), close: () => app.close() };
}

const PROFILE = '568253-MC277621';
const change = (field: string, current: unknown, date = '2026-09-12') => ({
  id: triageId({ profileId: PROFILE, field, date, prior: null, current }),
  profile_id: PROFILE,
  field,
});

const BIPD = change('insurance_bipd_on_file', 1000000);
const PHONE = change('telephone_number', '8165550100');
const RATING = change('safety_rating_desc', 'Conditional');

const dataDir = makeTempDir();
const trusted = (user: string) => ({ 'x-forwarded-user': user, 'x-forwarded-role': 'admin' });
const config = testConfig({
  dataDir,
  auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
});
let proxy: Running;

function put(user: string, items: unknown[]) {
  return proxy.call('/api/local/triage', {
    method: 'PUT',
    headers: { ...CSRF, ...trusted(user) },
    body: { items },
  });
}

function get(user: string, query: string) {
  return proxy.call(`/api/local/triage?${query}`, { headers: trusted(user) });
}

beforeAll(async () => {
  proxy = await start(config);
});

afterAll(async () => {
  await proxy.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PUT /api/local/triage validation', () => {
  const cases: [string, unknown, string][] = [
    ['not an object', [], 'invalid_body'],
    ['unknown member', { items: [], extra: 1 }, 'unknown_field'],
    ['empty items', { items: [] }, 'invalid_items'],
    ['too many items', { items: Array.from({ length: 1001 }, () => BIPD) }, 'invalid_items'],
    ['bad id', { items: [{ ...BIPD, id: 'abc', state: 'reviewed' }] }, 'invalid_triage_id'],
    [
      'bad profile id',
      { items: [{ ...BIPD, profile_id: 'MC277621', state: 'reviewed' }] },
      'invalid_profile_id',
    ],
    [
      'bad field',
      { items: [{ ...BIPD, field: 'DROP TABLE', state: 'reviewed' }] },
      'invalid_field',
    ],
    ['bad state', { items: [{ ...BIPD, state: 'done' }] }, 'invalid_state'],
    ['note not text', { items: [{ ...BIPD, state: 'reviewed', note: 5 }] }, 'invalid_note'],
    [
      'note too long',
      { items: [{ ...BIPD, state: 'reviewed', note: 'x'.repeat(2001) }] },
      'note_too_long',
    ],
    [
      'item member unknown',
      { items: [{ ...BIPD, state: 'reviewed', by: 'mallory' }] },
      'unknown_field',
    ],
    [
      'duplicate id',
      {
        items: [
          { ...BIPD, state: 'reviewed' },
          { ...BIPD, state: 'escalated' },
        ],
      },
      'duplicate_id',
    ],
  ];

  it.each(cases)('%s → 400 %s', async (_name, body, code) => {
    const reply = await proxy.call('/api/local/triage', {
      method: 'PUT',
      headers: { ...CSRF, ...trusted('val') },
      body,
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code, error: expect.any(String), hint: expect.any(String) });
  });

  it('stores nothing from a body with one bad item among good ones', async () => {
    const reply = await put('val', [
      { ...PHONE, state: 'reviewed' },
      { ...BIPD, state: 'nope' },
    ]);
    expect(reply.status).toBe(400);
    expect((await get('val', `ids=${PHONE.id}`)).json).toEqual({ items: [] });
  });

  it('refuses a PUT without the CSRF header', async () => {
    const reply = await proxy.call('/api/local/triage', {
      method: 'PUT',
      headers: trusted('val'),
      body: { items: [{ ...BIPD, state: 'reviewed' }] },
    });
    expect(reply.status).toBe(403);
  });

  it('keeps a note of exactly 2,000 characters (counted as characters, not bytes)', async () => {
    const note = 'é'.repeat(1999) + '🚚';
    const reply = await put('val', [{ ...RATING, state: 'escalated', note }]);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ items: [{ id: RATING.id, note }] });
  });
});

describe('GET /api/local/triage validation', () => {
  it.each([
    ['', 'missing_ids'],
    [`ids=${BIPD.id}&profile_ids=${PROFILE}`, 'missing_ids'],
    ['ids=', 'invalid_ids'],
    ['ids=not-an-id', 'invalid_triage_id'],
    ['profile_ids=MC1', 'invalid_profile_id'],
    [
      `ids=${Array.from({ length: 501 }, (_, i) => BIPD.id.slice(0, -3) + String(i).padStart(3, '0')).join(',')}`,
      'invalid_ids',
    ],
    ['dot=1', 'unknown_parameter'],
  ])('?%s → 400 %s', async (query, code) => {
    const reply = await get('val', query);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code });
  });
});

describe('triage per user', () => {
  it('records state, note, who and when, and reads it back by id and by profile', async () => {
    const before = Date.now();
    const reply = await put('alice', [
      { ...BIPD, state: 'reviewed' },
      { ...PHONE, state: 'escalated', note: '  Called the carrier: new number confirmed.  ' },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ updated: 2 });
    const byId = await get('alice', `ids=${BIPD.id},${PHONE.id},${RATING.id}`);
    const items = (byId.json as { items: Record<string, unknown>[] }).items;
    expect(items).toHaveLength(2);
    const phone = items.find((item) => item.id === PHONE.id);
    expect(phone).toMatchObject({
      profile_id: PROFILE,
      field: 'telephone_number',
      channel: 'contact',
      state: 'escalated',
      note: 'Called the carrier: new number confirmed.',
      by: 'alice',
    });
    expect(Date.parse(String(phone?.at))).toBeGreaterThanOrEqual(before - 1000);
    const byProfile = await get('alice', `profile_ids=${PROFILE.toLowerCase()}`);
    expect((byProfile.json as { items: unknown[] }).items).toHaveLength(2);
  });

  it('keeps users apart', async () => {
    await put('bob', [{ ...BIPD, state: 'escalated' }]);
    const alice = await get('alice', `ids=${BIPD.id}`);
    const bob = await get('bob', `ids=${BIPD.id}`);
    expect(alice.json).toMatchObject({ items: [{ state: 'reviewed', by: 'alice' }] });
    expect(bob.json).toMatchObject({ items: [{ state: 'escalated', by: 'bob' }] });
    expect((await get('carol', `ids=${BIPD.id}`)).json).toEqual({ items: [] });
  });

  it('answers 401 without a user', async () => {
    const reply = await proxy.call(`/api/local/triage?ids=${BIPD.id}`);
    expect(reply.status).toBe(401);
  });

  it('summarises decisions per state and channel for the user only', async () => {
    const reply = await proxy.call('/api/local/triage/summary', { headers: trusted('alice') });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      total: { reviewed: 1, escalated: 1 },
      byChannel: {
        insurance: { reviewed: 1, escalated: 0 },
        contact: { reviewed: 0, escalated: 1 },
        safety: { reviewed: 0, escalated: 0 },
      },
      unmapped: { reviewed: 0, escalated: 0 },
    });
  });

  it('sets a change back to New by deleting its decision', async () => {
    const reply = await put('alice', [{ ...PHONE, state: 'new' }]);
    expect(reply.json).toEqual({ updated: 1, items: [] });
    expect((await get('alice', `ids=${PHONE.id}`)).json).toEqual({ items: [] });
  });

  it('marks a whole page (1,000 changes) in one PUT', async () => {
    const page = Array.from({ length: 1000 }, (_, i) => ({
      ...change('total_power_units', i),
      state: 'reviewed',
    }));
    const reply = await put('dave', page);
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ updated: 1000 });
    expect((reply.json as { items: unknown[] }).items).toHaveLength(1000);
    const summary = await proxy.call('/api/local/triage/summary', { headers: trusted('dave') });
    expect(summary.json).toMatchObject({ byChannel: { fleet: { reviewed: 1000 } } });
  });
});

function lookup(user: string | undefined, body: unknown, headers: Record<string, string> = CSRF) {
  return proxy.call('/api/local/triage/lookup', {
    method: 'POST',
    headers: { ...headers, ...(user === undefined ? {} : trusted(user)) },
    body,
  });
}

describe('POST /api/local/triage/lookup', () => {
  const pageOfIds = (count: number) =>
    Array.from({ length: count }, (_, i) => `${5_000_000 + i}-MC${2_000_000 + i}`);

  it('answers what the GET answers, for the user only', async () => {
    const byGet = await get('alice', `profile_ids=${PROFILE}`);
    const byPost = await lookup('alice', { profile_ids: [PROFILE.toLowerCase()] });
    expect(byPost.status).toBe(200);
    expect(byPost.json).toEqual(byGet.json);
    expect((byPost.json as { items: unknown[] }).items.length).toBeGreaterThan(0);
    expect((await lookup('alice', { ids: [BIPD.id] })).json).toMatchObject({
      items: [{ id: BIPD.id, state: 'reviewed', by: 'alice' }],
    });
    expect((await lookup('carol', { profile_ids: [PROFILE] })).json).toEqual({ items: [] });
  });

  it('takes a whole page of 500 profile ids in one request', async () => {
    const ids = [...pageOfIds(499), PROFILE];
    const reply = await lookup('alice', { profile_ids: ids });
    expect(reply.status).toBe(200);
    const items = (reply.json as { items: { profile_id: string }[] }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((item) => item.profile_id === PROFILE)).toBe(true);
  });

  it.each<[string, unknown, string]>([
    ['not an object', [PROFILE], 'invalid_body'],
    ['neither list', {}, 'missing_ids'],
    ['both lists', { ids: [BIPD.id], profile_ids: [PROFILE] }, 'missing_ids'],
    ['an empty list', { profile_ids: [] }, 'invalid_ids'],
    ['a list of numbers', { profile_ids: [568253] }, 'invalid_ids'],
    ['a string for a list', { profile_ids: PROFILE }, 'invalid_ids'],
    ['501 profile ids', { profile_ids: pageOfIds(501) }, 'invalid_ids'],
    ['a bad profile id', { profile_ids: ['MC277621'] }, 'invalid_profile_id'],
    ['a bad triage id', { ids: ['c1-nothex'] }, 'invalid_triage_id'],
    ['an unknown member', { profile_ids: [PROFILE], user: 'bob' }, 'unknown_field'],
  ])('%s → 400 %s', async (_name, body, code) => {
    const reply = await lookup('val', body);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code, error: expect.any(String), hint: expect.any(String) });
  });

  it('refuses a call without the CSRF header, and one without a user', async () => {
    expect((await lookup('alice', { profile_ids: [PROFILE] }, {})).status).toBe(403);
    expect((await lookup(undefined, { profile_ids: [PROFILE] })).status).toBe(401);
  });
});

describe('last visit', () => {
  it('is null at first, then moves the previous visit along', async () => {
    const first = await proxy.call('/api/local/triage/last-visit', { headers: trusted('erin') });
    expect(first.json).toEqual({ lastVisitAt: null, previousVisitAt: null });
    const visit = () =>
      proxy.call('/api/local/triage/last-visit', {
        method: 'PUT',
        headers: { ...CSRF, ...trusted('erin') },
      });
    const one = (await visit()).json as { lastVisitAt: string; previousVisitAt: null };
    expect(one.previousVisitAt).toBeNull();
    const two = (await visit()).json as { lastVisitAt: string; previousVisitAt: string };
    expect(two.previousVisitAt).toBe(one.lastVisitAt);
    expect(Date.parse(two.lastVisitAt)).toBeGreaterThanOrEqual(Date.parse(one.lastVisitAt));
    const other = await proxy.call('/api/local/triage/last-visit', { headers: trusted('frank') });
    expect(other.json).toEqual({ lastVisitAt: null, previousVisitAt: null });
  });

  it('refuses a body with members', async () => {
    const reply = await proxy.call('/api/local/triage/last-visit', {
      method: 'PUT',
      headers: { ...CSRF, ...trusted('erin') },
      body: { at: '2020-01-01T00:00:00Z' },
    });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: 'invalid_body' });
  });
});

describe('persistence', () => {
  let again: Running | undefined;
  afterEach(async () => {
    await again?.close();
  });

  it('survives a restart on the same DATA_DIR', async () => {
    const before = await get('alice', `profile_ids=${PROFILE}`);
    const visit = await proxy.call('/api/local/triage/last-visit', { headers: trusted('erin') });
    await proxy.close();
    again = await start(config);
    proxy = again;
    const after = await get('alice', `profile_ids=${PROFILE}`);
    expect(after.json).toEqual(before.json);
    expect((after.json as { items: unknown[] }).items.length).toBeGreaterThan(0);
    const visitAfter = await proxy.call('/api/local/triage/last-visit', {
      headers: trusted('erin'),
    });
    expect(visitAfter.json).toEqual(visit.json);
    // the suite's afterAll closes `proxy`; do not close it twice
    again = undefined;
  });
});

describe('other /api/local routes', () => {
  it('still answer', async () => {
    const reply = await proxy.call('/api/local/config', { headers: trusted('alice') });
    expect(reply.status).toBe(200);
    const wrong = await proxy.call('/api/local/triage', {
      method: 'DELETE',
      headers: { ...CSRF, ...trusted('alice') },
    });
    expect(wrong.status).toBe(405);
  });
});
