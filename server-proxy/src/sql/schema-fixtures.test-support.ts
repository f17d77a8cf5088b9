/**
 * Tests: databases as older code made them, from the fixtures in ./fixtures (see its README):
 * SQLite files at any of the ten numbered steps db.ts had at commit 724f577, that commit's own
 * SQLite file, and a PostgreSQL dump of a database it migrated, each with rows in every table.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/** The SQLite file made by commit 724f577 (schema step 10, rows in every table). */
const SQLITE_724F577 = join(FIXTURES, 'proxy-724f577.sqlite');

/** Copy the 724f577 SQLite file to `file`. */
export function copySqlite724f577(file: string): void {
  copyFileSync(SQLITE_724F577, file);
}

/** The ten SQLite schema steps of db.ts at 724f577, as that commit wrote them. */
function legacySqliteSteps(): string[] {
  const text = readFileSync(join(FIXTURES, 'sqlite-steps-724f577.sql'), 'utf8');
  return text
    .split(/^-- step \d+$/m)
    .slice(1)
    .map((step) => step.trim());
}

/**
 * A SQLite file as the code of those steps left it after the first `steps` of them
 * (`PRAGMA user_version` = steps). Answers the open database (the caller closes it).
 */
export function legacySqliteFile(file: string, steps: number): Database.Database {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  for (const [at, step] of legacySqliteSteps().slice(0, steps).entries()) {
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${at + 1}`);
    })();
  }
  return db;
}

/**
 * Restore the plain-SQL dump of a PostgreSQL database migrated by 724f577 into the (empty)
 * database `client` is connected to. psql's own meta-commands (`\restrict`) are left out.
 */
export async function restorePostgres724f577(client: pg.ClientBase): Promise<void> {
  const dump = readFileSync(join(FIXTURES, 'postgres-724f577.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  await client.query(dump);
}
