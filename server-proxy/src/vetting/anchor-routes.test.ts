/**
 * The anchored decision record over real HTTP on both engines: the public key, signed records,
 * receipts, and `POST /api/local/decisions/verify` finding what the chain check alone cannot (the
 * database changed as someone with its password would: triggers off). On PostgreSQL a second
 * replica, signing with the same key, checks the first one's receipts.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildProxyApp } from '../app.ts';
import type { ProxyConfig } from '../context.ts';
import { forEachDatabase } from '../sql/engines.test-support.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
  request,
  type CallInit,
  type CallResult,
} from '../helpers.test-support.ts';

interface Running {
  call(path: string, init?: CallInit): Promise<CallResult>;
  close(): Promise<void>;
}

async function start(config: ProxyConfig): Promise<Running> {
  const app = await buildProxyApp(config, { sandbox: { population: 300 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { call: (path, init) => request(`${url}${path}`, init), close: () => app.close() };
}

const headers = { ...CSRF, 'x-forwarded-user': 'alice', 'x-forwarded-role': 'analyst' };
const DOTS = ['568253', '3187452', '2214589'];

interface Receipt {
  payload: string;
  signature: string;
  key_id: string;
  record_id: number;
  chain_length: number;
}

forEachDatabase('the anchored decision record', (database) => {
  const dataDir = makeTempDir();
  let proxy: Running;
  let config: ProxyConfig;
  let ids: number[] = [];
  let receipt: Receipt;

  const get = (path: string, on = proxy) => on.call(path, { headers });
  const post = (path: string, body: unknown, on = proxy) =>
    on.call(path, { method: 'POST', headers, body });

  /** Change the database directly, append-only triggers off. */
  async function tamper(statements: string[]): Promise<void> {
    if (config.databaseUrl !== undefined) {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query('ALTER TABLE vetting_decision DISABLE TRIGGER USER');
        for (const sql of statements) await client.query(sql);
        await client.query('ALTER TABLE vetting_decision ENABLE TRIGGER USER');
      } finally {
        await client.end();
      }
      return;
    }
    const db = new Database(join(dataDir, 'proxy.sqlite'));
    try {
      db.exec(
        'DROP TRIGGER IF EXISTS vetting_decision_no_update; DROP TRIGGER IF EXISTS vetting_decision_no_delete',
      );
      for (const sql of statements) db.exec(sql);
    } finally {
      db.close();
    }
  }

  beforeAll(async () => {
    config = embeddedSandboxConfig({
      dataDir,
      auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      ...database.config,
    });
    proxy = await start(config);
    ids = [];
    for (const dot of DOTS) {
      expect((await get(`/api/v2/profile?dot_number=${dot}`)).status).toBe(200);
      const recorded = await post('/api/local/decisions', {
        dot_number: dot,
        decision: 'rejected',
        note: `checked ${dot}`,
      });
      expect(recorded.status).toBe(201);
      ids.push((recorded.json as { id: number }).id);
    }
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives the public key and signs every record; verify checks the signatures', async () => {
    const key = await get('/api/local/decisions/public-key');
    expect(key.status).toBe(200);
    const { key_id, public_key } = key.json as { key_id: string; public_key: string };
    expect(public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(key_id).toMatch(/^[0-9a-f]{16}$/);
    expect((await get('/api/local/decisions/verify')).json).toEqual({
      ok: true,
      count: 3,
      signed: 3,
      unsigned_before_signing: 0,
      key_id,
    });
  });

  it('gives a signed receipt that a kept copy of the public key checks', async () => {
    const answer = await get(`/api/local/decisions/${ids[1]}/receipt`);
    expect(answer.status).toBe(200);
    receipt = answer.json as Receipt;
    expect(receipt).toMatchObject({ record_id: ids[1], record_position: 2, chain_length: 3 });
    const verified = await post('/api/local/decisions/verify', { receipts: [receipt] });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({
      ok: true,
      receipts: [{ index: 0, ok: true }],
      receipts_failed: 0,
    });
    expect((await get('/api/local/decisions/99999/receipt')).status).toBe(404);
    const bad = await post('/api/local/decisions/verify', { receipts: 'all of them' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'invalid_receipts', hint: expect.any(String) });
  });

  // a second replica exists only on the shared database
  if (database.name === 'postgres') {
    it('a second replica signs with the same key and checks the receipt', async () => {
      const second = await start({ ...config, dataDir: makeTempDir() });
      try {
        const verified = await post('/api/local/decisions/verify', { receipts: [receipt] }, second);
        expect(verified.json).toMatchObject({ ok: true, receipts_failed: 0 });
      } finally {
        await second.close();
      }
    });
  }

  it('finds the chain cut at its end, which the chain check alone does not', async () => {
    await tamper([`DELETE FROM vetting_decision WHERE id = ${ids[2]}`]);
    expect((await get('/api/local/decisions/verify')).json).toMatchObject({ ok: true, count: 2 });
    const verified = await post('/api/local/decisions/verify', { receipts: [receipt] });
    expect(verified.json).toMatchObject({
      ok: false,
      receipts_failed: 1,
      receipts: [{ ok: false, problem: expect.stringMatching(/holds 2 records; it held 3/) }],
    });
  });

  it('finds a signature taken off a record after signed ones', async () => {
    await tamper([
      `UPDATE vetting_decision SET signature = NULL, signing_key_id = NULL WHERE id = ${ids[1]}`,
    ]);
    expect((await get('/api/local/decisions/verify')).json).toMatchObject({
      ok: false,
      first_bad_id: ids[1],
      problem: 'it is not signed, but records before it are',
    });
  });

  it('refuses a receipt whose payload was edited to match the cut chain', async () => {
    const forged = {
      ...receipt,
      payload: receipt.payload.replace('"chain_length":3', '"chain_length":2'),
    };
    const verified = await post('/api/local/decisions/verify', { receipts: [forged] });
    expect(verified.json).toMatchObject({
      receipts: [{ ok: false, problem: 'the signature does not match the statement' }],
    });
  });
});
