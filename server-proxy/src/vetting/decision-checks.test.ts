/**
 * Issue 29's checks on decision records over real HTTP (a proxy in front of its embedded sandbox,
 * a real SQLite file, a clock the test moves): an approval of a Fail or Review carrier needs an
 * override reason (409 without, nothing stored), the reason is kept in the hashed content and the
 * chain verifies; re-vet dates in the past or past the policy's maximum are 400s; the re-vet queue
 * follows the clock.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
  request,
  type CallInit,
} from '../helpers.test-support.ts';
import { canonicalJson, chainHash } from './store.ts';

const dataDir = makeTempDir();
const config = embeddedSandboxConfig({
  dataDir,
  auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
});

const DAY = 86_400_000;
/** The proxy's clock: the test moves it. */
let clock = new Date('2026-11-29T10:00:00Z');
let call: (path: string, init?: CallInit) => ReturnType<typeof request>;
let close: () => Promise<void>;

const headers = { ...CSRF, 'x-forwarded-user': 'alice', 'x-forwarded-role': 'admin' };
const get = (path: string) => call(path, { headers });
const post = (body: unknown) => call('/api/local/decisions', { method: 'POST', headers, body });

/** The clock's UTC day plus `days`. */
function day(days: number): string {
  return new Date(clock.getTime() + days * DAY).toISOString().slice(0, 10);
}

interface StoredRecord {
  id: number;
  hash: string;
  prev_hash: string;
  decision: string;
  expires_on: string | null;
  verdict: { verdict: string };
  override_reason?: string;
  [key: string]: unknown;
}

async function count(): Promise<number> {
  return ((await get('/api/local/decisions')).json as { total: number }).total;
}

