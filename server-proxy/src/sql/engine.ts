/**
 * The proxy's SQL layer: one small async interface that SQLite (better-sqlite3, the default) and
 * PostgreSQL (`pg`, with DATABASE_URL) both implement, so a store is written once.
 *
 * SQL is written once, in the subset both dialects share: `?` placeholders (the PostgreSQL engine
 * numbers them `$1, $2, …`), TEXT columns, timestamps as ISO-8601 text, identifiers that are
 * reserved words in PostgreSQL double-quoted (`"user"`, which SQLite reads the same way). Counts
 * come back as numbers from SQLite and as strings from PostgreSQL (bigint): wrap them in Number().
 */

/** A value bound to a `?` placeholder. */
export type SqlParam = string | number | null;

/** Statements run on the engine, or inside one of its transactions. */
export interface SqlExecutor {
  /** Rows of a statement that returns rows. */
  query<T extends object>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** A statement that changes rows; how many it changed. */
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
}

export interface SqlEngine extends SqlExecutor {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Run `fn` in one transaction: committed when it resolves, rolled back when it throws (the error
   * is rethrown). Statements of the transaction must go through `tx`, and `fn` should await
   * nothing but them (with SQLite, the one connection is the transaction while it is open).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
