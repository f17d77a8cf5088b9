/**
 * Triage of monitoring changes, per user, in the proxy database (`triage_state`, `inbox_visit`).
 * A change without a row is New; a row says Reviewed or Escalated, with an optional note, who set
 * it and when. Setting a change back to New deletes its row (and its note).
 */
import type Database from 'better-sqlite3';
import { CHANNELS, channelOfField, type Channel } from '../../../src/lib/service/channels.ts';

export type TriageState = 'new' | 'reviewed' | 'escalated';
export const TRIAGE_STATES: readonly TriageState[] = ['new', 'reviewed', 'escalated'];

/** One change to set, as validated from a PUT body. */
export interface TriageUpdate {
  id: string;
  profileId: string;
  field: string;
  state: TriageState;
  note?: string;
}

/** A stored triage decision, as the routes answer it. */
interface TriageEntry {
  id: string;
  profile_id: string;
  field: string;
  channel: Channel | null;
  state: Exclude<TriageState, 'new'>;
  note: string | null;
  /** who set it: the user's display name */
  by: string;
  /** ISO time it was set */
  at: string;
}

interface StateCounts {
  reviewed: number;
  escalated: number;
}

interface TriageSummary {
  total: StateCounts;
  byChannel: Record<Channel, StateCounts>;
  /** decisions on fields that map to no channel */
  unmapped: StateCounts;
}

interface InboxVisit {
  lastVisitAt: string | null;
  previousVisitAt: string | null;
}

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
  byIds(user: string, ids: readonly string[]): TriageEntry[];
  byProfiles(user: string, profileIds: readonly string[]): TriageEntry[];
  /** Apply all updates in one transaction; returns the entries as stored (New ones omitted). */
  put(actor: Actor, updates: readonly TriageUpdate[], at: Date): TriageEntry[];
  summary(user: string): TriageSummary;
  visit(user: string): InboxVisit;
  /** Record a visit now: the last visit becomes the previous one. */
  recordVisit(user: string, at: Date): InboxVisit;
}

const SELECT = `SELECT change_id, profile_id, field, state, note, user_name, updated_at
  FROM triage_state`;

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

function countSummary(rows: { field: string; state: Row['state']; n: number }[]): TriageSummary {
  const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, emptyCounts()])) as Record<
    Channel,
    StateCounts
  >;
  const summary: TriageSummary = { total: emptyCounts(), byChannel, unmapped: emptyCounts() };
  for (const { field, state, n } of rows) {
    const channel = channelOfField(field);
    summary.total[state] += n;
    (channel === undefined ? summary.unmapped : byChannel[channel])[state] += n;
  }
  return summary;
}

export function createTriageStore(db: Database.Database): TriageStore {
  const upsert = db.prepare<
    [string, string, string, string, string, string | null, string, string]
  >(
    `INSERT INTO triage_state
       (user, change_id, profile_id, field, state, note, user_name, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user, change_id) DO UPDATE SET
       profile_id = excluded.profile_id, field = excluded.field, state = excluded.state,
       note = excluded.note, user_name = excluded.user_name, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare<[string, string]>(
    'DELETE FROM triage_state WHERE user = ? AND change_id = ?',
  );
  const counts = db.prepare<[string], { field: string; state: Row['state']; n: number }>(
    `SELECT field, state, COUNT(*) AS n FROM triage_state WHERE user = ? GROUP BY field, state`,
  );
  const readVisit = db.prepare<
    [string],
    { last_visit_at: string; previous_visit_at: string | null }
  >('SELECT last_visit_at, previous_visit_at FROM inbox_visit WHERE user = ?');
  const writeVisit = db.prepare<[string, string]>(
    `INSERT INTO inbox_visit (user, last_visit_at, previous_visit_at) VALUES (?, ?, NULL)
     ON CONFLICT (user) DO UPDATE SET
       previous_visit_at = inbox_visit.last_visit_at, last_visit_at = excluded.last_visit_at`,
  );

  const select = (column: 'change_id' | 'profile_id', user: string, values: readonly string[]) => {
    if (values.length === 0) return [];
    const rows = db
      .prepare<string[], Row>(
        `${SELECT} WHERE user = ? AND ${column} IN (${placeholders(values.length)})
         ORDER BY profile_id, change_id`,
      )
      .all(user, ...values);
    return rows.map(toEntry);
  };

  const applyAll = db.transaction((actor: Actor, updates: readonly TriageUpdate[], at: string) => {
    for (const update of updates) {
      if (update.state === 'new') remove.run(actor.id, update.id);
      else {
        upsert.run(
          actor.id,
          update.id,
          update.profileId,
          update.field,
          update.state,
          update.note ?? null,
          actor.name,
          at,
        );
      }
    }
  });

  const visit = (user: string): InboxVisit => {
    const row = readVisit.get(user);
    return {
      lastVisitAt: row?.last_visit_at ?? null,
      previousVisitAt: row?.previous_visit_at ?? null,
    };
  };

  return {
    byIds: (user, ids) => select('change_id', user, ids),
    byProfiles: (user, profileIds) => select('profile_id', user, profileIds),
    put(actor, updates, at) {
      applyAll(actor, updates, at.toISOString());
      const kept = updates.filter((u) => u.state !== 'new').map((u) => u.id);
      const entries: TriageEntry[] = [];
      // read back in bounded slices (SQLite's variable limit is far above 500, but stay modest)
      for (let i = 0; i < kept.length; i += 500) {
        entries.push(...select('change_id', actor.id, kept.slice(i, i + 500)));
      }
      return entries;
    },
    summary: (user) => countSummary(counts.all(user)),
    visit,
    recordVisit(user, at) {
      writeVisit.run(user, at.toISOString());
      return visit(user);
    },
  };
}
