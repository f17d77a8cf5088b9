/**
 * The policy's options and its newer rules over real HTTP: a proxy in front of its embedded sandbox,
 * a real SQLite file in DATA_DIR, and a version row written the way the proxy wrote them before
 * options and the newer rules existed.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import {
  CSRF,
  makeTempDir,
  request,
  embeddedSandboxConfig,
  type CallInit,
} from '../test-helpers.ts';

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
const headers = { ...CSRF, 'x-forwarded-user': 'erin' };
const get = (path: string) => proxy.call(path, { headers });
const put = (body: unknown) => proxy.call('/api/local/policy', { method: 'PUT', headers, body });

interface PolicyAnswer {
  version: number;
  options: { max_revet_days: number };
  changes: string[];
}

beforeAll(async () => {
  proxy = await start();
});

afterAll(async () => {
  await proxy.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('policy options', () => {
  it('answers the default max_revet_days (365) on version 1', async () => {
    expect(((await get('/api/local/policy')).json as PolicyAnswer).options).toEqual({
      max_revet_days: 365,
    });
    expect(((await get('/api/local/policy/versions/1')).json as PolicyAnswer).options).toEqual({
      max_revet_days: 365,
    });
  });

  it('refuses a max_revet_days out of 1..730 or an unknown option, storing nothing', async () => {
    for (const options of [
      { max_revet_days: 0 },
      { max_revet_days: 731 },
      { max_revet_days: 30.5 },
      { max_revet_days: '90' },
      { max_days: 90 },
      [90],
    ]) {
      const bad = await put({ options });
      expect(bad.status, JSON.stringify(options)).toBe(400);
      expect(bad.json).toMatchObject({ code: 'invalid_options' });
      expect((bad.json as { error: string }).error).toMatch(/option/);
    }
    expect(((await get('/api/local/policy')).json as PolicyAnswer).version).toBe(1);
  });

  it('saves an options-only change as a new version that keeps it across a restart', async () => {
    const saved = await put({ options: { max_revet_days: 180 }, note: 'Twice a year' });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json).toMatchObject({
      version: 2,
      options: { max_revet_days: 180 },
      changes: ['Longest re-vet period: 365 → 180 days'],
    });
    expect((await put({ options: { max_revet_days: 180 } })).json).toMatchObject({
      code: 'no_change',
    });
    // a rules change keeps the options of the version before
    const rules = await put({ rules: { new_entrant: { threshold: 300 } } });
    expect(rules.json).toMatchObject({ version: 3, options: { max_revet_days: 180 } });
    await proxy.close();
    proxy = await start();
    expect(((await get('/api/local/policy')).json as PolicyAnswer).options).toEqual({
      max_revet_days: 180,
    });
    expect(((await get('/api/local/policy/versions/1')).json as PolicyAnswer).options).toEqual({
      max_revet_days: 365,
    });
  });

  it('reads a version stored before options existed with the default', async () => {
    await proxy.close();
    const file = new Database(join(dataDir, 'proxy.sqlite'));
    const v1 = {
      new_entrant: { enabled: true, outcome: 'review', no_data: 'pass', threshold: 200 },
    };
    file
      .prepare(
        `INSERT INTO vetting_policy (version, settings, created_by, created_at, changes, note)
         VALUES (4, ?, 'old proxy', '2026-01-01T00:00:00.000Z', '[]', NULL)`,
      )
      .run(JSON.stringify(v1));
    file.close();
    proxy = await start();
    const current = (await get('/api/local/policy')).json as PolicyAnswer;
    expect(current).toMatchObject({ version: 4, options: { max_revet_days: 365 } });
  });
});
