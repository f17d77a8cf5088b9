/**
 * The DDL of both engines, generated from one definition of each table (schema.ts). A table is
 * data: columns with logical types, keys, checks, indexes, and the statements that only one
 * dialect has (e.g. triggers) beside it. This module turns that into SQLite's and PostgreSQL's
 * statements; it knows nothing of the proxy's own tables.
 */

export type Dialect = 'sqlite' | 'postgres';

/**
 * Logical column types, and what each engine is given:
 * - `text`: TEXT on both;
 * - `sortedText`: TEXT, and on PostgreSQL `COLLATE "C"` (byte order, as SQLite compares text):
 *   ISO-8601 times and other text compared or ordered as text;
 * - `int`: INTEGER on both (SQLite's is 64-bit, PostgreSQL's 32-bit);
 * - `bigint`: INTEGER / BIGINT (ids of identity keys, epoch milliseconds);
 * - `id`: a key the database hands out, never reused: INTEGER PRIMARY KEY AUTOINCREMENT /
 *   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY.
 */
type ColumnType = 'text' | 'sortedText' | 'int' | 'bigint' | 'id';

export interface ColumnDef {
  type: ColumnType;
  notNull?: boolean;
  /** SQL literal, the same text on both engines */
  default?: string;
  /** CHECK expression, the same text on both engines */
  check?: string;
  /** the column alone is the primary key (a composite key is the table's `primaryKey`) */
  primaryKey?: boolean;
  unique?: boolean;
  references?: { table: string; column: string; onDelete?: 'cascade' };
}

export interface IndexDef {
  columns: readonly string[];
  /** a partial index's predicate, the same text on both engines */
  where?: string;
}

export interface TableDef {
  /** in the order the columns are created */
  columns: Readonly<Record<string, ColumnDef>>;
  /** a primary key of several columns */
  primaryKey?: readonly string[];
  /** SQLite only: the rows are stored in the primary key's b-tree */
  withoutRowid?: boolean;
  indexes?: Readonly<Record<string, IndexDef>>;
  /** statements only one engine has (triggers, functions), run after the table and its indexes */
  dialectSql?: Partial<Record<Dialect, readonly string[]>>;
}

/** Identifiers PostgreSQL reserves that the tables use as column names. */
const RESERVED = new Set(['user']);

function ident(name: string, dialect: Dialect): string {
  return dialect === 'postgres' && RESERVED.has(name) ? `"${name}"` : name;
}

const list = (names: readonly string[], dialect: Dialect) =>
  names.map((name) => ident(name, dialect)).join(', ');

function typeOf(column: ColumnDef, dialect: Dialect): string {
  switch (column.type) {
    case 'text':
      return 'TEXT';
    case 'sortedText':
      return dialect === 'postgres' ? 'TEXT COLLATE "C"' : 'TEXT';
    case 'int':
      return 'INTEGER';
    case 'bigint':
      return dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
    case 'id':
      return dialect === 'postgres'
        ? 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'
        : 'INTEGER PRIMARY KEY AUTOINCREMENT';
  }
}

/** One column as written in CREATE TABLE or ADD COLUMN. */
function columnSql(name: string, column: ColumnDef, dialect: Dialect): string {
  const parts = [ident(name, dialect), typeOf(column, dialect)];
  if (column.type !== 'id') {
    // PostgreSQL's primary key implies NOT NULL; SQLite's does not on a rowid table
    const notNull = column.notNull === true || (column.primaryKey === true && dialect === 'sqlite');
    if (notNull) parts.push('NOT NULL');
    if (column.primaryKey === true) parts.push('PRIMARY KEY');
  }
  if (column.unique === true) parts.push('UNIQUE');
  if (column.default !== undefined) parts.push(`DEFAULT ${column.default}`);
  if (column.check !== undefined) parts.push(`CHECK (${column.check})`);
  if (column.references !== undefined) {
    const { table, column: target, onDelete } = column.references;
    parts.push(`REFERENCES ${table} (${ident(target, dialect)})`);
    if (onDelete === 'cascade') parts.push('ON DELETE CASCADE');
  }
  return parts.join(' ');
}

function tableBodySql(table: TableDef, dialect: Dialect): string {
  const lines = Object.entries(table.columns).map(([name, column]) =>
    columnSql(name, column, dialect),
  );
  if (table.primaryKey !== undefined)
    lines.push(`PRIMARY KEY (${list(table.primaryKey, dialect)})`);
  return `(\n  ${lines.join(',\n  ')}\n)`;
}

export function indexSql(
  tableName: string,
  indexName: string,
  index: IndexDef,
  dialect: Dialect,
): string {
  const where = index.where === undefined ? '' : ` WHERE ${index.where}`;
  return `CREATE INDEX ${indexName} ON ${tableName} (${list(index.columns, dialect)})${where}`;
}

/** The table's indexes and dialect statements (what follows its CREATE TABLE). */
function afterTableSql(tableName: string, table: TableDef, dialect: Dialect): string[] {
  return [
    ...Object.entries(table.indexes ?? {}).map(([name, index]) =>
      indexSql(tableName, name, index, dialect),
    ),
    ...(table.dialectSql?.[dialect] ?? []),
  ];
}

/** The statements that create the table as defined now: the table, its indexes, its triggers. */
export function createTableSql(tableName: string, table: TableDef, dialect: Dialect): string[] {
  const rowid = dialect === 'sqlite' && table.withoutRowid === true ? ' WITHOUT ROWID' : '';
  return [
    `CREATE TABLE ${tableName} ${tableBodySql(table, dialect)}${rowid}`,
    ...afterTableSql(tableName, table, dialect),
  ];
}

export function addColumnSql(
  tableName: string,
  columnName: string,
  column: ColumnDef,
  dialect: Dialect,
): string {
  return `ALTER TABLE ${tableName} ADD COLUMN ${columnSql(columnName, column, dialect)}`;
}

/**
 * SQLite's way to change what ALTER TABLE cannot (e.g. make a column NOT NULL): a new table as
 * defined now, the rows copied that fit it (a row with NULL where the definition says NOT NULL
 * and gives no default is left behind), the old table dropped and the new one renamed, then its
 * indexes and triggers. The columns copied are those both have (`existing`: the old table's).
 * No other table may refer to it (foreign keys stay on during the migration).
 */
export function rebuildSqliteSql(
  tableName: string,
  table: TableDef,
  existing: readonly string[],
): string[] {
  const next = `${tableName}_next`;
  const kept = Object.keys(table.columns).filter((name) => existing.includes(name));
  const required = Object.entries(table.columns)
    .filter(
      ([name, column]) =>
        kept.includes(name) &&
        column.default === undefined &&
        (column.notNull === true || column.primaryKey === true) &&
        column.type !== 'id',
    )
    .map(([name]) => `${name} IS NOT NULL`);
  const where = required.length > 0 ? ` WHERE ${required.join(' AND ')}` : '';
  const columns = list(kept, 'sqlite');
  const rowid = table.withoutRowid === true ? ' WITHOUT ROWID' : '';
  return [
    `CREATE TABLE ${next} ${tableBodySql(table, 'sqlite')}${rowid}`,
    `INSERT INTO ${next} (${columns}) SELECT ${columns} FROM ${tableName}${where}`,
    `DROP TABLE ${tableName}`,
    `ALTER TABLE ${next} RENAME TO ${tableName}`,
    ...afterTableSql(tableName, table, 'sqlite'),
  ];
}
