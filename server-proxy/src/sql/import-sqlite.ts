/**
 * Import a single proxy's SQLite file (`DATA_DIR/proxy.sqlite`) into the PostgreSQL database of a
 * team deployment (`DATABASE_URL`), so moving to several replicas keeps the team's state: triage,
 * decision records (verbatim, so their hash chain still verifies), policy versions, the spend
 * ledger (the month's budget and "billed this month" quotes), audit, alerts and bulk jobs.
 *
 * Not copied: `sessions` (switching signs everyone out, as before), `lease` (which process runs a
 * piece of background work now: runtime state of the single proxy) and `schema_change`.
 *
 * The SQLite file is opened read-only and must be at the schema this code knows (db.ts). Every
 * imported table must be empty in PostgreSQL; the copy is one transaction, so a refusal or an error
 * leaves PostgreSQL as it was. Ids are kept, and each identity column's sequence is moved past the
 * largest id copied, so rows written afterwards get fresh ids.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { schemaState } from '../db.ts';
import { createVettingSqlStore } from '../vetting/store.ts';
import type { SqlEngine, SqlExecutor, SqlParam } from './engine.ts';
import { migratePostgres } from './migrate.ts';
import { IMPORTED_TABLES } from './schema.ts';
import { tuples } from './placeholders.ts';
import { createPostgresEngine } from './postgres.ts';
import { createSqliteEngine } from './sqlite.ts';

/**
 * The tables copied (parents before children, the decision records first, so a failure in any
 * later table shows the whole copy is undone) and those left behind with the reason: both from the
 * one definition of the tables (schema.ts).
 */
export { IMPORTED_TABLES, NOT_IMPORTED } from './schema.ts';

/** Bound parameters per INSERT statement: well under PostgreSQL's 65,535. */
const PARAMS_PER_STATEMENT = 30_000;
/** Rows per INSERT statement at most. */
const MAX_ROWS_PER_STATEMENT = 500;

/** An expected reason not to import: printed as one line, without a stack trace. */
export class ImportRefusal extends Error {
  override name = 'ImportRefusal';
}

interface TableCount {
  table: string;
  rows: number;
}

interface ChainCheck {
  ok: boolean;
  count: number;
  first_bad_id?: number;
  problem?: string;
}

export interface ImportReport {
  dryRun: boolean;
  /** rows copied (or, in a dry run, that would be), per table in copy order */
  tables: TableCount[];
  total: number;
  /**
   * The decision chain as verified by the vetting store: on PostgreSQL after the copy, on the
   * SQLite file in a dry run. A broken chain is copied verbatim and reported, not refused.
   */
  chain: ChainCheck;
}

export interface ImportOptions {
  dryRun?: boolean;
}

interface SqliteColumn {
  name: string;
  pk: number;
}

interface PostgresColumn {
  column_name: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  is_identity: 'YES' | 'NO';
}

