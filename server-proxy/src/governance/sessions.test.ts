/**
 * The session store, the same cases on both engines (sql/engines.test-support.ts): SQLite (the
 * proxy's own database file) and PostgreSQL (DATABASE_URL).
 */
import { createHash } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createSessionStore, type SessionStore } from './sessions.ts';

const TTL_MS = 60 * 60 * 1000;
const T0 = new Date('2026-03-02T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

forEachEngine('sessions', (engine) => {
  let sessions: SessionStore;

  beforeEach(() => {
    sessions = createSessionStore(engine.sql, TTL_MS);
  });

  const rowCount = async () =>
    Number(
      (await engine.sql.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM sessions'))[0]?.n,
    );

  it('finds the user of a token it created, and no one for another token', async () => {
    const { token, expiresAt } = await sessions.create('ana', T0);
    expect(expiresAt).toEqual(at(TTL_MS));
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessions.lookup(token, at(1000))).toBe('ana');
    const other = await sessions.create('ben', T0);
    expect(other.token).not.toBe(token);
    expect(await sessions.lookup(other.token, at(1000))).toBe('ben');
    expect(await sessions.lookup('not-a-token', at(1000))).toBeUndefined();
  });

  it('ends a session at its expiry', async () => {
    const { token } = await sessions.create('ana', T0);
    expect(await sessions.lookup(token, at(TTL_MS - 1))).toBe('ana');
    expect(await sessions.lookup(token, at(TTL_MS))).toBeUndefined();
    expect(await sessions.lookup(token, at(TTL_MS + 1))).toBeUndefined();
  });

  it('forgets a destroyed session and leaves the others', async () => {
    const first = await sessions.create('ana', T0);
    const second = await sessions.create('ana', T0);
    await sessions.destroy(first.token);
    expect(await sessions.lookup(first.token, at(1))).toBeUndefined();
    expect(await sessions.lookup(second.token, at(1))).toBe('ana');
    await sessions.destroy('unknown token');
    expect(await rowCount()).toBe(1);
  });

  it('prunes expired rows when a session starts', async () => {
    await sessions.create('ana', T0);
    await sessions.create('ben', at(TTL_MS / 2));
    expect(await rowCount()).toBe(2);
    const late = await sessions.create('cy', at(TTL_MS + 1));
    expect(await rowCount()).toBe(2);
    expect(await sessions.lookup(late.token, at(TTL_MS + 2))).toBe('cy');
  });

  it('stores only the SHA-256 of the token', async () => {
    const { token } = await sessions.create('ana', T0);
    const rows = await engine.sql.query<Record<string, unknown>>('SELECT * FROM sessions');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id_hash: createHash('sha256').update(token).digest('hex'),
      user: 'ana',
      created_at: T0.toISOString(),
      expires_at: at(TTL_MS).toISOString(),
    });
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
