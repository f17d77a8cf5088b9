/**
 * The tender check over real servers on loopback: the proxy in front of its embedded sandbox, with
 * its SQLite file. Nothing billed runs before `max_cost_usd` allows it (the sandbox's own ledger
 * says what the service billed), a repeat in the same month bills nothing new, and the answers of
 * the sandbox's carriers carry their reasons and evidence.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';
import {
  tenderCheckAnswerSchema,
  tenderCheckListSchema,
  type TenderCheckAnswer,
} from '../../../src/lib/tender/contract.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(config?: ProxyConfig) {
  const used = config ?? sandboxConfig();
  const app = await buildProxyApp(used, { sandbox: { population: 50 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  cleanups.push(() => app.close());
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = (path: string, init?: Parameters<typeof request>[1]) =>
    request(`${url}${path}`, init);
  const check = (body: unknown) =>
    call('/api/local/tender-checks', { method: 'POST', headers: CSRF, body });
  return { app, call, check, url };
}

function sandboxConfig(): ProxyConfig {
  const config = embeddedSandboxConfig({}, { retryDelayMs: 20 });
  cleanups.push(() => rmSync(config.dataDir, { recursive: true, force: true }));
  return config;
}

/** What the sandbox billed this month: calls and amount per kind (its own ledger). */
async function sandboxBill(app: ProxyApp): Promise<Record<string, { calls: number; usd: number }>> {
  const sandbox = app.proxy.sandbox;
  if (!sandbox) throw new Error('no embedded sandbox');
  const answer = await request(`${sandbox.url}/__sandbox/ledger`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  const body = answer.json as {
    keys: { months: { lines: { kind: string; calls: number; amount_usd: number }[] }[] }[];
  };
  const bill: Record<string, { calls: number; usd: number }> = {};
  for (const line of body.keys.flatMap((k) => k.months.flatMap((m) => m.lines))) {
    const seen = bill[line.kind] ?? { calls: 0, usd: 0 };
    bill[line.kind] = { calls: seen.calls + line.calls, usd: seen.usd + line.amount_usd };
  }
  return bill;
}

function parsed(json: unknown): TenderCheckAnswer {
  return tenderCheckAnswerSchema.parse(json);
}

const CLEAN = {
  dot_number: '568253',
  phone: '(562) 602-7220',
  email: 'safety@hansenadkins.com',
  load: { cargo_classes: ['motor_vehicles'], cargo_value: 50_000, equipment: 'car_hauler' },
};

describe('POST /api/local/tender-checks: the one path and its cost', () => {
  it('runs nothing billed before max_cost_usd allows it, then bills once, and a repeat bills nothing new', async () => {
    const { app, check } = await start();

    const cold = await check(CLEAN);
    expect(cold.status).toBe(201);
    const first = parsed(cold.json);
    // nothing held, nothing allowed: every check pending with its published price
    expect(first.pending.map((p) => [p.check, p.endpoint, p.cost_usd])).toEqual([
      ['carrier_profile', 'profile', 3],
      ['phone_search', 'profile-lite', 2.5],
      ['email_search', 'profile-lite', 2.5],
    ]);
    expect(first.answer).toBe('call_back');
    expect(first.cost_usd).toBe(0);
    expect(first.carrier).toBeNull();
    expect(await sandboxBill(app)).toEqual({});

    // allowing only the profile's price runs the profile, not the searches
    const profileOnly = parsed((await check({ ...CLEAN, max_cost_usd: 3 })).json);
    expect(profileOnly.pending.map((p) => p.check)).toEqual(['phone_search', 'email_search']);
    expect(profileOnly.cost_usd).toBe(3);
    expect(Object.keys(await sandboxBill(app))).toEqual(['profile']);

    // the whole allowance: the profile is held now (free), both searches run
    const full = parsed((await check({ ...CLEAN, max_cost_usd: 5 })).json);
    expect(full.pending).toEqual([]);
    expect(full.identity.searches.map((s) => [s.check, s.status])).toEqual([
      ['phone_search', 'billed'],
      // it finds only 568253, whose lite profile the phone search billed this month: free
      ['email_search', 'free'],
    ]);
    const bill = await sandboxBill(app);
    expect(bill.profile).toEqual({ calls: 1, usd: 3 });
    const liteCalls = bill.profile_lite?.calls ?? 0;
    expect(liteCalls).toBeGreaterThan(0);
    expect(full.cost_usd).toBe(3 * 0 + (bill.profile_lite?.usd ?? 0));

    // the same check again with nothing allowed: all held, nothing new billed
    const again = parsed((await check({ ...CLEAN, max_cost_usd: 0 })).json);
    expect(again.pending).toEqual([]);
    expect(again.cost_usd).toBe(0);
    expect(again.identity.searches.map((s) => s.status)).toEqual(['held', 'held']);
    expect(again.answer).toBe(full.answer);
    expect(await sandboxBill(app)).toEqual(bill);
  });

  it('a repeat in the same month after the cache is gone runs free (the ledger bills nothing new)', async () => {
    const config = sandboxConfig();
    const first = await start(config);
    parsed((await first.check({ ...CLEAN, max_cost_usd: 10 })).json);
    const BY_DOCKET = { docket_number: 'MC277621', email: 'dispatch@hansen-adkins.com' };
    parsed((await first.check({ ...BY_DOCKET, max_cost_usd: 10 })).json);
    const bill = await sandboxBill(first.app);
    await first.app.close();
    // a new process on the same data dir and sandbox state: an empty response cache
    const second = await start(config);
    const again = parsed((await second.check({ ...CLEAN, max_cost_usd: 0 })).json);
    expect(again.pending).toEqual([]);
    expect(again.identity.searches.map((s) => s.status)).toEqual(['free', 'free']);
    expect(again.cost_usd).toBe(0);
    // by docket too: the proxy knows MC277621 is 568253's (its carrier names), billed this month
    const docket = parsed((await second.check({ ...BY_DOCKET, max_cost_usd: 0 })).json);
    expect(docket.pending).toEqual([]);
    expect(docket.carrier?.dot_number).toBe('568253');
    expect(docket.answer).toBe('do_not_tender');
    const after = await sandboxBill(second.app);
    expect(Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v.usd]))).toEqual(
      Object.fromEntries(Object.entries(bill).map(([k, v]) => [k, v.usd])),
    );
  });
});

