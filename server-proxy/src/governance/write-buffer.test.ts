import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPostgresEngine } from '../sql/postgres.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { storageOf } from '../storage.ts';
import { createSqlWriteBuffer, createWriteBuffer } from './write-buffer.ts';

describe('createWriteBuffer', () => {
  let dir: string;
  let db: Database.Database;
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'write-buffer-'));
    db = new Database(join(dir, 'db.sqlite'));
    db.exec('CREATE TABLE t (v INTEGER)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function buffer(opts: { maxRows?: number; maxDelayMs?: number }) {
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    return createWriteBuffer<number>(db, (v) => insert.run(v), opts);
  }

  it('holds rows until flushed, then writes them all', () => {
    const rows = buffer({ maxRows: 100, maxDelayMs: 60_000 });
    rows.push(1);
    rows.push(2);
    expect(count()).toBe(0);
    rows.flush();
    expect(count()).toBe(2);
  });

  it('writes at once when the batch is full', () => {
    const rows = buffer({ maxRows: 3, maxDelayMs: 60_000 });
    for (const v of [1, 2, 3]) rows.push(v);
    expect(count()).toBe(3);
  });

  it('writes by itself after the delay', async () => {
    const rows = buffer({ maxRows: 100, maxDelayMs: 10 });
    rows.push(7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(count()).toBe(1);
  });

  it('keeps rows and never throws while the database refuses writes, then writes them', async () => {
    const rows = buffer({ maxRows: 2, maxDelayMs: 10 });
    db.pragma('query_only = ON');
    for (const v of [1, 2, 3]) rows.push(v);
    expect(rows.flush()).toBe(false);
    // the timer's flush fails too, without an uncaught exception
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rows.size()).toBe(3);
    expect(storageOf(db).status()).toMatchObject({ ok: false, failing: true, queuedWrites: 3 });
    db.pragma('query_only = OFF');
    // the storage's back-off timer writes them, with no further push or flush
    await vi.waitFor(() => expect(count()).toBe(3), { timeout: 3000 });
    expect(storageOf(db).status()).toMatchObject({ ok: true, queuedWrites: 0 });
  });

  it('waits out a write lock held by another connection', async () => {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 20');
    const rows = buffer({ maxRows: 100, maxDelayMs: 10 });
    const other = new Database(join(dir, 'db.sqlite'));
    other.exec('BEGIN EXCLUSIVE');
    rows.push(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(rows.size()).toBe(1);
    other.exec('COMMIT');
    other.close();
    await vi.waitFor(() => expect(count()).toBe(1), { timeout: 3000 });
  });

  it('bounds the queue: the oldest rows are dropped, counted and reported', () => {
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const rows = createWriteBuffer<number>(db, (v) => insert.run(v), {
      maxRows: 1000,
      maxDelayMs: 60_000,
      maxQueued: 2,
    });
    db.pragma('query_only = ON');
    rows.push(1);
    rows.flush();
    rows.push(2);
    rows.push(3);
    expect(rows.size()).toBe(2);
    expect(storageOf(db).status().droppedRows).toBe(1);
    db.pragma('query_only = OFF');
  });

  it('drops (and reports) a row that can never be written, and writes the others', () => {
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const rows = createWriteBuffer<number>(
      db,
      (v) => {
        if (v === 2) throw new Error('a bug');
        insert.run(v);
      },
      { maxRows: 100, maxDelayMs: 60_000 },
    );
    for (const v of [1, 2, 3]) rows.push(v);
    expect(rows.flush()).toBe(true);
    expect(count()).toBe(2);
    expect(storageOf(db).status().droppedRows).toBe(1);
  });

  it('does nothing once the database is closed', () => {
    const rows = buffer({ maxRows: 100, maxDelayMs: 60_000 });
    rows.push(1);
    db.close();
    expect(() => rows.flush()).not.toThrow();
  });
});

describe('createSqlWriteBuffer', () => {
  let dir: string;
  let db: Database.Database;
  const count = () => (db.prepare('SELECT COUNT(*) AS n FROM t').get() as { n: number }).n;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sql-write-buffer-'));
    db = new Database(join(dir, 'db.sqlite'));
    db.exec('CREATE TABLE t (v INTEGER)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on SQLite: keeps rows the file refuses, in order, and writes them after the back-off', async () => {
    const sql = createSqliteEngine(db);
    const rows = createSqlWriteBuffer<number>(
      sql,
      db,
      (batch) =>
        sql.transaction(async (tx) => {
          for (const v of batch) await tx.run('INSERT INTO t (v) VALUES (?)', [v]);
        }),
      { maxRows: 100, maxDelayMs: 10 },
    );
    db.pragma('query_only = ON');
    for (const v of [1, 2, 3]) rows.push(v);
    await expect(rows.flush()).resolves.toBe(false);
    expect(storageOf(db).status()).toMatchObject({ failing: true, queuedWrites: 3 });
    db.pragma('query_only = OFF');
    await vi.waitFor(() => expect(count()).toBe(3), { timeout: 3000 });
    const order = db.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: number }[];
    expect(order.map((line) => line.v)).toEqual([1, 2, 3]);
  });

  it('without the proxy file (its own back-off): a write that succeeds ends the back-off', async () => {
    const sql = createSqliteEngine(db);
    const rows = createSqlWriteBuffer<number>(
      sql,
      undefined,
      (batch) =>
        sql.transaction(async (tx) => {
          for (const v of batch) await tx.run('INSERT INTO t (v) VALUES (?)', [v]);
        }),
      { maxRows: 100, maxDelayMs: 10 },
    );
    db.pragma('query_only = ON');
    rows.push(1);
    await expect(rows.flush()).resolves.toBe(false);
    db.pragma('query_only = OFF');
    // written before the back-off (250 ms) has passed: the next rows are batched as usual again
    await expect(rows.flush()).resolves.toBe(true);
    rows.push(2);
    await vi.waitFor(() => expect(count()).toBe(2), { timeout: 150, interval: 10 });
  });

  it('on a PostgreSQL that cannot be reached: keeps the rows, never rejects, retries by itself', async () => {
    const down = createPostgresEngine('postgres://nobody@127.0.0.1:1/none');
    let attempts = 0;
    const rows = createSqlWriteBuffer<number>(
      down,
      undefined,
      async (batch) => {
        try {
          await down.run('INSERT INTO t (v) VALUES (?)', [batch[0] ?? 0]);
        } finally {
          // counted once the attempt has failed: while it runs, its rows are out of the queue
          attempts += 1;
        }
      },
      { maxRows: 100, maxDelayMs: 10 },
    );
    try {
      rows.push(1);
      rows.push(2);
      await expect(rows.flush()).resolves.toBe(false);
      expect(rows.size()).toBe(2);
      // the back-off timer tries again without another push or flush
      const before = attempts;
      await vi.waitFor(() => expect(attempts).toBeGreaterThan(before), { timeout: 3000 });
      expect(rows.size()).toBe(2);
    } finally {
      await down.close();
    }
  });
});
