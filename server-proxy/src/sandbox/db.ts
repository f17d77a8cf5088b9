import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** File name of the sandbox state inside DATA_DIR. */
const STATE_FILE = 'sandbox.sqlite';

/** Open (creating if needed) the sandbox state database in `dataDir`, in WAL mode. */
export function openSandboxDb(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, STATE_FILE));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 2000');
  return db;
}
