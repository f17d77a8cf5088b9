/**
 * Triage of monitoring changes, per user, in the proxy database (`triage_state`, `inbox_visit`).
 * A change without a row is New; a row says Reviewed or Escalated, with an optional note, who set
 * it and when. Setting a change back to New deletes its row (and its note).
 *
 * Written once over SqlEngine: SQLite (the proxy's file) by default, PostgreSQL with DATABASE_URL
 * (migration 2), so a decision taken on one replica is read on every other.
 */
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { CHANNELS, channelOfField, type Channel } from '../../../src/lib/service/channels.ts';
import type {
  InboxVisit,
  StoredTriage,
  TriageCounts,
  TriageUpdate,
} from '../../../src/lib/monitoring/contract.ts';

/** A stored triage decision, as the routes answer it (src/lib/monitoring/contract.ts). */
type TriageEntry = StoredTriage;
type StateCounts = TriageCounts['total'];
type TriageSummary = TriageCounts;

export interface Actor {
  id: string;
  name: string;
}

interface Row {
  change_id: string;
  profile_id: string;
  field: string;
  state: 'reviewed' | 'escalated';
  note: string | null;
  user_name: string;
  updated_at: string;
}

export interface TriageStore {
  byIds(user: string, ids: readonly string[]): Promise<TriageEntry[]>;
  byProfiles(user: string, profileIds: readonly string[]): Promise<TriageEntry[]>;
  /** Apply all updates in one transaction; answers the entries as stored (New ones omitted). */
  put(actor: Actor, updates: readonly TriageUpdate[], at: Date): Promise<TriageEntry[]>;
  summary(user: string): Promise<TriageSummary>;
  visit(user: string): Promise<InboxVisit>;
  /** Record a visit now: the last visit becomes the previous one. */
  recordVisit(user: string, at: Date): Promise<InboxVisit>;
}

const SELECT = `SELECT change_id, profile_id, field, state, note, user_name, updated_at
  FROM triage_state`;

const UPSERT = `INSERT INTO triage_state
    ("user", change_id, profile_id, field, state, note, user_name, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("user", change_id) DO UPDATE SET
    profile_id = excluded.profile_id, field = excluded.field, state = excluded.state,
    note = excluded.note, user_name = excluded.user_name, updated_at = excluded.updated_at`;

const WRITE_VISIT = `INSERT INTO inbox_visit ("user", last_visit_at, previous_visit_at)
  VALUES (?, ?, NULL)
  ON CONFLICT ("user") DO UPDATE SET
    previous_visit_at = inbox_visit.last_visit_at, last_visit_at = excluded.last_visit_at`;

function toEntry(row: Row): TriageEntry {
  return {
    id: row.change_id,
    profile_id: row.profile_id,
    field: row.field,
    channel: channelOfField(row.field) ?? null,
    state: row.state,
    note: row.note,
    by: row.user_name,
    at: row.updated_at,
  };
}

/** `?, ?, ?` for an IN list; lists are bounded by the routes (≤ 500). */
function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function emptyCounts(): StateCounts {
  return { reviewed: 0, escalated: 0 };
}

/** COUNT(*) is a number from SQLite and a string (bigint) from PostgreSQL. */
interface CountRow {
  field: string;
  state: Row['state'];
  n: number | string;
}

function countSummary(rows: readonly CountRow[]): TriageSummary {
  const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, emptyCounts()])) as Record<
    Channel,
    StateCounts
  >;
  const summary: TriageSummary = { total: emptyCounts(), byChannel, unmapped: emptyCounts() };
  for (const { field, state, n } of rows) {
    const channel = channelOfField(field);
    const count = Number(n);
    summary.total[state] += count;
    (channel === undefined ? summary.unmapped : byChannel[channel])[state] += count;
  }
  return summary;
}

/** Rows of `user` whose `column` is one of `values`, in a stable order. */
async function select(
  on: SqlExecutor,
  column: 'change_id' | 'profile_id',
  user: string,
  values: readonly string[],
): Promise<TriageEntry[]> {
  if (values.length === 0) return [];
  const rows = await on.query<Row>(
    `${SELECT} WHERE "user" = ? AND ${column} IN (${placeholders(values.length)})
     ORDER BY profile_id, change_id`,
    [user, ...values],
  );
  return rows.map(toEntry);
}

async function readVisit(on: SqlExecutor, user: string): Promise<InboxVisit> {
  const [row] = await on.query<{ last_visit_at: string; previous_visit_at: string | null }>(
    'SELECT last_visit_at, previous_visit_at FROM inbox_visit WHERE "user" = ?',
    [user],
  );
  return {
    lastVisitAt: row?.last_visit_at ?? null,
    previousVisitAt: row?.previous_visit_at ?? null,
  };
}

export function createTriageStore(sql: SqlEngine): TriageStore {
  return {
    byIds: (user, ids) => select(sql, 'change_id', user, ids),
    byProfiles: (user, profileIds) => select(sql, 'profile_id', user, profileIds),
    put(actor, updates, at) {
      const when = at.toISOString();
      return sql.transaction(async (tx) => {
        for (const update of updates) {
          if (update.state === 'new') {
            await tx.run('DELETE FROM triage_state WHERE "user" = ? AND change_id = ?', [
              actor.id,
              update.id,
            ]);
          } else {
            await tx.run(UPSERT, [
              actor.id,
              update.id,
              update.profileId,
              update.field,
              update.state,
              update.note ?? null,
              actor.name,
              when,
            ]);
          }
        }
        const kept = updates.filter((u) => u.state !== 'new').map((u) => u.id);
        const entries: TriageEntry[] = [];
        // read back in bounded slices (both engines allow far more parameters, but stay modest)
        for (let i = 0; i < kept.length; i += 500) {
          entries.push(...(await select(tx, 'change_id', actor.id, kept.slice(i, i + 500))));
        }
        return entries;
      });
    },
    async summary(user) {
      const rows = await sql.query<CountRow>(
        'SELECT field, state, COUNT(*) AS n FROM triage_state WHERE "user" = ? GROUP BY field, state',
        [user],
      );
      return countSummary(rows);
    },
    visit: (user) => readVisit(sql, user),
    async recordVisit(user, at) {
      return sql.transaction(async (tx) => {
        await tx.run(WRITE_VISIT, [user, at.toISOString()]);
        return readVisit(tx, user);
      });
    },
  };
}
