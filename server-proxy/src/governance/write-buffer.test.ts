import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteBuffer } from './write-buffer.ts';

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

  it('does nothing once the database is closed', () => {
    const rows = buffer({ maxRows: 100, maxDelayMs: 60_000 });
    rows.push(1);
    db.close();
    expect(() => rows.flush()).not.toThrow();
  });
});
