/**
 * The API token store, the same cases on both engines (sql/engines.test-support.ts): made once and
 * kept only as a hash, found until revoked or expired, revoked at once for another replica, its
 * last use written at most once a minute.
 */
import { createHash } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import { forEachEngine } from '../sql/engines.test-support.ts';
import { createTokenStore, type TokenStore } from './tokens.ts';

const T0 = new Date('2026-03-02T10:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (ms: number) => new Date(T0.getTime() + ms);

forEachEngine('api tokens', (engine) => {
  let tokens: TokenStore;
  beforeEach(() => {
    tokens = createTokenStore(engine.sql);
  });

  const make = (name = 'tms', role: 'viewer' | 'analyst' = 'analyst', days = 30) =>
    tokens.create({ name, role, createdBy: 'ada', expiresAt: at(days * DAY) }, T0);

  it('answers a cdk_ token once and keeps only its SHA-256; the list never carries it', async () => {
    const made = await make();
    expect(made.token).toMatch(/^cdk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(`${made.token.slice(0, 12)}…`);
    const stored = await engine.sql.query<{ token_hash: string }>(
      'SELECT token_hash FROM api_token',
    );
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(made.token).digest('hex') }]);
    const listed = await tokens.list();
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(made.token.slice(12));
    expect(listed[0]).toMatchObject({
      id: made.id,
      name: 'tms',
      role: 'analyst',
      created_by: 'ada',
      expires_at: at(30 * DAY).toISOString(),
      last_used_at: null,
      revoked_at: null,
    });
  });

  it('finds a live token, not another string, not after it expires', async () => {
    const made = await make('erp', 'viewer', 1);
    expect(await tokens.find(made.token, at(1000))).toMatchObject({ id: made.id, role: 'viewer' });
    // one character changed (the last one could be an A already: then a B)
    const other = `${made.token.slice(0, -1)}${made.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await tokens.find(other, at(1000))).toBeUndefined();
    expect(await tokens.find('not-a-token', at(1000))).toBeUndefined();
    expect(await tokens.find(made.token, at(DAY))).toBeUndefined();
  });

  it('a revoke holds at once for another connection (another replica), and 404s an unknown id', async () => {
    const made = await make();
    const other = createTokenStore(engine.another());
    expect(await other.find(made.token, at(1000))).toBeDefined();
    expect(await tokens.revoke(made.id, 'ada', at(2000))).toMatchObject({ id: made.id });
    expect(await other.find(made.token, at(3000))).toBeUndefined();
    expect(await tokens.revoke(made.id, 'bob', at(4000))).toMatchObject({
      revoked_at: at(2000).toISOString(),
      revoked_by: 'ada',
    });
    expect(await tokens.revoke(9999, 'ada', at(5000))).toBeUndefined();
  });

  it('writes the last use at most once a minute', async () => {
    const made = await make();
    const use = async (ms: number) => {
      const found = await tokens.find(made.token, at(ms));
      if (found === undefined) throw new Error('token not found');
      await tokens.touch(found, at(ms));
      return (await tokens.list())[0]?.last_used_at;
    };
    expect(await use(1000)).toBe(at(1000).toISOString());
    expect(await use(30_000)).toBe(at(1000).toISOString());
    expect(await use(61_000)).toBe(at(61_000).toISOString());
    // a stale copy (another replica read it before the write) does not write again
    const stale = { ...(await tokens.find(made.token, at(62_000)))!, last_used_at: null };
    await tokens.touch(stale, at(62_000));
    expect((await tokens.list())[0]?.last_used_at).toBe(at(61_000).toISOString());
  });
});
