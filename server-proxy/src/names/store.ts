/**
 * The carrier names the proxy has seen in the service's answers, one row per DOT
 * (`carrier_name`: legal name, DBA name, docket, which answer said it, when). Kept so the inbox,
 * alert messages and the CSV export can name a carrier after the response cache has forgotten
 * it, and across restarts.
 *
 * Written once over SqlEngine: SQLite (the proxy's file) by default, PostgreSQL with DATABASE_URL,
 * so every replica reads the names any of them saw.
 */
import type { SqlEngine } from '../sql/engine.ts';
import { placeholders, tuples } from '../sql/placeholders.ts';

/** Which kind of answer a name was read from. */
export type NameSource =
  'profile' | 'profile-lite' | 'profile-fmcsa' | 'autocomplete' | 'network' | 'lookup';

/**
 * One carrier named in one answer. `dba` and `docket`: a string when the answer states it, `''`
 * when it states there is none, `null` when it says nothing (the stored value is kept).
 */
export interface NameSighting {
  dot: string;
  legal: string | null;
  dba: string | null;
  docket: string | null;
  source: NameSource;
}

/** A stored name; `dba` and `docket` are null when none is known. */
interface StoredName {
  dot: string;
  legal: string | null;
  dba: string | null;
  docket: string | null;
  source: NameSource;
  seenAt: string;
}

export interface CarrierNameStore {
  /** The stored names of these DOTs (a DOT with none is left out). */
  get(dots: readonly string[]): Promise<Map<string, StoredName>>;
  /**
   * Upsert the sightings (one per DOT). A row is rewritten only when a name or docket differs
   * from the stored one, or its `seen_at` is older than `refreshBefore`; answers rows written.
   */
  put(sightings: readonly NameSighting[], at: Date, refreshBefore: Date): Promise<number>;
}

interface Row {
  dot_number: string;
  legal_name: string | null;
  dba_name: string | null;
  docket: string | null;
  source: NameSource;
  seen_at: string;
}

/** Rows per INSERT (6 parameters each) and DOTs per SELECT. */
const ROWS_PER_STATEMENT = 200;
const DOTS_PER_SELECT = 500;

const blankToNull = (value: string | null) => (value === '' ? null : value);

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * A value the answer does not state (NULL) keeps the stored one; `''` (stated: none) replaces it.
 * The WHERE makes an unchanged sighting a no-op, apart from a stale `seen_at` being refreshed.
 */
function upsertSql(rows: number): string {
  return `INSERT INTO carrier_name (dot_number, legal_name, dba_name, docket, source, seen_at)
    VALUES ${tuples(rows, 6)}
    ON CONFLICT (dot_number) DO UPDATE SET
      legal_name = COALESCE(excluded.legal_name, carrier_name.legal_name),
      dba_name = COALESCE(excluded.dba_name, carrier_name.dba_name),
      docket = COALESCE(excluded.docket, carrier_name.docket),
      source = excluded.source,
      seen_at = excluded.seen_at
    WHERE COALESCE(excluded.legal_name, carrier_name.legal_name, '') <> COALESCE(carrier_name.legal_name, '')
       OR COALESCE(excluded.dba_name, carrier_name.dba_name, '') <> COALESCE(carrier_name.dba_name, '')
       OR COALESCE(excluded.docket, carrier_name.docket, '') <> COALESCE(carrier_name.docket, '')
       OR carrier_name.seen_at < ?`;
}

export function createCarrierNameStore(sql: SqlEngine): CarrierNameStore {
  return {
    async get(dots) {
      const names = new Map<string, StoredName>();
      for (const part of chunks([...new Set(dots)], DOTS_PER_SELECT)) {
        const rows = await sql.query<Row>(
          `SELECT dot_number, legal_name, dba_name, docket, source, seen_at
             FROM carrier_name WHERE dot_number IN (${placeholders(part.length)})`,
          part,
        );
        for (const row of rows) {
          names.set(row.dot_number, {
            dot: row.dot_number,
            legal: row.legal_name,
            dba: blankToNull(row.dba_name),
            docket: blankToNull(row.docket),
            source: row.source,
            seenAt: row.seen_at,
          });
        }
      }
      return names;
    },

    async put(sightings, at, refreshBefore) {
      // one row per DOT and statement (PostgreSQL refuses to update a row twice in one)
      const byDot = new Map(sightings.map((s) => [s.dot, s]));
      if (byDot.size === 0) return 0;
      const seenAt = at.toISOString();
      return sql.transaction(async (tx) => {
        let written = 0;
        for (const part of chunks([...byDot.values()], ROWS_PER_STATEMENT)) {
          const params = part.flatMap((s) => [s.dot, s.legal, s.dba, s.docket, s.source, seenAt]);
          params.push(refreshBefore.toISOString());
          written += (await tx.run(upsertSql(part.length), params)).changes;
        }
        return written;
      });
    },
  };
}
