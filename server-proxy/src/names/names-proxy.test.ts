/**
 * Carrier names over real servers on loopback: the proxy in front of its embedded sandbox, with its
 * SQLite file. A name seen in an answer is kept and outlives the process; the look-up route answers
 * its cost first and bills nothing (the sandbox's own ledger) until it is confirmed.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';
import { sightingsIn } from './sightings.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(config: ProxyConfig) {
  const app = await buildProxyApp(config, { sandbox: { population: 50 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const call = (path: string, init?: Parameters<typeof request>[1]) =>
    request(`${url}${path}`, init);
  return { app, call };
}

function sandboxConfig(): ProxyConfig {
  const config = embeddedSandboxConfig({}, { retryDelayMs: 20 });
  cleanups.push(() => rmSync(config.dataDir, { recursive: true, force: true }));
  return config;
}

async function heldNames(call: Awaited<ReturnType<typeof start>>['call'], dots: string) {
  const answer = await call(`/api/local/triage/names?dots=${dots}`);
  expect(answer.status).toBe(200);
  return (answer.json as { names: Record<string, { name: string; source: string }> }).names;
}

/** The sandbox's bill this month: calls per kind. */
async function sandboxCalls(app: ProxyApp): Promise<Record<string, number>> {
  const sandbox = app.proxy.sandbox;
  if (!sandbox) throw new Error('no embedded sandbox');
  const answer = await request(`${sandbox.url}/__sandbox/ledger`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  const body = answer.json as {
    keys: { months: { lines: { kind: string; calls: number }[] }[] }[];
  };
  const calls: Record<string, number> = {};
  for (const line of body.keys.flatMap((k) => k.months.flatMap((m) => m.lines))) {
    calls[line.kind] = (calls[line.kind] ?? 0) + line.calls;
  }
  return calls;
}

describe('names the proxy sees', () => {
  it('keeps a name seen in a profile answer, and it survives a restart of the proxy', async () => {
    const config = sandboxConfig();
    const first = await start(config);
    const profile = await first.call('/api/v2/profile?dot_number=4418207');
    expect(profile.status).toBe(200);
    await first.app.close();

    // a new process on the same data dir: an empty response cache
    const second = await start(config);
    cleanups.push(() => second.app.close());
    expect(await heldNames(second.call, '4418207')).toEqual({
      '4418207': { name: 'SWIFTPATH EXPRESS LLC', source: 'profile' },
    });
  });

  it("reads the heavy carrier's 13.5 MB answer in a few milliseconds (the hot path's share)", async () => {
    const { app } = await start(sandboxConfig());
    cleanups.push(() => app.close());
    const sandbox = app.proxy.sandbox!;
    const answer = await request(`${sandbox.url}/v2/profile?dot_number=3999999`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    expect(answer.text.length).toBeGreaterThan(10_000_000);
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const start = performance.now();
      const found = sightingsIn('profile', answer.json);
      times.push(performance.now() - start);
      expect(found[0]?.dot).toBe('3999999');
      // and the carriers of its network graph (521 in the sandbox)
      expect(found.length).toBeGreaterThan(100);
    }
    const median = times.sort((a, b) => a - b)[2] ?? Infinity;
    console.info(`names of the 13.5 MB profile read in ${median.toFixed(2)} ms (median of 5)`);
    expect(median).toBeLessThan(20);
  });

  it('keeps the names of a search by company name (a page of results)', async () => {
    const { app, call } = await start(sandboxConfig());
    cleanups.push(() => app.close());
    const search = await call('/api/v2/profile?company=SWIFTPATH');
    expect(search.status).toBe(200);
    await app.proxy.names.flush();
    expect((await heldNames(call, '4418207'))['4418207']?.name).toBe('SWIFTPATH EXPRESS LLC');
  });
});

interface Estimate {
  carriers: number;
  already_named: number;
  to_look_up: number;
  endpoint: string;
  metered_cost_usd: number;
  cost_usd: number;
  billed: boolean;
}

describe('POST /api/local/names/lookup', () => {
  it('answers the cost first and bills nothing until confirmed with that cost', async () => {
    const { app, call } = await start(sandboxConfig());
    cleanups.push(() => app.close());
    const lookup = (body: unknown, headers: Record<string, string> = CSRF) =>
      call('/api/local/names/lookup', { method: 'POST', headers, body });
    const before = await sandboxCalls(app);

    const asked = await lookup({ dots: ['2214589', '3187452'] });
    expect(asked.status).toBe(200);
    expect((asked.json as { estimate: Estimate }).estimate).toMatchObject({
      carriers: 2,
      already_named: 0,
      to_look_up: 2,
      endpoint: 'profile-fmcsa',
      metered_cost_usd: 0.2,
      cost_usd: 0,
      billed: false,
    });
    expect(asked.json).not.toHaveProperty('result');

    // refusals: no CSRF header, bad input, no cost confirmed, a cost lower than the real one
    expect((await lookup({ dots: ['2214589'] }, {})).status).toBe(403);
    const bad = await lookup({ dots: ['22x'] });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_dot', hint: expect.any(String) });
    expect((await lookup({ dots: [], confirm: true })).json).toMatchObject({
      code: 'invalid_dots',
    });
    expect((await lookup({ dots: ['1'], extra: 1 })).json).toMatchObject({ code: 'unknown_field' });
    expect((await lookup({ dots: ['2214589'], confirm: true })).json).toMatchObject({
      code: 'missing_max_cost',
    });
    const cheaper = await lookup({
      dots: ['2214589', '3187452'],
      confirm: true,
      max_cost_usd: 0.1,
    });
    expect(cheaper.status).toBe(409);
    expect(cheaper.json).toMatchObject({ code: 'cost_changed' });

    expect(await sandboxCalls(app)).toEqual(before);
    expect(await heldNames(call, '2214589,3187452')).toEqual({});

    const confirmed = await lookup({
      dots: ['2214589', '3187452'],
      confirm: true,
      max_cost_usd: 0.2,
    });
    expect(confirmed.status).toBe(200);
    const { result } = confirmed.json as {
      result: { named: Record<string, { name: string }>; not_found: string[]; failed: unknown[] };
    };
    expect(Object.keys(result.named).sort()).toEqual(['2214589', '3187452']);
    expect(result.failed).toEqual([]);
    const after = await sandboxCalls(app);
    expect((after.profile_fmcsa ?? 0) - (before.profile_fmcsa ?? 0)).toBe(2);
    expect(after.profile_lite ?? 0).toBe(before.profile_lite ?? 0);
    const held = await heldNames(call, '2214589,3187452');
    expect(held['2214589']).toEqual({ ...result.named['2214589'], source: 'profile-fmcsa' });

    // a DOT the service does not know: not found (FMCSA's 404 is not billed), nothing failed
    const unknown = await lookup({ dots: ['9999991'], confirm: true, max_cost_usd: 0.1 });
    expect(unknown.status).toBe(200);
    expect((unknown.json as { result: unknown }).result).toEqual({
      named: {},
      not_found: ['9999991'],
      failed: [],
    });

    // named now: nothing left to look up, nothing to pay
    const again = await lookup({ dots: ['2214589', '3187452'] });
    expect((again.json as { estimate: Estimate }).estimate).toMatchObject({
      already_named: 2,
      to_look_up: 0,
      metered_cost_usd: 0,
    });
  });
});