describe('POST /api/local/tender-checks: bad input', () => {
  it.each([
    [{}, 'missing_carrier'],
    [{ dot_number: '568253', docket_number: 'MC277621' }, 'ambiguous_carrier'],
    [{ dot_number: 'abc' }, 'invalid_dot_number'],
    [{ dot_number: '568253', phone: '12345' }, 'invalid_phone'],
    [{ dot_number: '568253', email: 'not-an-address' }, 'invalid_email'],
    [{ dot_number: '568253', load: { cargo_classes: ['gold_bars'] } }, 'unknown_cargo_class'],
    [{ dot_number: '568253', load: { cargo_value: -1 } }, 'invalid_cargo_value'],
    [{ dot_number: '568253', load: { origin_state: 'XX' } }, 'invalid_origin_state'],
    [{ dot_number: '568253', max_cost_usd: -0.5 }, 'invalid_max_cost_usd'],
    [{ dot_number: '568253', colour: 'red' }, 'unknown_field'],
  ])('%j is 400 %s with a hint', async (body, code) => {
    const { app, check } = await start();
    const answer = await check(body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      code,
      error: expect.any(String),
      hint: expect.any(String),
    });
    expect(await sandboxBill(app)).toEqual({});
  });
});

describe('stored checks', () => {
  it('lists a carrier’s checks newest first and reads one by id', async () => {
    const { check, call } = await start();
    const a = parsed((await check({ ...CLEAN, max_cost_usd: 10 })).json);
    const b = parsed((await check({ dot_number: '2214589', max_cost_usd: 10 })).json);
    const list = tenderCheckListSchema.parse(
      (await call('/api/local/tender-checks?dot_number=568253')).json,
    );
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: a.id, answer: a.answer, phone: '5626027220' });
    const all = tenderCheckListSchema.parse((await call('/api/local/tender-checks')).json);
    expect(all.items.map((i) => i.id)).toEqual([b.id, a.id]);
    const one = await call(`/api/local/tender-checks/${a.id}`);
    expect(parsed(one.json)).toEqual(a);
    expect((await call('/api/local/tender-checks/999')).status).toBe(404);
  });
});

