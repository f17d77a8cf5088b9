import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResponseCache } from '../cache.ts';
import type { Endpoint } from '../context.ts';
import { openProxyDb } from '../db.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { requestKey, validateRequest } from '../validate.ts';
import { parseNamesQuery } from './names.ts';
import { registerMonitoringRoutes } from './routes.ts';

let dir: string;
let app: FastifyInstance;
let cache: ResponseCache;
let db: ReturnType<typeof openProxyDb>;
const mirrorGet = vi.fn();

function hold(endpoint: Endpoint, query: Record<string, string>, body: unknown, dot: string) {
  const key = requestKey(validateRequest(endpoint, query, undefined));
  cache.set(
    key,
    { status: 200, body: JSON.stringify(body), headers: {}, fetchedAt: new Date(), dots: [dot] },
    60_000,
  );
}

async function decide(sql: SqlEngine, dot: string, legalName: string) {
  const content = JSON.stringify({
    profile: { identity: [{ name: 'legal_name', value: legalName }] },
  });
  await sql.run(
    `INSERT INTO vetting_decision
       (dot_number, decision, "user", decided_at, expires_on, verdict, policy_version, content, prev_hash, hash)
     VALUES (?, 'approved', 'local', '2026-11-01T00:00:00Z', NULL, 'pass', 1, ?, '', ?)`,
    [dot, content, `${dot}-${legalName}`],
  );
}

async function names(query: string) {
  const reply = await app.inject({ method: 'GET', url: `/api/local/triage/names?${query}` });
  return { status: reply.statusCode, body: reply.json() as Record<string, unknown> };
}

forEachEngine('names from decision records', (engine) => {
  let sql: SqlEngine;

  beforeEach(async () => {
    sql = engine.sql;
    dir = makeTempDir();
    db = openProxyDb(join(dir, 'proxy.sqlite'));
    cache = new ResponseCache(10_000_000);
    mirrorGet.mockReset();
    app = Fastify();
    registerMonitoringRoutes(app, { db, sql, cache, mirror: { get: mirrorGet } });
    await app.ready();
  });

  afterEach(async () => {
    await app?.close();
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('falls back to the newest decision record, and prefers the cache', async () => {
    await decide(sql, '2214589', 'OLD NAME');
    await decide(sql, '2214589', 'NEW NAME');
    await decide(sql, '568253', 'DECIDED NAME');
    hold(
      'profile',
      { dot_number: '568253' },
      { items: [{ dot_number: '568253', legal_name: 'CACHED NAME' }] },
      '568253',
    );
    const { body } = await names('dots=2214589&dots=568253');
    expect(body.names).toEqual({
      '2214589': { name: 'NEW NAME', source: 'decision' },
      '568253': { name: 'CACHED NAME', source: 'profile' },
    });
    expect(mirrorGet).not.toHaveBeenCalled();
  });
});

describe('GET /api/local/triage/names', () => {
  beforeEach(async () => {
    dir = makeTempDir();
    db = openProxyDb(join(dir, 'proxy.sqlite'));
    cache = new ResponseCache(10_000_000);
    mirrorGet.mockReset();
    app = Fastify();
    registerMonitoringRoutes(app, { db, cache, mirror: { get: mirrorGet } });
    await app.ready();
  });

  afterEach(async () => {
    await app.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names carriers from cached profiles, lite, FMCSA and resolution answers, never upstream', async () => {
    hold(
      'profile',
      { dot_number: '568253' },
      { items: [{ dot_number: '568253', legal_name: 'HANSEN & ADKINS' }] },
      '568253',
    );
    hold(
      'profile-lite',
      { dot_number: '265752' },
      { items: [{ dot_number: 265752, legal_name: 'LITE CO' }] },
      '265752',
    );
    hold(
      'profile-fmcsa',
      { dot_number: '4418207' },
      { dot_number: 4418207, legal_name: 'FMCSA CO' },
      '4418207',
    );
    hold(
      'autocomplete',
      { q: '3187452', limit: '15' },
      [
        { dot_number: '31874520', legal_name: 'NOT THIS ONE' },
        { dot_number: '3187452', legal_name: 'SUGGESTED CO' },
      ],
      '3187452',
    );
    const { status, body } = await names('dots=568253,265752,4418207,3187452,999');
    expect(status).toBe(200);
    expect(body.names).toEqual({
      '568253': { name: 'HANSEN & ADKINS', source: 'profile' },
      '265752': { name: 'LITE CO', source: 'profile-lite' },
      '4418207': { name: 'FMCSA CO', source: 'profile-fmcsa' },
      '3187452': { name: 'SUGGESTED CO', source: 'autocomplete' },
    });
    expect(mirrorGet).not.toHaveBeenCalled();
  });

  it('rejects bad queries with 400', async () => {
    expect((await names('dots=')).status).toBe(400);
    expect((await names('dots=abc')).body.code).toBe('invalid_dot');
    expect((await names('dot=1')).body.code).toBe('unknown_parameter');
  });
});

describe('parseNamesQuery', () => {
  it('de-duplicates and strips leading zeros', () => {
    expect(parseNamesQuery({ dots: '0568253, 568253,1' })).toEqual({
      ok: true,
      value: ['568253', '1'],
    });
  });

  it('refuses more than 500', () => {
    const dots = Array.from({ length: 501 }, (_, i) => String(i + 1)).join(',');
    expect(parseNamesQuery({ dots }).ok).toBe(false);
  });
});
