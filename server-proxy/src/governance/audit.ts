/**
 * The audit log: one row per mirrored call and sign-in event (`audit_log`), read newest first,
 * filtered by user or DOT. Written once over SqlEngine: the proxy's SQLite file by default,
 * PostgreSQL with DATABASE_URL (migration 6), so every replica writes to and reads one log.
 *
 * Rows are queued and written in batches: an audit write never holds up the request it records.
 * On SQLite the batch is written synchronously, through the file's Storage guard, as before (a
 * flush has written the rows when it returns); on PostgreSQL asynchronously (when its promise
 * resolves), kept and retried while the database refuses them.
 */
import type Database from 'better-sqlite3';
import type { AuditLog } from '../context.ts';
import type { SqlEngine, SqlParam } from '../sql/engine.ts';
import { insertRows } from '../sql/insert-rows.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { normaliseDot } from './pricing.ts';
import { createSqlWriteBuffer, createWriteBuffer } from './write-buffer.ts';
import { placeholders } from '../sql/placeholders.ts';

interface AuditQuery {
  user?: string;
  dot?: string;
  page: number;
  pageSize: number;
}

interface AuditItem {
  id: number;
  at: string;
  user: string;
  method: string;
  endpoint: string;
  searchKey: string | null;
  searchValue: string | null;
  dot: string | null;
  cacheHit: boolean;
  billable: boolean;
  status: number;
}

interface AuditPage {
  items: AuditItem[];
  total_count: number;
  page: number;
  pageSize: number;
}

/** The audit log plus its paginated, filtered read side (newest first). */
export interface AuditTrail extends AuditLog {
  query(filter: AuditQuery): Promise<AuditPage>;
  /**
   * Write buffered entries now (reads flush first; the app flushes before closing the database).
   * On SQLite they are written when this returns; on PostgreSQL when the promise resolves. Never
   * rejects: rows the database refuses stay queued and are retried.
   */
  flush(): Promise<void>;
}

interface AuditRow {
  id: number | string;
  at: string;
  user: string;
  method: string;
  endpoint: string;
  search_key: string | null;
  search_value: string | null;
  dot: string | null;
  cache_hit: number;
  billable: number;
  status: number;
}

/** The values of one row, in INSERT's order. */
type AuditValues = [
  at: string,
  user: string,
  method: string,
  endpoint: string,
  searchKey: string | null,
  searchValue: string | null,
  dot: string | null,
  cacheHit: number,
  billable: number,
  status: number,
];

const AUDIT_COLUMNS = [
  'at',
  '"user"',
  'method',
  'endpoint',
  'search_key',
  'search_value',
  'dot',
  'cache_hit',
  'billable',
  'status',
];
const INSERT = `INSERT INTO audit_log (${AUDIT_COLUMNS.join(', ')})
  VALUES (${placeholders(AUDIT_COLUMNS.length)})`;
// CAST: PostgreSQL must know a parameter's type to compare it with NULL.
const WHERE = `WHERE (CAST(? AS TEXT) IS NULL OR "user" = ?)
  AND (CAST(? AS TEXT) IS NULL OR dot = ?)`;
const COUNT = `SELECT COUNT(*) AS n FROM audit_log ${WHERE}`;
const PAGE = `SELECT id, at, "user" AS "user", method, endpoint, search_key, search_value, dot,
    cache_hit, billable, status
  FROM audit_log ${WHERE} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`;

/**
 * `sql`: the engine the log lives in (PostgreSQL with DATABASE_URL); absent, the SQLite file `db`.
 */
export function createAuditTrail(db: Database.Database, sql?: SqlEngine): AuditTrail {
  const engine = sql ?? createSqliteEngine(db);
  const rows = auditBuffer(db, engine);
  const flush = async () => {
    await rows.flush();
  };
  return {
    flush,
    record(entry) {
      rows.push([
        entry.at.toISOString(),
        entry.user,
        entry.method,
        entry.endpoint,
        entry.searchKey ?? null,
        entry.searchValue ?? null,
        entry.dot === undefined ? null : normaliseDot(entry.dot),
        entry.cacheHit ? 1 : 0,
        entry.billable ? 1 : 0,
        entry.status,
      ]);
    },
    async query(filter) {
      await flush();
      const user = filter.user ?? null;
      const dot = filter.dot === undefined ? null : normaliseDot(filter.dot);
      const where = [user, user, dot, dot];
      const offset = (filter.page - 1) * filter.pageSize;
      const [counted] = await engine.query<{ n: unknown }>(COUNT, where);
      const items = await engine.query<AuditRow>(PAGE, [...where, filter.pageSize, offset]);
      return {
        items: items.map(toItem),
        total_count: Number(counted?.n ?? 0),
        page: filter.page,
        pageSize: filter.pageSize,
      };
    },
  };
}

/**
 * The batches: on SQLite written synchronously through the file's Storage (as every other write
 * to the file), elsewhere through the engine.
 */
function auditBuffer(db: Database.Database, engine: SqlEngine) {
  if (engine.kind === 'sqlite') {
    const insert = db.prepare<SqlParam[]>(INSERT);
    return createWriteBuffer<AuditValues>(db, (values) => insert.run(...values), {
      name: 'audit rows',
    });
  }
  return createSqlWriteBuffer<AuditValues>(
    engine,
    db,
    (batch) => engine.transaction((tx) => insertRows(tx, 'audit_log', AUDIT_COLUMNS, batch)),
    { name: 'audit rows' },
  );
}

function toItem(row: AuditRow): AuditItem {
  return {
    id: Number(row.id),
    at: row.at,
    user: row.user,
    method: row.method,
    endpoint: row.endpoint,
    searchKey: row.search_key,
    searchValue: row.search_value,
    dot: row.dot,
    cacheHit: Number(row.cache_hit) === 1,
    billable: Number(row.billable) === 1,
    status: Number(row.status),
  };
}
