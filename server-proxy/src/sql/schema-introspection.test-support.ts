/**
 * Tests: a database's schema as the DATABASE reports it — SQLite's sqlite_master and pragmas,
 * PostgreSQL's information_schema and pg_catalog — never from our own SQL text, and the
 * differences between the two engines' schemas (schema-parity.test.ts), or between two databases
 * of one engine (migrate-forward.test.ts compares a migrated old database with a fresh one).
 *
 * Compared across engines: tables, columns, types (through the accepted pairs below),
 * nullability, defaults, database-generated keys, primary and unique keys, indexes, foreign keys,
 * triggers and CHECK constraints (SQLite reports them only inside the CREATE TABLE text
 * sqlite_master keeps, with every ADD COLUMN written into it; PostgreSQL through pg_constraint).
 * Not compared across engines: column order, collations (PostgreSQL's `COLLATE "C"` is how a text
 * column gets SQLite's byte order) and SQLite's WITHOUT ROWID (a storage choice). Collations are
 * read, so two PostgreSQL databases can be compared on them.
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** Tables one engine has on purpose, and why. */
const ONE_ENGINE_ONLY: Readonly<Record<string, { engine: 'sqlite' | 'postgres'; why: string }>> = {
  sqlite_sequence: {
    engine: 'sqlite',
    why: "SQLite's own record of the last AUTOINCREMENT id per table (PostgreSQL: identity sequences)",
  },
};

/**
 * Accepted type pairs, SQLite's declared type → PostgreSQL's `data_type`. Both engines store
 * times, dates, JSON and ids of the service as TEXT (ISO-8601 text, compared as text), and flags
 * and counts as INTEGER.
 */
const TYPE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['TEXT', 'text'],
  ['INTEGER', 'integer'],
];

/**
 * Columns where SQLite's INTEGER (always 64-bit) is PostgreSQL's BIGINT rather than its 32-bit
 * INTEGER, and why. Any other BIGINT in PostgreSQL is a difference.
 */
const BIGINT_COLUMNS: Readonly<Record<string, string>> = {
  'spend_ledger.id': 'database-generated key (identity)',
  'audit_log.id': 'database-generated key (identity)',
  'vetting_decision.id': 'database-generated key (identity)',
  'vetting_standing_change.id': 'database-generated key (identity)',
  'vetting_standing_change.decision_id': 'refers to vetting_decision.id',
  'bulk_job.seq': 'database-generated key (identity)',
  'bulk_item.job_seq': 'refers to bulk_job.seq',
  'alert_subscription.id': 'database-generated key (identity)',
  'alert_delivery.seq': 'database-generated key (identity)',
  'alert_delivery.subscription_id': 'refers to alert_subscription.id',
  'api_token.id': 'database-generated key (identity)',
  'tender_check.id': 'database-generated key (identity)',
  'vetting_decision.tender_check_id': 'refers to tender_check.id',
  'lease.expires_ms': 'epoch milliseconds (past 2^31)',
};

/**
 * Differences that are deliberate, each exactly as the comparison words it, with the reason.
 * Anything the comparison finds that is not listed here fails the test.
 */
export const DELIBERATE: Readonly<Record<string, string>> = {
  'vetting_decision: trigger before truncate refuses: only in PostgreSQL':
    'SQLite has no TRUNCATE (a DELETE without WHERE fires its delete trigger)',
};

interface Column {
  type: string;
  notNull: boolean;
  default: string | null;
  /** the database hands out the value (SQLite AUTOINCREMENT, PostgreSQL identity) */
  generated: boolean;
  /** PostgreSQL's collation when not the database default (e.g. "C"); SQLite: null */
  collation: string | null;
}

interface Table {
  columns: Map<string, Column>;
  primaryKey: string[];
  /** unique keys other than the primary key: "(a, b)" plus " where …" when partial */
  unique: string[];
  /** other indexes, by name: "(a, b)" plus " where …" when partial */
  indexes: Map<string, string>;
  /** "(a) → other (b) on delete … on update …" */
  foreignKeys: string[];
  /** "before update refuses", … (one entry per timing and event) */
  triggers: string[];
  /** CHECK constraints, as normalised expressions */
  checks: string[];
}

export type Schema = Map<string, Table>;

/**
 * A default, index predicate or check as text both engines write alike: PostgreSQL's
 * `x = ANY (ARRAY[…])` as `x IN (…)`, no casts, brackets or identifier quotes, and everything but
 * string literals in lower case.
 */
