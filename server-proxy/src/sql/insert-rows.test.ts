import { beforeEach, expect, it } from 'vitest';
import type { SqlEngine, SqlExecutor } from './engine.ts';
import { forEachEngine } from './engines.test-support.ts';
import { insertRows } from './insert-rows.ts';

forEachEngine('insertRows', (engine) => {
  let sql: SqlEngine;

  beforeEach(async () => {
    sql = engine.sql;
    await sql.run('CREATE TABLE rows_test (n INTEGER NOT NULL, "user" TEXT, note TEXT)');
  });

  it('writes every row, in chunks of the given size, values in column order', async () => {
    const rows = Array.from({ length: 250 }, (_, n) => [n, `u${n % 7}`, n % 3 ? null : 'x']);
    const statements: string[] = [];
    const counting: SqlExecutor = {
      query: (text, params) => sql.query(text, params),
      run: (text, params) => {
        statements.push(text);
        return sql.run(text, params);
      },
    };
    await insertRows(counting, 'rows_test', ['n', '"user"', 'note'], rows, 100);
    expect(statements).toHaveLength(3);
    const stored = await sql.query<{ n: number | string; user: string; note: string | null }>(
      'SELECT n, "user", note FROM rows_test ORDER BY n',
    );
    expect(stored.map((row) => [Number(row.n), row.user, row.note])).toEqual(rows);
  });

  it('writes nothing for no rows, and refuses a row of the wrong width', async () => {
    await insertRows(sql, 'rows_test', ['n'], []);
    await expect(insertRows(sql, 'rows_test', ['n', 'note'], [[1]])).rejects.toThrow(
      /1 values for 2 columns/,
    );
    expect(await sql.query('SELECT n FROM rows_test')).toEqual([]);
  });
});
