import type Database from 'better-sqlite3';
import { storageOf } from '../storage.ts';
import type { SqlEngine } from './engine.ts';

/**
 * How a store's writes meet a refusing database: a 503 storage_unavailable. PostgreSQL's engine throws
 * that itself. On SQLite the proxy file's Storage checks the file and its back-off before the
 * write, and turns SQLite's refusal (lock, read-only, I/O) into the same 503 when the write fails.
 */
export function guardWrites(sql: SqlEngine, db: Database.Database) {
  if (sql.kind !== 'sqlite') return <T>(fn: () => Promise<T>): Promise<T> => fn();
  const storage = storageOf(db);
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    const pending = storage.write(fn);
    try {
      return await pending;
    } catch (err) {
      // rethrown through Storage: a storage failure is noted (back-off) and becomes a 503
      return storage.write(() => {
        throw err;
      });
    }
  };
}
