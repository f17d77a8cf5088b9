import type Database from 'better-sqlite3';
import type { SqlEngine } from '../sql/engine.ts';
import { guardWrites } from '../sql/write-guard.ts';
import { isStorageFailure, storageOf } from '../storage.ts';
import { WriteBackoff } from '../write-backoff.ts';

export interface WriteBuffer<T> {
  /** Queue one row; written within `maxDelayMs`, or at once when `maxRows` are queued. Never throws. */
  push(row: T): void;
  /**
   * Write every queued row now, in one transaction (before reads, and before the database closes).
   * Never throws: when the database refuses the write, the rows stay queued and are retried with
   * back-off (see storage.ts). Returns true when nothing is left queued.
   */
  flush(): boolean;
  /** rows waiting */
  size(): number;
}

export interface WriteBufferOptions {
  maxRows?: number;
  maxDelayMs?: number;
  /**
   * Most rows kept while the database refuses writes. Past it the oldest rows are dropped, and
   * every drop is logged and counted on /readyz: memory stays bounded, and no row is lost silently.
   */
  maxQueued?: number;
  /** what the rows are, for the log */
  name?: string;
}

/**
 * Batches small inserts (audit rows, free cache-hit ledger rows, ledger settlements) into one
 * SQLite transaction, so a request on the hot path queues a row instead of waiting for a
 * synchronous write of its own. A failed write (lock held past busy_timeout, read-only or deleted
 * file) never escapes: the rows are kept, /readyz reports the database failing, and the storage's
 * back-off timer writes them once the database takes writes again.
 */
export function createWriteBuffer<T>(
  db: Database.Database,
  write: (row: T) => void,
  {
    maxRows = 256,
    maxDelayMs = 100,
    maxQueued = 100_000,
    name = 'write buffer',
  }: WriteBufferOptions = {},
): WriteBuffer<T> {
  const storage = storageOf(db);
  let queued: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writeAll = db.transaction((rows: T[]) => {
    for (const row of rows) write(row);
  });

  /** One row at a time: a row that can never be written (a bug) must not hold back the others. */
  function writeOneByOne(rows: T[]): T[] {
    for (const [index, row] of rows.entries()) {
      try {
        storage.write(() => write(row));
      } catch (err) {
        if (isStorageFailure(err)) return rows.slice(index);
        storage.noteDropped(1, `${name} (row rejected: ${String(err)})`);
      }
    }
    return [];
  }

  function flush(): boolean {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued.length === 0) return true;
    if (!db.open) return false;
    const rows = queued;
    queued = [];
    let left: T[] = [];
    try {
      storage.write(() => writeAll(rows));
    } catch (err) {
      left = isStorageFailure(err) ? rows : writeOneByOne(rows);
    }
    // Rows pushed while writing (none today: the write is synchronous) go after the older ones.
    queued = left.concat(queued);
    return queued.length === 0;
  }

  function trim(): void {
    const excess = queued.length - maxQueued;
    if (excess <= 0) return;
    queued.splice(0, excess);
    storage.noteDropped(excess, name);
  }

  const buffer: WriteBuffer<T> = {
    push(row) {
      queued.push(row);
      trim();
      // While the database refuses writes, only the storage's back-off timer tries again: a
      // flush per push would wait busy_timeout on the event loop every time.
      if (!storage.writable) return;
      if (queued.length >= maxRows) flush();
      else timer ??= setTimeout(flush, maxDelayMs).unref();
    },
    flush,
    size: () => queued.length,
  };
  storage.addBacklog({ size: buffer.size, retry: () => void flush() });
  return buffer;
}

/** A WriteBuffer over SqlEngine: the same contract, with an asynchronous flush. */
export interface SqlWriteBuffer<T> {
  /** Queue one row; written within `maxDelayMs`, or at once when `maxRows` are queued. Never throws. */
  push(row: T): void;
  /** Write every queued row now; never rejects. Resolves true when nothing is left queued. */
  flush(): Promise<boolean>;
  size(): number;
}

/**
 * createWriteBuffer over SqlEngine: `writeAll` writes a batch (one transaction is best) and throws
 * when it cannot. On SQLite the proxy file's Storage checks and retries the writes, and counts the
 * queued rows on /readyz, as for createWriteBuffer; on PostgreSQL a refused batch is kept and
 * retried on a back-off of its own (the same WriteBackoff as Storage's, write-backoff.ts). A row the database rejects for itself (a bug) is dropped and
 * counted, so it cannot hold back the others. Flushes take turns: rows keep their order.
 */
export function createSqlWriteBuffer<T>(
  sql: SqlEngine,
  db: Database.Database | undefined,
  writeAll: (rows: T[]) => Promise<void>,
  {
    maxRows = 256,
    maxDelayMs = 100,
    maxQueued = 100_000,
    name = 'write buffer',
  }: WriteBufferOptions = {},
): SqlWriteBuffer<T> {
  const storage = db && storageOf(db);
  const guard = db ? guardWrites(sql, db) : <R>(fn: () => Promise<R>) => fn();
  // SQLite's Storage runs the back-off and retries; without it (PostgreSQL, or a bare engine in
  // tests) the buffer keeps its own.
  const onSqlite = sql.kind === 'sqlite' && storage !== undefined;
  let queued: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<boolean> = Promise.resolve(true);
  const backoff = new WriteBackoff(() => void flush());

  const writable = () => (onSqlite && storage ? storage.writable : backoff.writable);
  const dropped = (rows: number, what: string) => {
    if (storage) storage.noteDropped(rows, what);
    else console.error(`${what}: ${rows} rows dropped`);
  };

  function failed(): void {
    if (onSqlite) return; // Storage noted the failure and runs the retry timer
    // the batch timer gives way to the retry timer
    if (timer) clearTimeout(timer);
    timer = undefined;
    backoff.failed();
  }

  async function writeOneByOne(rows: T[]): Promise<T[]> {
    for (const [index, row] of rows.entries()) {
      try {
        await guard(() => writeAll([row]));
      } catch (err) {
        if (isStorageFailure(err)) return rows.slice(index);
        dropped(1, `${name} (row rejected: ${String(err)})`);
      }
    }
    return [];
  }

  async function flushNow(): Promise<boolean> {
    if (queued.length === 0) return true;
    if (db && !db.open && sql.kind === 'sqlite') return false;
    const rows = queued;
    queued = [];
    let left: T[] = [];
    try {
      await guard(() => writeAll(rows));
    } catch (err) {
      left = isStorageFailure(err) ? rows : await writeOneByOne(rows);
    }
    if (left.length > 0) failed();
    else if (!onSqlite) backoff.succeeded();
    // Rows pushed while writing go after the older ones.
    queued = left.concat(queued);
    return queued.length === 0;
  }

  function flush(): Promise<boolean> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const next = turn.then(flushNow).catch(() => false);
    turn = next;
    return next;
  }

  function trim(): void {
    const excess = queued.length - maxQueued;
    if (excess <= 0) return;
    queued.splice(0, excess);
    dropped(excess, name);
  }

  const buffer: SqlWriteBuffer<T> = {
    push(row) {
      queued.push(row);
      trim();
      // While the database refuses writes, only the back-off timer tries again.
      if (!writable()) return;
      if (queued.length >= maxRows) void flush();
      else timer ??= setTimeout(() => void flush(), maxDelayMs).unref();
    },
    flush,
    size: () => queued.length,
  };
  storage?.addBacklog({ size: buffer.size, retry: () => void flush() });
  return buffer;
}
