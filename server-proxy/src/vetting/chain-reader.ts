/**
 * The decision chain as receipts and checkpoints read it (receipts.ts): its length and head, a
 * record by id with its position, and the record at a position. Ids ascend in chain order (appends
 * take turns), so a record's position is the count of records up to its id. Same SQL on both engines.
 */
import type { SqlExecutor } from '../sql/engine.ts';
import type { ChainEntry, ChainReader } from './receipts.ts';

interface Row {
  id: number | string;
  hash: string;
}

const entry = (row: Row): ChainEntry => ({ id: Number(row.id), hash: row.hash });

export function sqlChainReader(sql: SqlExecutor): ChainReader {
  return {
    async head() {
      const [counted] = await sql.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM vetting_decision',
      );
      const [last] = await sql.query<Row>(
        'SELECT id, hash FROM vetting_decision ORDER BY id DESC LIMIT 1',
      );
      return { length: Number(counted?.n ?? 0), head: last ? entry(last) : undefined };
    },
    async byId(id) {
      const [row] = await sql.query<Row & { position: number | string }>(
        `SELECT id, hash, (SELECT COUNT(*) FROM vetting_decision AS earlier
           WHERE earlier.id <= vetting_decision.id) AS position
         FROM vetting_decision WHERE id = ?`,
        [id],
      );
      return row ? { ...entry(row), position: Number(row.position) } : undefined;
    },
    async atPosition(position) {
      if (!Number.isSafeInteger(position) || position < 1) return undefined;
      const [row] = await sql.query<Row>(
        `SELECT id, hash FROM vetting_decision ORDER BY id LIMIT 1 OFFSET ${position - 1}`,
      );
      return row ? entry(row) : undefined;
    },
  };
}
