import type { Migration } from '../sql/migrate.ts';

/**
 * PostgreSQL's tables for the spend ledger (the same columns as SQLite's, in ../db.ts, migrations
 * 1 and 3). Times, months and days are ISO text collated "C", compared as SQLite compares them.
 */
export const SPEND_MIGRATION: Migration = {
  version: 5,
  name: 'spend ledger',
  sql: `CREATE TABLE spend_ledger (
          id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          call_id TEXT NOT NULL,
          at TEXT COLLATE "C" NOT NULL,
          month TEXT COLLATE "C" NOT NULL,
          day TEXT COLLATE "C" NOT NULL,
          mode TEXT NOT NULL,
          endpoint TEXT NOT NULL,
          dot TEXT,
          "user" TEXT COLLATE "C" NOT NULL,
          cache_hit INTEGER NOT NULL,
          price_mills INTEGER NOT NULL,
          state TEXT NOT NULL DEFAULT 'settled'
            CHECK (state IN ('pending', 'settled', 'uncertain'))
        );
        CREATE INDEX spend_ledger_month ON spend_ledger (mode, month, endpoint, dot);
        CREATE INDEX spend_ledger_call ON spend_ledger (call_id);
        CREATE INDEX spend_ledger_state ON spend_ledger (state) WHERE state <> 'settled';`,
};