function normalisedExpression(text: string): string {
  return text
    .replace(/=\s*ANY\s*\(\s*ARRAY\[([^\]]*)\]\s*\)/gi, 'IN ($1)')
    .replace(/::[a-z ]+/gi, '')
    .replace(/[()"]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .split(/('[^']*')/)
    .map((part, index) => (index % 2 === 1 ? part : part.toLowerCase()))
    .join('');
}

/** The expressions of the CHECK (…) clauses in SQLite's CREATE TABLE text. */
function sqliteChecks(createTable: string): string[] {
  const checks: string[] = [];
  for (const match of createTable.matchAll(/\bCHECK\s*\(/gi)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let at = start;
    let quoted = false;
    for (; at < createTable.length && depth > 0; at += 1) {
      const char = createTable[at];
      if (char === "'") quoted = !quoted;
      else if (!quoted && char === '(') depth += 1;
      else if (!quoted && char === ')') depth -= 1;
    }
    checks.push(normalisedExpression(createTable.slice(start, at - 1)));
  }
  return checks.sort();
}

const keyText = (columns: readonly string[], predicate?: string | null) =>
  `(${columns.join(', ')})${predicate ? ` where ${normalisedExpression(predicate)}` : ''}`;

/** What a trigger's body does: both engines' append-only triggers only raise an error. */
function purpose(body: string): string {
  return /RAISE\s*\(\s*ABORT|RAISE\s+EXCEPTION/i.test(body) ? 'refuses' : 'does something else';
}

/** SQLite's schema as the database reports it. */
export function readSqlite(db: Database.Database): Schema {
  const schema: Schema = new Map();
  const objects = db
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string | null }>(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%'",
    )
    .all();
  for (const { name, sql } of objects.filter((object) => object.type === 'table')) {
    const info = db
      .prepare<
        [],
        { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }
      >(`PRAGMA table_info("${name}")`)
      .all();
    const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*$/i.test(sql ?? '');
    const keyColumns = info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
    // SQLite lets a rowid table's primary key hold NULL unless it is the rowid (INTEGER PRIMARY
    // KEY) or declared NOT NULL; only the rowid can be AUTOINCREMENT.
    const rowidAlias =
      !withoutRowid && keyColumns.length === 1 && keyColumns[0]?.type.toUpperCase() === 'INTEGER'
        ? keyColumns[0].name
        : undefined;
    const columns = new Map<string, Column>();
    for (const column of info) {
      const isRowid = column.name === rowidAlias;
      columns.set(column.name, {
        type: column.type.toUpperCase(),
        notNull: column.notnull === 1 || isRowid || (withoutRowid && column.pk > 0),
        default: column.dflt_value === null ? null : normalisedExpression(column.dflt_value),
        generated: isRowid && /\bAUTOINCREMENT\b/i.test(sql ?? ''),
        collation: null,
      });
    }
    const unique: string[] = [];
    const indexes = new Map<string, string>();
    const indexList = db
      .prepare<[], { name: string; unique: number; origin: string; partial: number }>(
        `PRAGMA index_list("${name}")`,
      )
      .all();
    for (const index of indexList) {
      if (index.origin === 'pk') continue;
      const indexed = db
        .prepare<[], { seqno: number; name: string }>(`PRAGMA index_info("${index.name}")`)
        .all()
        .sort((a, b) => a.seqno - b.seqno)
        .map((column) => column.name);
      const created = objects.find((object) => object.name === index.name)?.sql ?? '';
      const predicate =
        index.partial === 1 ? (/\bWHERE\b([\s\S]*)$/i.exec(created)?.[1] ?? '?') : null;
      if (index.unique === 1) unique.push(keyText(indexed, predicate));
      else indexes.set(index.name, keyText(indexed, predicate));
    }
    const foreign = new Map<
      number,
      { table: string; from: string[]; to: string[]; rule: string }
    >();
    const fkRows = db
      .prepare<
        [],
        {
          id: number;
          seq: number;
          table: string;
          from: string;
          to: string;
          on_update: string;
          on_delete: string;
        }
      >(`PRAGMA foreign_key_list("${name}")`)
      .all()
      .sort((a, b) => a.id - b.id || a.seq - b.seq);
    for (const row of fkRows) {
      const key = foreign.get(row.id) ?? {
        table: row.table,
        from: [],
        to: [],
        rule: `on delete ${row.on_delete.toLowerCase()} on update ${row.on_update.toLowerCase()}`,
      };
      key.from.push(row.from);
      key.to.push(row.to);
      foreign.set(row.id, key);
    }
    schema.set(name, {
      columns,
      primaryKey: keyColumns.map((column) => column.name),
      unique: unique.sort(),
      indexes,
      foreignKeys: [...foreign.values()]
        .map((key) => `${keyText(key.from)} → ${key.table} ${keyText(key.to)} ${key.rule}`)
        .sort(),
      triggers: [],
      checks: sqliteChecks(sql ?? ''),
    });
  }
  for (const trigger of objects.filter((object) => object.type === 'trigger')) {
    const sql = trigger.sql ?? '';
    const head = /\b(BEFORE|AFTER|INSTEAD\s+OF)\s+(INSERT|UPDATE|DELETE)\b/i.exec(sql);
    const timing = (head?.[1] ?? 'after').toLowerCase().replace(/\s+/g, ' ');
    const event = (head?.[2] ?? 'insert').toLowerCase();
    schema.get(trigger.tbl_name)?.triggers.push(`${timing} ${event} ${purpose(sql)}`);
  }
  for (const table of schema.values()) table.triggers.sort();
  return schema;
}

/** PostgreSQL's schema (the public schema) as the database reports it. */
export async function readPostgres(client: pg.ClientBase): Promise<Schema> {
  const schema: Schema = new Map();
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const table = (name: string): Table => {
    const found = schema.get(name);
    if (found === undefined) throw new Error(`PostgreSQL reported an unknown table ${name}`);
    return found;
  };
  for (const { table_name: name } of tables.rows) {
    schema.set(name, {
      columns: new Map(),
      primaryKey: [],
      unique: [],
      indexes: new Map(),
      foreignKeys: [],
      triggers: [],
      checks: [],
    });
  }
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
    is_identity: 'YES' | 'NO';
    collation_name: string | null;
  }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity,
            collation_name
       FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  for (const column of columns.rows) {
    if (!schema.has(column.table_name)) continue; // a view's columns
    table(column.table_name).columns.set(column.column_name, {
      type: column.data_type,
      notNull: column.is_nullable === 'NO',
      default: column.column_default === null ? null : normalisedExpression(column.column_default),
      generated: column.is_identity === 'YES',
      collation: column.collation_name,
    });
  }
  const indexes = await client.query<{
    table_name: string;
    index_name: string;
    is_unique: boolean;
    is_primary: boolean;
    columns: string[];
    predicate: string | null;
  }>(
    `SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS is_unique,
            x.indisprimary AS is_primary, pg_get_expr(x.indpred, x.indrelid) AS predicate,
            ARRAY(SELECT a.attname::text
                    FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                   ORDER BY k.n) AS columns
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace ns ON ns.oid = t.relnamespace
      WHERE ns.nspname = 'public'`,
  );
  for (const index of indexes.rows) {
    const owner = table(index.table_name);
    if (index.is_primary) owner.primaryKey = index.columns;
    else if (index.is_unique) owner.unique.push(keyText(index.columns, index.predicate));
    else owner.indexes.set(index.index_name, keyText(index.columns, index.predicate));
  }
  const RULES: Record<string, string> = {
    a: 'no action',
    r: 'restrict',
    c: 'cascade',
    n: 'set null',
    d: 'set default',
  };
  const foreignKeys = await client.query<{
    table_name: string;
    target: string;
    from_columns: string[];
    to_columns: string[];
    on_delete: string;
    on_update: string;
  }>(
    `SELECT t.relname AS table_name, r.relname AS target,
            c.confdeltype AS on_delete, c.confupdtype AS on_update,
            ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                   ORDER BY k.n) AS from_columns,
            ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                   ORDER BY k.n) AS to_columns
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace ns ON ns.oid = t.relnamespace
      WHERE c.contype = 'f' AND ns.nspname = 'public'`,
  );
  for (const key of foreignKeys.rows) {
    table(key.table_name).foreignKeys.push(
      `${keyText(key.from_columns)} → ${key.target} ${keyText(key.to_columns)} ` +
        `on delete ${RULES[key.on_delete] ?? key.on_delete} on update ${RULES[key.on_update] ?? key.on_update}`,
    );
  }
  const checks = await client.query<{ table_name: string; definition: string }>(
    `SELECT t.relname AS table_name, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace ns ON ns.oid = t.relnamespace
      WHERE c.contype = 'c' AND ns.nspname = 'public'`,
  );
  for (const check of checks.rows) {
    const expression = check.definition.replace(/^CHECK\s*/i, '');
    table(check.table_name).checks.push(normalisedExpression(expression));
  }
  // tgtype bits (PostgreSQL's pg_trigger.h): 1 row, 2 before, 4 insert, 8 delete, 16 update,
  // 32 truncate, 64 instead
  const triggers = await client.query<{ table_name: string; tgtype: number; body: string }>(
    `SELECT t.relname AS table_name, g.tgtype, p.prosrc AS body
       FROM pg_trigger g
       JOIN pg_class t ON t.oid = g.tgrelid
       JOIN pg_namespace ns ON ns.oid = t.relnamespace
       JOIN pg_proc p ON p.oid = g.tgfoid
      WHERE NOT g.tgisinternal AND ns.nspname = 'public'`,
  );
  for (const trigger of triggers.rows) {
    const type = Number(trigger.tgtype);
    const timing = type & 64 ? 'instead of' : type & 2 ? 'before' : 'after';
    const events = [
      [4, 'insert'],
      [8, 'delete'],
      [16, 'update'],
      [32, 'truncate'],
    ] as const;
    for (const [bit, event] of events) {
      if (type & bit) {
        table(trigger.table_name).triggers.push(`${timing} ${event} ${purpose(trigger.body)}`);
      }
    }
  }
  for (const entry of schema.values()) {
    entry.unique.sort();
    entry.triggers.sort();
    entry.foreignKeys.sort();
    entry.checks.sort();
  }
  return schema;
}

/** Whether SQLite's `sqliteType` and PostgreSQL's `postgresType` are an accepted pair here. */
function typesAgree(column: string, sqliteType: string, postgresType: string): boolean {
  if (postgresType === 'bigint') return sqliteType === 'INTEGER' && column in BIGINT_COLUMNS;
  return TYPE_PAIRS.some(([lite, postgres]) => lite === sqliteType && postgres === postgresType);
}

/** Every difference between the two schemas, one readable line each. */
export function differences(sqlite: Schema, postgres: Schema): string[] {
  const found: string[] = [];
  const only = (what: string, inSqlite: boolean) =>
    found.push(`${what}: only in ${inSqlite ? 'SQLite' : 'PostgreSQL'}`);
  const sides = (label: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      found.push(`${label}: SQLite ${JSON.stringify(a)}, PostgreSQL ${JSON.stringify(b)}`);
    }
  };
  const names = [...new Set([...sqlite.keys(), ...postgres.keys()])].sort();
  for (const name of names) {
    const lite = sqlite.get(name);
    const post = postgres.get(name);
    if (lite === undefined || post === undefined) {
      const expected = ONE_ENGINE_ONLY[name];
      const engine = lite === undefined ? 'postgres' : 'sqlite';
      if (expected?.engine !== engine) only(`table ${name}`, lite !== undefined);
      continue;
    }
    const columnNames = [...new Set([...lite.columns.keys(), ...post.columns.keys()])].sort();
    for (const column of columnNames) {
      const a = lite.columns.get(column);
      const b = post.columns.get(column);
      const label = `${name}.${column}`;
      if (a === undefined || b === undefined) {
        only(`column ${label}`, a !== undefined);
        continue;
      }
      if (!typesAgree(label, a.type, b.type)) {
        found.push(`${label}: type SQLite ${a.type}, PostgreSQL ${b.type} (not an accepted pair)`);
      }
      if (b.type !== 'bigint' && label in BIGINT_COLUMNS) {
        found.push(`${label}: listed in BIGINT_COLUMNS but PostgreSQL says ${b.type}`);
      }
      sides(`${label} not null`, a.notNull, b.notNull);
      sides(`${label} default`, a.default, b.default);
      sides(`${label} generated by the database`, a.generated, b.generated);
    }
    sides(`${name} primary key`, lite.primaryKey, post.primaryKey);
    for (const key of [...new Set([...lite.unique, ...post.unique])].sort()) {
      if (!lite.unique.includes(key) || !post.unique.includes(key)) {
        only(`${name}: unique ${key}`, lite.unique.includes(key));
      }
    }
    const indexNames = [...new Set([...lite.indexes.keys(), ...post.indexes.keys()])].sort();
    for (const index of indexNames) {
      const a = lite.indexes.get(index);
      const b = post.indexes.get(index);
      if (a === undefined || b === undefined) only(`index ${index} on ${name}`, a !== undefined);
      else sides(`index ${index} on ${name}`, a, b);
    }
    for (const key of [...new Set([...lite.foreignKeys, ...post.foreignKeys])].sort()) {
      if (!lite.foreignKeys.includes(key) || !post.foreignKeys.includes(key)) {
        only(`${name}: foreign key ${key}`, lite.foreignKeys.includes(key));
      }
    }
    for (const trigger of [...new Set([...lite.triggers, ...post.triggers])].sort()) {
      const a = lite.triggers.filter((entry) => entry === trigger).length;
      const b = post.triggers.filter((entry) => entry === trigger).length;
      if (a === 0 || b === 0) only(`${name}: trigger ${trigger}`, a > 0);
      else sides(`${name}: trigger ${trigger} count`, a, b);
    }
    for (const check of [...new Set([...lite.checks, ...post.checks])].sort()) {
      if (!lite.checks.includes(check) || !post.checks.includes(check)) {
        only(`${name}: check ${check}`, lite.checks.includes(check));
      }
    }
  }
  return found;
}

/** Differences not listed in DELIBERATE. */
export const unexplained = (sqlite: Schema, postgres: Schema) =>
  differences(sqlite, postgres).filter((line) => !(line in DELIBERATE));
