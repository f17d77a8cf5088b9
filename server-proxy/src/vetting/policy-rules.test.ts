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
} from '../helpers.test-support.ts';

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
const headers = { ...CSRF, 'x-forwarded-user': 'erin', 'x-forwarded-role': 'admin' };
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

interface Verdict {
  verdict: string;
  policy_version: number;
  reasons: { rule: string; outcome: string; anchor?: string; tab: string }[];
}

describe('the newer rules over HTTP', () => {
  it('lists them in the catalogue with their settings, off by default', async () => {
    const policy = (await get('/api/local/policy')).json as {
      settings: Record<string, { enabled: boolean }>;
      rules: {
        id: string;
        threshold: { unit: string; step: number } | null;
        cargo_classes: { id: string; label: string }[] | null;
        hazmat_modes: { id: string }[] | null;
      }[];
    };
    const rule = (id: string) => policy.rules.find((r) => r.id === id);
    expect(rule('bipd_minimum')?.threshold).toMatchObject({ unit: 'USD', step: 1 });
    expect(rule('cargo_classes')?.cargo_classes).toContainEqual({
      id: 'refrigerated_foods',
      label: 'Refrigerated food',
    });
    expect(rule('hazmat')?.hazmat_modes?.map((m) => m.id)).toEqual(['required', 'refused']);
    expect(rule('new_entrant')?.cargo_classes).toBeNull();
    expect(policy.settings.crash_count?.enabled).toBe(false);
  });

  it('saves them, the verdict uses them, and the versions before still evaluate as they did', async () => {
    const before = (await get('/api/local/verdict?dot_number=568253')).json as Verdict;
    expect(before.verdict).toBe('pass');
    const saved = await put({
      rules: {
        bipd_minimum: { enabled: true, outcome: 'fail', threshold: 5_000_000 },
        cargo_classes: { enabled: true, cargo_refused: ['motor_vehicles'] },
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const version = (saved.json as PolicyAnswer).version;
    expect((saved.json as PolicyAnswer).changes).toEqual([
      'Liability insurance minimum: enabled off → on',
      'Liability insurance minimum: outcome review → fail',
      'Liability insurance minimum: threshold $1,000,000 → $5,000,000',
      'Cargo classes: enabled off → on',
      'Cargo classes: refused cargo none → motor_vehicles',
    ]);
    const after = (await get('/api/local/verdict?dot_number=568253')).json as Verdict;
    expect(after).toMatchObject({ verdict: 'fail', policy_version: version });
    expect(after.reasons.slice(0, 2)).toMatchObject([
      { rule: 'bipd_minimum', outcome: 'fail', tab: 'authority', anchor: 'authority-insurance' },
      { rule: 'cargo_classes', outcome: 'review', tab: 'fleet', anchor: 'fleet-cargo' },
    ]);
    for (const [body, error] of [
      [{ rules: { cargo_classes: { cargo_required: ['gold'] } } }, /distinct cargo classes/],
      [{ rules: { hazmat: { hazmat: 'sometimes' } } }, /required, refused/],
      [{ rules: { power_units: { threshold: 0 } } }, /from 1 to/],
    ] as const) {
      const bad = await put(body);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({
        code: 'invalid_setting',
        error: expect.stringMatching(error),
      });
    }
    // version 4 (stored by a proxy before these rules) reads them as off
    const v4 = (await get('/api/local/policy/versions/4')).json as {
      settings: Record<string, { enabled: boolean }>;
    };
    expect(v4.settings.bipd_minimum?.enabled).toBe(false);
    expect(v4.settings.cargo_classes?.enabled).toBe(false);
  });
});