/** A double-quoted identifier (the names here come from the two schemas, never from input). */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Open `file` read-only and check it is a proxy database at the schema this code knows. */
function openSource(file: string): Database.Database {
  if (!existsSync(file)) throw new ImportRefusal(`no file at ${file}`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new ImportRefusal(`cannot open ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const tables = new Set(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    );
    if (!tables.has('spend_ledger')) {
      throw new ImportRefusal(`${file} is not a carrier-desk proxy database`);
    }
    const { pending, unknown } = schemaState(db);
    if (unknown.length > 0) {
      throw new ImportRefusal(
        `${file} has schema changes this code does not know (${unknown.join(', ')}): import with the carrier-desk version that wrote it`,
      );
    }
    if (pending.length > 0) {
      throw new ImportRefusal(
        `${file} lacks ${pending.length} schema change(s) this code expects (${pending.join(', ')}): start the proxy once on this file without DATABASE_URL so it is brought up to date, then import`,
      );
    }
    const missing = IMPORTED_TABLES.filter((table) => !tables.has(table));
    if (missing.length > 0) {
      throw new ImportRefusal(`${file} lacks the table(s) ${missing.join(', ')}`);
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof ImportRefusal) throw err;
    // e.g. SQLITE_NOTADB: "file is not a database"
    throw new ImportRefusal(`${file} is not a SQLite database (${(err as Error).message})`, {
      cause: err,
    });
  }
}

interface TablePlan {
  table: string;
  columns: string[];
  /** columns PostgreSQL generates (identity): inserted with OVERRIDING SYSTEM VALUE */
  identity: string[];
  orderBy: string;
  rows: number;
  /** the largest id SQLite ever handed out (sqlite_sequence: AUTOINCREMENT never reuses one) */
  lastIssued: number;
}

/** Which columns of `table` to copy: those both engines have. Refuses what cannot be filled. */
async function planTable(
  source: Database.Database,
  target: SqlExecutor,
  table: string,
): Promise<TablePlan> {
  const sqliteColumns = source
    .prepare<[], SqliteColumn>(`PRAGMA table_info(${quoted(table)})`)
    .all();
  const pgColumns = await target.query<PostgresColumn>(
    `SELECT column_name, is_nullable, column_default, is_identity
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ?
      ORDER BY ordinal_position`,
    [table],
  );
  if (pgColumns.length === 0) {
    throw new ImportRefusal(`PostgreSQL has no table ${table} after its migrations`);
  }
  const inSqlite = new Set(sqliteColumns.map((column) => column.name));
  const unfilled = pgColumns.filter(
    (column) =>
      !inSqlite.has(column.column_name) &&
      column.is_nullable === 'NO' &&
      column.column_default === null &&
      column.is_identity !== 'YES',
  );
  if (unfilled.length > 0) {
    throw new ImportRefusal(
      `PostgreSQL's ${table} requires column(s) ${unfilled.map((c) => c.column_name).join(', ')} that the SQLite file does not have`,
    );
  }
  const columns = pgColumns.map((c) => c.column_name).filter((name) => inSqlite.has(name));
  const identity = pgColumns
    .filter((c) => c.is_identity === 'YES' && inSqlite.has(c.column_name))
    .map((c) => c.column_name);
  const keys = sqliteColumns
    .filter((column) => column.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((column) => quoted(column.name));
  const orderBy = keys.length > 0 ? keys.join(', ') : 'rowid';
  const counted = source
    .prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ${quoted(table)}`)
    .get();
  const issued = source
    .prepare<[string], { seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?')
    .get(table);
  return {
    table,
    columns,
    identity,
    orderBy,
    rows: Number(counted?.n ?? 0),
    lastIssued: Number(issued?.seq ?? 0),
  };
}

/** A SQLite value as a parameter for PostgreSQL. */
function param(value: unknown, table: string, column: string): SqlParam {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  throw new ImportRefusal(`${table}.${column} holds a value PostgreSQL's column cannot take`);
}

/**
 * Copy one table's rows, then move its identity sequences past every id SQLite issued (as
 * AUTOINCREMENT would have: an id is never handed out twice), so rows written afterwards get fresh
 * ids.
 */
async function copyTable(
  source: Database.Database,
  tx: SqlExecutor,
  plan: TablePlan,
): Promise<void> {
  if (plan.rows > 0) await copyRows(source, tx, plan);
  for (const column of plan.identity) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence(?, ?), top)
         FROM (SELECT GREATEST(CAST(? AS BIGINT), MAX(${quoted(column)})) AS top
                 FROM ${quoted(plan.table)}) AS issued
        WHERE top > 0`,
      [plan.table, column, plan.lastIssued],
    );
  }
}

/** Insert the rows in batches, read in primary-key order from the file. */
async function copyRows(source: Database.Database, tx: SqlExecutor, plan: TablePlan) {
  const names = plan.columns.map(quoted);
  const overriding = plan.identity.length > 0 ? ' OVERRIDING SYSTEM VALUE' : '';
  const perStatement = Math.max(
    1,
    Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(PARAMS_PER_STATEMENT / names.length)),
  );
  const insert = async (batch: SqlParam[][]) => {
    await tx.run(
      `INSERT INTO ${quoted(plan.table)} (${names.join(', ')})${overriding}
       VALUES ${tuples(batch.length, names.length)}`,
      batch.flat(),
    );
  };
  const select = source.prepare<[], Record<string, unknown>>(
    `SELECT ${names.join(', ')} FROM ${quoted(plan.table)} ORDER BY ${plan.orderBy}`,
  );
  let batch: SqlParam[][] = [];
  // The iterator keeps the statement open between batches; leaving the loop (an error) closes it.
  for (const row of select.iterate()) {
    batch.push(plan.columns.map((column) => param(row[column], plan.table, column)));
    if (batch.length === perStatement) {
      await insert(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await insert(batch);
}

/** The imported tables that already hold rows in PostgreSQL. */
async function occupied(tx: SqlExecutor): Promise<TableCount[]> {
  const found: TableCount[] = [];
  for (const table of IMPORTED_TABLES) {
    const [row] = await tx.query<{ n: string | number }>(
      `SELECT COUNT(*) AS n FROM ${quoted(table)}`,
    );
    const rows = Number(row?.n ?? 0);
    if (rows > 0) found.push({ table, rows });
  }
  return found;
}

type PostgresTarget = SqlEngine & { pool: pg.Pool };

/**
 * Copy the team's state from the SQLite proxy file at `sqlitePath` into PostgreSQL (`target`: a
 * URL, whose engine is closed afterwards, or an engine from createPostgresEngine, left open).
 * Throws an ImportRefusal for an expected refusal (the file, a non-empty target); any other error
 * (a row PostgreSQL refuses) rolls the whole copy back and is rethrown.
 */
export async function importSqlite(
  sqlitePath: string,
  target: string | PostgresTarget,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const dryRun = options.dryRun === true;
  const source = openSource(sqlitePath);
  const engine = typeof target === 'string' ? createPostgresEngine(target) : target;
  try {
    try {
      await migratePostgres(engine.pool);
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      const detail = [typeof code === 'string' ? code : '', (err as Error).message]
        .filter(Boolean)
        .join(': ');
      throw new ImportRefusal(
        `DATABASE_URL: cannot connect to PostgreSQL or bring its schema up to date (${detail})`,
        { cause: err },
      );
    }
    // One read transaction: every table is read from the same snapshot of the file.
    source.exec('BEGIN');
    const plans: TablePlan[] = [];
    for (const table of IMPORTED_TABLES) plans.push(await planTable(source, engine, table));
    const tables = plans.map(({ table, rows }) => ({ table, rows }));
    const total = tables.reduce((sum, t) => sum + t.rows, 0);
    const full = await occupied(engine);
    if (full.length > 0) {
      throw new ImportRefusal(
        `PostgreSQL already holds rows in ${full.map((t) => `${t.table} (${t.rows})`).join(', ')}: the import needs them empty, nothing was copied`,
      );
    }
    if (dryRun) {
      const chain = await createVettingSqlStore(createSqliteEngine(source)).verifyChain();
      return { dryRun, tables, total, chain };
    }
    await engine.transaction(async (tx) => {
      // Writers that start meanwhile (a replica started too early) wait for the copy to end.
      await tx.run(`LOCK TABLE ${IMPORTED_TABLES.map(quoted).join(', ')} IN EXCLUSIVE MODE`);
      const late = await occupied(tx);
      if (late.length > 0) {
        throw new ImportRefusal(
          `PostgreSQL already holds rows in ${late.map((t) => `${t.table} (${t.rows})`).join(', ')}: the import needs them empty, nothing was copied`,
        );
      }
      for (const plan of plans) await copyTable(source, tx, plan);
    });
    const chain = await createVettingSqlStore(engine).verifyChain();
    return { dryRun, tables, total, chain };
  } finally {
    if (source.inTransaction) source.exec('ROLLBACK');
    source.close();
    if (typeof target === 'string') await engine.close();
  }
}
