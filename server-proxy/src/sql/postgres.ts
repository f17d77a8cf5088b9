/**
 * SqlEngine over a `pg` Pool (DATABASE_URL). Failures of the database itself (it cannot be
 * reached, the connection broke, it is shutting down) become a 503 `storage_unavailable`
 * ProxyError, so a request that needs it is answered, never a 500; errors of a statement (a
 * constraint, a syntax error) are passed on as they are.
 */
import pg from 'pg';
import { ProxyError } from '../errors.ts';
import type { SqlEngine, SqlExecutor, SqlParam } from './engine.ts';
import { migratePostgres } from './migrate.ts';

/** How long to wait for a connection before giving up (PostgreSQL down or out of connections). */
const CONNECT_TIMEOUT_MS = 5000;
/** The longest one statement may take (client side) before the request gets its 503. */
const QUERY_TIMEOUT_MS = 10_000;

/** `?` placeholders numbered `$1, $2, …`, skipping quoted strings, quoted names and comments. */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql.charAt(i);
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '-' && sql.charAt(i + 1) === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (ch === '?') {
      n += 1;
      out += `$${n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Is `err` the database being unavailable, rather than a statement's own fault? SQLSTATE classes
 * 08 (connection), 53 (insufficient resources) and 57P (shut down); an error without a SQLSTATE
 * comes from the connection (refused, reset, timed out, terminated).
 */
function isUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    return code.startsWith('08') || code.startsWith('53') || code.startsWith('57P');
  }
  return true;
}

function unavailable(err: unknown): ProxyError {
  const code = (err as { code?: unknown } | null)?.code;
  const reason = typeof code === 'string' ? code : 'no connection';
  return new ProxyError(
    503,
    'storage_unavailable',
    `The proxy cannot reach its PostgreSQL database (${reason})`,
    'Try again in a moment. If it lasts, the administrator must check DATABASE_URL and the database (see /readyz).',
    { 'retry-after': '5' },
  );
}

/** The error to throw for a failed statement: a 503 ProxyError when the database is unavailable. */
function translate(err: unknown): Error {
  if (err instanceof ProxyError) return err;
  if (isUnavailable(err)) return unavailable(err);
  return err instanceof Error ? err : new Error(String(err));
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

function executorOn(target: Queryable): SqlExecutor {
  return {
    async query<T extends object>(sql: string, params: readonly SqlParam[] = []) {
      try {
        const result = await target.query(numberPlaceholders(sql), [...params]);
        return result.rows as T[];
      } catch (err) {
        throw translate(err);
      }
    },
    async run(sql, params = []) {
      try {
        const result = await target.query(numberPlaceholders(sql), [...params]);
        return { changes: result.rowCount ?? 0 };
      } catch (err) {
        throw translate(err);
      }
    },
  };
}

export interface PostgresLog {
  warn(obj: object, msg: string): void;
}

/** A pool on `url`; nothing is connected until the first statement. */
export function createPostgresEngine(
  url: string,
  log?: PostgresLog,
): SqlEngine & { pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    max: 10,
  });
  // An idle connection that breaks (PostgreSQL restarted) must not crash the process: the pool
  // drops it, and the next statement opens a new one.
  pool.on('error', (err) => {
    log?.warn({ code: (err as { code?: unknown }).code }, 'postgres: an idle connection failed');
  });
  let closed = false;
  return {
    kind: 'postgres',
    pool,
    ...executorOn(pool),
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw translate(err);
      }
      // A connection that breaks while checked out (PostgreSQL stopped mid-transaction) emits
      // 'error' on the client, not the pool: without a listener that would crash the process.
      // The statement in flight rejects as well, and that is what the caller sees.
      const onError = (err: Error) => {
        log?.warn(
          { code: (err as { code?: unknown }).code },
          'postgres: a connection failed during a transaction',
        );
      };
      client.on('error', onError);
      const tx = executorOn(client);
      let broken: Error | undefined;
      try {
        await tx.run('BEGIN');
        const value = await fn(tx);
        await tx.run('COMMIT');
        return value;
      } catch (err) {
        // the error of `fn` is rethrown as it is; the executor has translated the database's
        await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
          broken = rollbackErr as Error;
        });
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
      } catch (err) {
        throw translate(err);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Connect to DATABASE_URL and bring its schema up to date (several replicas may do this at
 * once: see migrate.ts). Throws an Error that names the cause but never the URL (it may hold a
 * password) when PostgreSQL cannot be reached or a migration fails.
 */
export async function openPostgres(url: string, log?: PostgresLog): Promise<SqlEngine> {
  const engine = createPostgresEngine(url, log);
  try {
    await migratePostgres(engine.pool);
    return engine;
  } catch (err) {
    await engine.close().catch(() => undefined);
    const code = (err as { code?: unknown } | null)?.code;
    const message = err instanceof Error ? err.message : String(err);
    const detail =
      typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
    throw new Error(
      `DATABASE_URL: cannot connect to PostgreSQL or bring its schema up to date (${detail}). Check that the database is running and that DATABASE_URL names it, with its user and password.`,
      { cause: err },
    );
  }
}
