/**
 * SqlEngine over a better-sqlite3 Database: synchronous underneath, each statement prepared once
 * (cached by its SQL text) and run at once; the promises only carry the results.
 */
import type Database from 'better-sqlite3';
import type { SqlEngine, SqlExecutor, SqlParam } from './engine.ts';

/** Statements kept prepared at most; beyond this the cache starts again (SQL built at run time). */
const MAX_CACHED_STATEMENTS = 500;

export interface SqliteEngineOptions {
  /** close() closes the database too (default false: its opener closes it) */
  ownsDatabase?: boolean;
}

export function createSqliteEngine(
  db: Database.Database,
  options: SqliteEngineOptions = {},
): SqlEngine {
  const statements = new Map<string, Database.Statement<SqlParam[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
      statement = db.prepare<SqlParam[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const executor: SqlExecutor = {
    query<T extends object>(sql: string, params: readonly SqlParam[] = []) {
      try {
        return Promise.resolve(prepared(sql).all(...params) as T[]);
      } catch (err) {
        return Promise.reject(err as Error);
      }
    },
    run(sql, params = []) {
      try {
        return Promise.resolve({ changes: prepared(sql).run(...params).changes });
      } catch (err) {
        return Promise.reject(err as Error);
      }
    },
  };
  // One connection: transactions take turns (a second waits for the first to end).
  let turn: Promise<unknown> = Promise.resolve();
  return {
    kind: 'sqlite',
    ...executor,
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const result = turn.then(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const value = await fn(executor);
          db.exec('COMMIT');
          return value;
        } catch (err) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw err;
        }
      });
      turn = result.catch(() => undefined);
      return result;
    },
    async ping() {
      db.prepare('SELECT 1').get();
    },
    async close() {
      statements.clear();
      if (options.ownsDatabase === true && db.open) db.close();
    },
  };
}