describe('a tender check attached to a decision record', () => {
  it('is kept in the hashed record, listed with the check, and checked by verify', async () => {
    const { check, call } = await start();
    const tender = parsed((await check({ ...CLEAN, max_cost_usd: 10 })).json);
    const other = parsed((await check({ dot_number: '2214589', max_cost_usd: 10 })).json);
    const decide = (body: unknown) =>
      call('/api/local/decisions', { method: 'POST', headers: CSRF, body });

    const wrong = await decide({
      dot_number: '568253',
      decision: 'approved',
      tender_check_id: other.id,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'invalid_tender_check' });
    const bad = await decide({ dot_number: '568253', decision: 'approved', tender_check_id: 'x' });
    expect(bad.json).toMatchObject({ code: 'invalid_tender_check_id' });

    const made = await decide({
      dot_number: '568253',
      decision: 'approved',
      tender_check_id: tender.id,
    });
    expect(made.status).toBe(201);
    const record = made.json as { id: number; tender_check?: Record<string, unknown> };
    expect(record.tender_check).toMatchObject({
      id: tender.id,
      answer: tender.answer,
      identity: tender.identity.outcome,
      checked_at: tender.checked_at,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const again = await call(`/api/local/decisions/${record.id}`);
    expect((again.json as { tender_check?: unknown }).tender_check).toEqual(record.tender_check);

    const list = tenderCheckListSchema.parse(
      (await call('/api/local/tender-checks?dot_number=568253')).json,
    );
    expect(list.items[0]?.decision_ids).toEqual([record.id]);

    const verify = await call('/api/local/decisions/verify');
    expect(verify.json).toMatchObject({
      ok: true,
      tender_checks: { attached: 1, problems: [] },
    });
  });
});

describe('a TMS with an API token', () => {
  it('runs a tender check with an analyst token (no cookie, no x-requested-with); a viewer token only reads', async () => {
    const { call, url } = await start();
    const make = async (role: 'analyst' | 'viewer') => {
      const made = await call('/api/local/tokens', {
        method: 'POST',
        headers: CSRF,
        body: { name: `TMS ${role}`, role, expires_in_days: 30 },
      });
      expect(made.status).toBe(201);
      return (made.json as { token: string }).token;
    };
    const analyst = await make('analyst');
    const viewer = await make('viewer');

    const post = (token: string) =>
      call('/api/local/tender-checks', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: CLEAN,
      });
    const byAnalyst = await post(analyst);
    expect(byAnalyst.status).toBe(201);
    const answer = parsed(byAnalyst.json);
    expect(answer.pending.length).toBeGreaterThan(0);

    const byViewer = await post(viewer);
    expect(byViewer.status).toBe(403);
    expect(byViewer.json).toMatchObject({ code: 'forbidden_role' });

    // a viewer token reads the stored check, with nothing but its bearer header
    const listed = await fetch(`${url}/api/local/tender-checks?dot_number=568253`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(listed.status).toBe(200);
    const list = tenderCheckListSchema.parse(await listed.json());
    const mine = list.items.find((c) => c.id === answer.id);
    expect(mine?.user.name).toContain('TMS analyst');
  });
});
