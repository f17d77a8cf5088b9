import type Database from 'better-sqlite3';

export interface WriteBuffer<T> {
  /** Queue one row; written within `maxDelayMs`, or at once when `maxRows` are queued. */
  push(row: T): void;
  /** Write every queued row now, in one transaction (before reads, and before the database closes). */
  flush(): void;
}

/**
 * Batches small inserts (audit rows, free cache-hit ledger rows) into one SQLite transaction, so a
 * request on the hot path queues a row instead of waiting for a synchronous write of its own.
 */
export function createWriteBuffer<T>(
  db: Database.Database,
  write: (row: T) => void,
  { maxRows = 256, maxDelayMs = 100 }: { maxRows?: number; maxDelayMs?: number } = {},
): WriteBuffer<T> {
  let queued: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writeAll = db.transaction((rows: T[]) => {
    for (const row of rows) write(row);
  });

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued.length === 0 || !db.open) return;
    const rows = queued;
    queued = [];
    writeAll(rows);
  }

  return {
    push(row) {
      queued.push(row);
      if (queued.length >= maxRows) flush();
      else timer ??= setTimeout(flush, maxDelayMs).unref();
    },
    flush,
  };
}
