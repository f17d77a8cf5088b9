import type Database from 'better-sqlite3';
import type { AuditLog } from '../context.ts';
import { normaliseDot } from './pricing.ts';
import { createWriteBuffer } from './write-buffer.ts';

export interface AuditQuery {
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
  query(filter: AuditQuery): AuditPage;
  /** Write buffered entries now (reads flush first; the app flushes before closing the database). */
  flush(): void;
}

interface AuditRow {
  id: number;
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

const WHERE = `WHERE (@user IS NULL OR user = @user) AND (@dot IS NULL OR dot = @dot)`;

export function createAuditTrail(db: Database.Database): AuditTrail {
  const insert = db.prepare(
    `INSERT INTO audit_log
       (at, user, method, endpoint, search_key, search_value, dot, cache_hit, billable, status)
     VALUES (@at, @user, @method, @endpoint, @searchKey, @searchValue, @dot, @cacheHit, @billable,
       @status)`,
  );
  const count = db.prepare<[Filter], { n: number }>(`SELECT COUNT(*) AS n FROM audit_log ${WHERE}`);
  const page = db.prepare<[Filter & { limit: number; offset: number }], AuditRow>(
    `SELECT * FROM audit_log ${WHERE} ORDER BY at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  // Rows are queued and written in batches: an audit write never holds up the request it records.
  const rows = createWriteBuffer<Parameters<typeof insert.run>[0]>(db, (row) => insert.run(row));
  return {
    flush: rows.flush,
    record(entry) {
      rows.push({
        at: entry.at.toISOString(),
        user: entry.user,
        method: entry.method,
        endpoint: entry.endpoint,
        searchKey: entry.searchKey ?? null,
        searchValue: entry.searchValue ?? null,
        dot: entry.dot === undefined ? null : normaliseDot(entry.dot),
        cacheHit: entry.cacheHit ? 1 : 0,
        billable: entry.billable ? 1 : 0,
        status: entry.status,
      });
    },
    query(filter) {
      rows.flush();
      const dot = filter.dot === undefined ? null : normaliseDot(filter.dot);
      const where: Filter = { user: filter.user ?? null, dot };
      const offset = (filter.page - 1) * filter.pageSize;
      return {
        items: page.all({ ...where, limit: filter.pageSize, offset }).map(toItem),
        total_count: count.get(where)?.n ?? 0,
        page: filter.page,
        pageSize: filter.pageSize,
      };
    },
  };
}

interface Filter {
  user: string | null;
  dot: string | null;
}

function toItem(row: AuditRow): AuditItem {
  return {
    id: row.id,
    at: row.at,
    user: row.user,
    method: row.method,
    endpoint: row.endpoint,
    searchKey: row.search_key,
    searchValue: row.search_value,
    dot: row.dot,
    cacheHit: row.cache_hit === 1,
    billable: row.billable === 1,
    status: row.status,
  };
}
