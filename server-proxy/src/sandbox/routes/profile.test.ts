import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../config.ts';
import type { MonitoringModule } from '../context.ts';
import { buildProfile } from '../data/build-profile.ts';
import { HEAVY_DOT, heavyModel } from '../data/heavy.ts';
import { populationModel } from '../data/population-model.ts';
import type { WireProfile } from '../data/types.ts';
import { startSandbox, TEST_KEY, type RunningSandbox } from '../helpers.test-support.ts';
import { envelopeJson, profileJson, servedProfile, type ServiceDeps } from './deps.ts';

/** Population of this file's sandbox (built with the app's default seed). */
const POPULATION = 2000;

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ population: POPULATION });
});
afterAll(async () => {
  await sandbox.close();
});

/** What Fastify's default serialiser would have sent for one generated profile. */
function expectedBody(dot: string): string {
  const profile = sandbox.app.sandbox.dataset.getProfile(dot);
  return JSON.stringify({ items: [profile], total_count: 1 });
}

describe('GET /v2/profile serialisation', () => {
  it('sends exactly the JSON of the generated profile, first and repeat lookups alike', async () => {
    const { dataset } = sandbox.app.sandbox;
    const population = String(5_000_000 + 1234);
    for (const dot of [population, dataset.curatedDots.at(-1) ?? '', '265752']) {
      for (let lookup = 0; lookup < 2; lookup += 1) {
        const result = await sandbox.call(`/v2/profile?dot_number=${dot}`);
        expect(result.status, result.text).toBe(200);
        expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(result.text).toBe(expectedBody(dot));
      }
    }
  });

  it('sends the heavy and a population carrier byte for byte as a fresh build would', async () => {
    // Fresh builds from the generators, not the dataset's cached objects: the bytes served (cached
    // after the first lookup) must not drift from what building the carrier again gives.
    const row = 1717;
    const fresh = new Map<string, WireProfile>([
      [HEAVY_DOT, buildProfile(heavyModel(DEFAULT_SEED, POPULATION))],
      [String(5_000_000 + row), buildProfile(populationModel(DEFAULT_SEED, row, POPULATION))],
    ]);
    for (const [dot, profile] of fresh) {
      const expected = Buffer.from(JSON.stringify({ items: [profile], total_count: 1 }));
      for (let lookup = 0; lookup < 2; lookup += 1) {
        const response = await fetch(`${sandbox.url}/v2/profile?dot_number=${dot}`, {
          headers: { authorization: `Bearer ${TEST_KEY}` },
        });
        expect(response.status).toBe(200);
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.length, `${dot} lookup ${lookup}`).toBe(expected.length);
        expect(body.equals(expected), `${dot} lookup ${lookup}`).toBe(true);
      }
    }
  });

  it('sends a multi-item page as JSON.stringify of the generated profiles would', async () => {
    const { dataset } = sandbox.app.sandbox;
    const result = await sandbox.call('/v2/profile?company=tr&pageSize=5');
    expect(result.status, result.text).toBe(200);
    const body = result.json as { items: { dot_number: unknown }[]; total_count: number };
    expect(body.items.length).toBeGreaterThan(1);
    const items = body.items.map((item) => dataset.getProfile(String(item.dot_number)));
    expect(result.text).toBe(JSON.stringify({ items, total_count: body.total_count }));
  });
});

/** Deps whose monitoring module merges `overrides` (a copy, as the real module does). */
function depsWith(overrides: Record<string, unknown>): ServiceDeps {
  const monitoring = {
    applyOverrides: (_dot: string, profile: WireProfile) => ({ ...profile, ...overrides }),
  } as unknown as MonitoringModule;
  return { ctx: sandbox.app.sandbox, monitoring };
}

describe('servedProfile', () => {
  const dot = String(5_000_000 + 77);

  it("returns the dataset's own object when the overrides change nothing", () => {
    const generated = sandbox.app.sandbox.dataset.getProfile(dot);
    expect(servedProfile(depsWith({}), dot)).toBe(generated);
    expect(servedProfile(depsWith({ legal_name: generated?.legal_name }), dot)).toBe(generated);
  });

  it('returns the merged copy when an override changes, adds or removes a field', () => {
    const generated = sandbox.app.sandbox.dataset.getProfile(dot) ?? {};
    const changed = servedProfile(depsWith({ legal_name: 'MOVED LLC' }), dot);
    expect(changed).not.toBe(generated);
    expect(changed?.legal_name).toBe('MOVED LLC');
    expect(servedProfile(depsWith({ extra_field: 'x' }), dot)?.extra_field).toBe('x');
    const removing: ServiceDeps = {
      ctx: sandbox.app.sandbox,
      monitoring: {
        applyOverrides: (_dot: string, profile: WireProfile) => {
          const { legal_name: _dropped, ...rest } = profile;
          return rest;
        },
      } as unknown as MonitoringModule,
    };
    expect(servedProfile(removing, dot)).not.toHaveProperty('legal_name');
    expect(servedProfile(depsWith({}), '1')).toBeUndefined();
  });
});

describe('profileJson', () => {
  it('serialises once per object and follows a changed copy', () => {
    const profile: WireProfile = { dot_number: '5', legal_name: 'A', gone: undefined };
    const json = profileJson(profile);
    expect(json.toString()).toBe(JSON.stringify(profile));
    // the same cached bytes again, not a new serialisation
    const again = profileJson(profile);
    expect(again.buffer).toBe(json.buffer);
    expect(again.byteOffset).toBe(json.byteOffset);
    expect(profileJson({ ...profile, legal_name: 'B' }).toString()).toBe(
      JSON.stringify({ ...profile, legal_name: 'B' }),
    );
  });
});

describe('envelopeJson', () => {
  it('is JSON.stringify of the page for one item, several, none, and any total', () => {
    const a: WireProfile = { dot_number: '1', legal_name: 'A "QUOTED" CO', n: 2 };
    const b: WireProfile = { dot_number: '2', tags: ['x'], nested: { ok: true } };
    for (const [items, total] of [
      [[a], 1],
      [[a], 7],
      [[a, b], 2],
      [[], 0],
    ] as const) {
      expect(envelopeJson(items, total).toString()).toBe(
        JSON.stringify({ items, total_count: total }),
      );
    }
    expect(envelopeJson([a], 1)).toBe(envelopeJson([a], 1));
    const accented: WireProfile = { dot_number: '3', legal_name: 'TRANSPORTES MÉRIDA' };
    expect(envelopeJson([accented, a], 2).toString()).toBe(
      JSON.stringify({ items: [accented, a], total_count: 2 }),
    );
  });
});
