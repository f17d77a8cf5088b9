/**
 * The SqlEngine contract, the same cases on both engines (sql/engines.test-support.ts): SQLite on
 * a fresh proxy file, PostgreSQL on a throwaway server (where it is not installed, those tests are
 * skipped by the runner with the reason).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from './engine.ts';
import { forEachEngine, usePostgres } from './engines.test-support.ts';
import { createPostgresEngine, numberPlaceholders } from './postgres.ts';

forEachEngine('SqlEngine', (under) => {
  let engine: SqlEngine;

  beforeEach(async () => {
    engine = under.sql;
    await engine.run('CREATE TABLE notes ("user" TEXT NOT NULL, body TEXT NOT NULL, n INTEGER)');
  });

  const count = async (tx: Pick<SqlEngine, 'query'> = engine) =>
    Number((await tx.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM notes'))[0]?.n);

  it('binds ? placeholders in order and reports the rows a statement changed', async () => {
    const insert = 'INSERT INTO notes ("user", body, n) VALUES (?, ?, ?)';
    expect(await engine.run(insert, ['ana', 'first', 1])).toEqual({ changes: 1 });
    expect(await engine.run(insert, ['ben', 'second', 2])).toEqual({ changes: 1 });
    expect(await engine.run(insert, ['ana', 'third?', null])).toEqual({ changes: 1 });
    const rows = await engine.query<{ user: string; body: string }>(
      'SELECT "user", body FROM notes WHERE "user" = ? AND body <> ? ORDER BY body',
      ['ana', 'first'],
    );
    expect(rows).toEqual([{ user: 'ana', body: 'third?' }]);
    // a ? inside a quoted string is text, not a placeholder
    const literal = await engine.query<{ body: string }>(
      'SELECT body FROM notes WHERE body = \'third?\' AND n IS NULL AND "user" = ?',
      ['ana'],
    );
    expect(literal).toEqual([{ body: 'third?' }]);
    expect(await engine.run('UPDATE notes SET n = ? WHERE "user" = ?', [7, 'ana'])).toEqual({
      changes: 2,
    });
    expect(await engine.run('DELETE FROM notes WHERE "user" = ?', ['nobody'])).toEqual({
      changes: 0,
    });
    expect(await engine.query('SELECT body FROM notes WHERE n = ?', [99])).toEqual([]);
  });

  it('commits a transaction that resolves', async () => {
    const answer = await engine.transaction(async (tx) => {
      await tx.run('INSERT INTO notes ("user", body) VALUES (?, ?)', ['ana', 'a']);
      await tx.run('INSERT INTO notes ("user", body) VALUES (?, ?)', ['ana', 'b']);
      return count(tx);
    });
    expect(answer).toBe(2);
    expect(await count()).toBe(2);
  });

  it('rolls back a transaction that throws, and rethrows its error', async () => {
    await engine.run('INSERT INTO notes ("user", body) VALUES (?, ?)', ['ana', 'kept']);
    const failing = engine.transaction(async (tx) => {
      await tx.run('INSERT INTO notes ("user", body) VALUES (?, ?)', ['ana', 'dropped']);
      await tx.run('DELETE FROM notes WHERE body = ?', ['kept']);
      expect(await count(tx)).toBe(1);
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    expect(await engine.query('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
    // the engine is usable after a rollback
    await engine.transaction((tx) =>
      tx.run('INSERT INTO notes ("user", body) VALUES (?, ?)', ['b', 'c']),
    );
    expect(await count()).toBe(2);
  });

  it('rejects a bad statement and answers a ping', async () => {
    await expect(engine.query('SELECT nothing FROM nowhere')).rejects.toThrow();
    await expect(engine.ping()).resolves.toBeUndefined();
  });
});

describe('numberPlaceholders', () => {
  it('numbers ? outside quoted strings, quoted names and comments', () => {
    expect(numberPlaceholders('SELECT a FROM t WHERE a = ? AND b = ?')).toBe(
      'SELECT a FROM t WHERE a = $1 AND b = $2',
    );
    expect(numberPlaceholders(`SELECT '?', "x?" FROM t -- why?\nWHERE c = ?`)).toBe(
      `SELECT '?', "x?" FROM t -- why?\nWHERE c = $1`,
    );
    expect(numberPlaceholders("SELECT 'it''s ?' WHERE d = ?")).toBe(
      "SELECT 'it''s ?' WHERE d = $1",
    );
  });
});

describe('PostgreSQL connection lost mid-transaction', () => {
  const server = usePostgres();

  it('rejects that transaction, keeps the process up, and serves the next statement', async () => {
    const engine = createPostgresEngine(await server.freshDatabase());
    try {
      const lost = engine.transaction(async (tx) => {
        const [me] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // another connection ends this one while it sits idle in the transaction: the client
        // emits 'error' (unhandled, it would end the test process) and the next statement fails
        await engine.query('SELECT pg_terminate_backend(?)', [Number(me?.pid)]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.query('SELECT 1');
      });
      await expect(lost).rejects.toThrow();
      expect(await engine.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await engine.close();
    }
  });
});
