/**
 * Many rows in few statements: `INSERT INTO t (a, b) VALUES (?, ?), (?, ?), …`, in chunks. On
 * PostgreSQL every statement is a round trip and a parse, so the buffered rows of busy paths (the
 * free ledger row of each cache hit, the audit row of each request) go in one statement per chunk
 * instead of one per row; SQLite takes the same SQL.
 */
import type { SqlExecutor, SqlParam } from './engine.ts';
import { tuples } from './placeholders.ts';

/** Rows per statement: well under both engines' bound on bound parameters (SQLite 32,766). */
const ROWS_PER_STATEMENT = 100;

/**
 * Insert `rows` (each one value per column, in `columns`' order) into `table`. Run it inside a
 * transaction when the rows must land together.
 */
export async function insertRows(
  ex: SqlExecutor,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlParam[])[],
  rowsPerStatement = ROWS_PER_STATEMENT,
): Promise<void> {
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const chunk = rows.slice(start, start + rowsPerStatement);
    for (const row of chunk) {
      if (row.length !== columns.length) {
        throw new Error(`insertRows: ${row.length} values for ${columns.length} columns`);
      }
    }
    await ex.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples(chunk.length, columns.length)}`,
      chunk.flat(),
    );
  }
}