beforeAll(async () => {
  const app = await buildProxyApp(config, {
    sandbox: { population: 300 },
    vetting: { now: () => clock },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  call = (path, init) => request(`${url}${path}`, init);
  close = () => app.close();
  for (const dot of ['3187452', '2214589', '568253']) {
    expect((await get(`/api/v2/profile?dot_number=${dot}`)).status).toBe(200);
  }
});

afterAll(async () => {
  await close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an approval against a Fail or Review verdict', () => {
  it('is refused with 409 override_reason_required without a reason, storing nothing', async () => {
    const before = await count();
    for (const body of [
      { dot_number: '3187452', decision: 'approved' },
      { dot_number: '3187452', decision: 'approved', override_reason: '   ' },
      { dot_number: '3187452', decision: 'approved_with_conditions', conditions: 'Local only' },
      { dot_number: '2214589', decision: 'approved' },
    ]) {
      const reply = await post(body);
      expect(reply.status, JSON.stringify(body)).toBe(409);
      expect(reply.json).toMatchObject({
        code: 'override_reason_required',
        error: expect.stringMatching(/policy v1/),
        hint: expect.stringMatching(/override_reason/),
      });
    }
    const fail = (await post({ dot_number: '3187452', decision: 'approved' })).json as {
      error: string;
    };
    expect(fail.error).toMatch(/^This carrier fails policy v1 \(\d+ reasons?\)/);
    expect(await count()).toBe(before);
  });

  it('is recorded with its reason in the hashed content, and the chain verifies', async () => {
    const reason = 'Owner cleared the out-of-service order today; copy of the letter on file';
    const reply = await post({
      dot_number: '3187452',
      decision: 'approved',
      override_reason: `  ${reason}  `,
    });
    expect(reply.status).toBe(201);
    const record = reply.json as StoredRecord;
    expect(record.verdict.verdict).toBe('fail');
    expect(record.override_reason).toBe(reason);
    const { id, hash, prev_hash, ...content } = record;
    expect(hash).toBe(chainHash(prev_hash, canonicalJson(content)));
    // the same content without the reason would hash otherwise: the reason is in the hash
    const withoutReason = { ...content, override_reason: undefined };
    expect(chainHash(prev_hash, canonicalJson(withoutReason))).not.toBe(hash);
    expect((await get(`/api/local/decisions/${id}`)).json).toEqual(record);
    expect((await get('/api/local/decisions/verify')).json).toMatchObject({ ok: true });
  });

  it('keeps no override_reason key on records that are no override', async () => {
    const pass = await post({
      dot_number: '568253',
      decision: 'approved',
      override_reason: 'not needed: it passes',
    });
    expect(pass.status).toBe(201);
    expect(pass.json).toMatchObject({ verdict: { verdict: 'pass' } });
    expect(Object.keys(pass.json as object)).not.toContain('override_reason');
    const rejected = await post({ dot_number: '3187452', decision: 'rejected' });
    expect(rejected.status).toBe(201);
    expect(Object.keys(rejected.json as object)).not.toContain('override_reason');
    const before = await count();
    const wrong = await post({
      dot_number: '3187452',
      decision: 'do_not_use',
      override_reason: 'why',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'invalid_override_reason', hint: expect.any(String) });
    const long = await post({
      dot_number: '3187452',
      decision: 'approved',
      override_reason: 'x'.repeat(2001),
    });
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({ code: 'invalid_override_reason' });
    expect(await count()).toBe(before);
    expect((await get('/api/local/decisions/verify')).json).toMatchObject({ ok: true });
  });
});

describe('a re-vet date (expires_on)', () => {
  it('is refused in the past and beyond 365 days ahead, on the proxy clock, storing nothing', async () => {
    const before = await count();
    const past = await post({ dot_number: '568253', decision: 'approved', expires_on: day(-1) });
    expect(past.status).toBe(400);
    expect(past.json).toMatchObject({
      code: 'invalid_expires_on',
      error: `The re-vet date ${day(-1)} is in the past (today is ${day(0)}, UTC)`,
      hint: expect.any(String),
    });
    const ancient = await post({
      dot_number: '568253',
      decision: 'approved',
      expires_on: '2020-01-01',
    });
    expect(ancient.json).toMatchObject({ code: 'invalid_expires_on' });
    const far = await post({ dot_number: '568253', decision: 'approved', expires_on: day(366) });
    expect(far.status).toBe(400);
    expect(far.json).toMatchObject({
      code: 'invalid_expires_on',
      error: expect.stringContaining('more than 365 days ahead'),
    });
    expect(await count()).toBe(before);
    for (const expires of [day(0), day(365)]) {
      const ok = await post({ dot_number: '568253', decision: 'approved', expires_on: expires });
      expect(ok.status, expires).toBe(201);
    }
    // the same date, a day later on the clock, is in the past
    const saved = day(0);
    clock = new Date(clock.getTime() + DAY);
    const stale = await post({ dot_number: '568253', decision: 'approved', expires_on: saved });
    expect(stale.json).toMatchObject({ code: 'invalid_expires_on' });
  });

  it('follows the policy\u2019s max_revet_days', async () => {
    const saved = await call('/api/local/policy', {
      method: 'PUT',
      headers,
      body: { options: { max_revet_days: 30 } },
    });
    expect(saved.status).toBe(201);
    const far = await post({ dot_number: '568253', decision: 'approved', expires_on: day(31) });
    expect(far.status).toBe(400);
    expect(far.json).toMatchObject({
      code: 'invalid_expires_on',
      error: `The re-vet date ${day(31)} is more than 30 days ahead, the policy\u2019s maximum (latest ${day(30)})`,
    });
    const ok = await post({ dot_number: '568253', decision: 'approved', expires_on: day(30) });
    expect(ok.status).toBe(201);
    const back = await call('/api/local/policy', {
      method: 'PUT',
      headers,
      body: { options: { max_revet_days: 365 } },
    });
    expect(back.status).toBe(201);
  });
});

describe('GET /api/local/decisions/revet-due', () => {
  it('lists current decisions whose re-vet date has passed or is within 14 days, as the clock moves', async () => {
    // 568253's newest record (above) is due in 30 days; 2214589 and 3187452 are recorded now
    const soon = await post({
      dot_number: '2214589',
      decision: 'rejected',
      expires_on: day(10),
    });
    expect(soon.status).toBe(201);
    const later = await post({
      dot_number: '3187452',
      decision: 'do_not_use',
      expires_on: day(25),
    });
    expect(later.status).toBe(201);
    const now = await get('/api/local/decisions/revet-due');
    expect(now.status).toBe(200);
    expect(now.json).toMatchObject({
      as_of: day(0),
      within_days: 14,
      overdue: 0,
      soon: 1,
      items: [
        {
          id: (soon.json as StoredRecord).id,
          dot_number: '2214589',
          legal_name: 'IRONCLAD FREIGHT SYSTEMS INC',
          decision: 'rejected',
          expires_on: day(10),
          due: 'soon',
        },
      ],
    });
    clock = new Date(clock.getTime() + 20 * DAY);
    const moved = (await get('/api/local/decisions/revet-due')).json as {
      overdue: number;
      soon: number;
      items: { dot_number: string; due: string }[];
    };
    expect(moved.items.map((i) => [i.dot_number, i.due])).toEqual([
      ['2214589', 'overdue'],
      ['3187452', 'soon'],
      ['568253', 'soon'],
    ]);
    expect([moved.overdue, moved.soon]).toEqual([1, 2]);
    // a newer decision without a re-vet date takes 2214589 off the queue
    expect((await post({ dot_number: '2214589', decision: 'rejected' })).status).toBe(201);
    const after = (await get('/api/local/decisions/revet-due')).json as {
      items: { dot_number: string }[];
    };
    expect(after.items.map((i) => i.dot_number)).toEqual(['3187452', '568253']);
  });
});
