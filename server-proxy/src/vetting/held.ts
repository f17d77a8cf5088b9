/**
 * The verdict of a carrier's freshest HELD data (docs/vetting.md, "Standing"), never a billed call:
 * the profile the proxy holds (its local cache, else the shared cache in team mode: a peek, which
 * neither fetches nor waits for a fetch), parsed once per stored answer (VerdictProfiles); else the
 * decision record's own evidence with the monitoring changes the alert poller has seen since
 * (`alert_seen`) laid over it (src/lib/vetting/record-verdict.ts). With the standing of the
 * decision against it (src/lib/vetting/standing.ts).
 */
import type { MirrorPeek } from '../routes/mirror.ts';
import { placeholders } from '../sql/placeholders.ts';
import type { SqlEngine } from '../sql/engine.ts';
import type { Profile } from '../../../src/lib/service/index.ts';
import {
  evaluate,
  type Outcome,
  type Policy,
  type PolicySettings,
  type RuleResult,
} from '../../../src/lib/vetting/index.ts';
import {
  recordVerdict,
  type RecordedVerdictFull,
} from '../../../src/lib/vetting/record-verdict.ts';
import type { FieldChangeInput } from '../../../src/lib/vetting/reevaluate.ts';
import { standingOf, type Standing } from '../../../src/lib/vetting/standing.ts';
import type { VerdictProfiles } from './verdict-profile.ts';
import type { VettingSqlStore } from './store.ts';

export type CurrentRecord = Awaited<ReturnType<VettingSqlStore['currentDecisions']>>[number];

/** `now` of a current decision (contract of GET /api/local/decisions/current). */
export interface HeldVerdict {
  verdict: Outcome;
  policy_version: number;
  /** the non-pass rule results */
  reasons: RuleResult[];
  /** when the held data was fetched */
  fetched_at: string;
  evaluated_at: string;
  source: 'profile' | 'record';
  /** the held profile was marked stale by a reported change (refetched on its next view) */
  stale?: true;
}

interface HeldProfile {
  profile: Profile;
  fetchedAt: Date;
  stale: boolean;
}

export interface HeldDeps {
  sql: SqlEngine;
  /** the mirror's peek: what this replica, else the shared cache, holds */
  mirror: MirrorPeek;
  profiles: VerdictProfiles;
  store: VettingSqlStore;
}

/** What is held for a set of carriers: their profiles, the changes seen, the policies recorded. */
export interface HeldSet {
  profiles: Map<string, HeldProfile>;
  changes: Map<string, ChangeSeen[]>;
  settings: Map<number, PolicySettings>;
}

interface ChangeSeen extends FieldChangeInput {
  /** when the poller first saw it (ISO) */
  seen: string;
}

interface SeenRow {
  dot: string;
  field: string;
  current: string | null;
  change_date: string | null;
  first_seen_at: string;
}

function readJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const OUTCOME_SET = new Set(['pass', 'review', 'fail']);

/** The verdict a record kept, when it has the shape the engine wrote. */
function recordedVerdictOf(record: CurrentRecord): RecordedVerdictFull | undefined {
  const verdict = record.verdict as Partial<RecordedVerdictFull> | null | undefined;
  if (!verdict || !OUTCOME_SET.has(verdict.verdict as string) || !Array.isArray(verdict.reasons))
    return undefined;
  return {
    verdict: verdict.verdict as Outcome,
    snapshot_date: typeof verdict.snapshot_date === 'string' ? verdict.snapshot_date : null,
    reasons: verdict.reasons,
  };
}

function fetchedAtOf(record: CurrentRecord): string {
  const at = (record.profile as { fetched_at?: unknown } | null)?.fetched_at;
  return typeof at === 'string' ? at : record.decided_at;
}

const DOTS_PER_QUERY = 500;

export class Held {
  private readonly versions = new Map<number, PolicySettings>();

  constructor(private readonly deps: HeldDeps) {}

  /** The profile held for `dot` (local cache, else a peek at the shared cache), parsed once. */
  async profile(dot: string): Promise<HeldProfile | undefined> {
    // a shared cache that cannot be asked holds nothing for this answer (the peek says so)
    const stored = await this.deps.mirror.peek('profile', { dot_number: dot });
    if (!stored || stored.status < 200 || stored.status >= 300) return undefined;
    const held = stored;
    const profile = this.deps.profiles.of(held, () => readJson(held.body));
    if (!profile) return undefined;
    // a copy a reported change outdated (cache.ts) is still held data
    const stale = held.staleAfterChange !== undefined;
    return { profile, fetchedAt: held.fetchedAt, stale };
  }

  /** The changes the alert poller has seen of each of `dots`, oldest first. */
  private async changes(dots: readonly string[]): Promise<Map<string, ChangeSeen[]>> {
    const found = new Map<string, ChangeSeen[]>();
    for (let i = 0; i < dots.length; i += DOTS_PER_QUERY) {
      const slice = dots.slice(i, i + DOTS_PER_QUERY);
      const rows = await this.deps.sql.query<SeenRow>(
        `SELECT dot, field, current, change_date, first_seen_at FROM alert_seen
          WHERE dot IN (${placeholders(slice.length)})
          ORDER BY change_date, first_seen_at`,
        slice,
      );
      for (const row of rows) {
        const list = found.get(row.dot) ?? [];
        list.push({
          field: row.field,
          current: readJson(row.current),
          date: row.change_date?.slice(0, 10) ?? undefined,
          seen: row.first_seen_at,
        });
        found.set(row.dot, list);
      }
    }
    return found;
  }

  /** The settings of a stored policy version (versions never change: kept once read). */
  private async settingsOf(version: number): Promise<PolicySettings | undefined> {
    const known = this.versions.get(version);
    if (known) return known;
    const found = await this.deps.store.policyVersion(version);
    if (found) this.versions.set(version, found.settings);
    return found?.settings;
  }

  /** Everything held for these current decisions. */
  async gather(records: readonly CurrentRecord[]): Promise<HeldSet> {
    const dots = [...new Set(records.map((record) => record.dot_number))];
    const profiles = new Map<string, HeldProfile>();
    const looked = await Promise.all(
      dots.map(async (dot) => [dot, await this.profile(dot)] as const),
    );
    const missing: string[] = [];
    for (const [dot, held] of looked) {
      if (held) profiles.set(dot, held);
      else missing.push(dot);
    }
    const changes = missing.length > 0 ? await this.changes(missing) : new Map();
    const settings = new Map<number, PolicySettings>();
    for (const version of new Set(records.map((record) => Number(record.policy_version)))) {
      const found = await this.settingsOf(version);
      if (found) settings.set(version, found);
    }
    return { profiles, changes, settings };
  }
}

/** The verdict of `policy` on what is held of `record`'s carrier; null when nothing is. */
export function heldVerdict(
  record: CurrentRecord,
  policy: Policy,
  held: HeldSet,
  now: Date,
): HeldVerdict | null {
  const evaluatedAt = now.toISOString();
  const profile = held.profiles.get(record.dot_number);
  if (profile) {
    const result = evaluate(profile.profile, policy, now);
    return {
      verdict: result.verdict,
      policy_version: result.policy_version,
      reasons: result.reasons.filter((reason) => reason.outcome !== 'pass'),
      fetched_at: profile.fetchedAt.toISOString(),
      evaluated_at: evaluatedAt,
      source: 'profile',
      ...(profile.stale ? { stale: true as const } : {}),
    };
  }
  const recorded = recordedVerdictOf(record);
  if (!recorded) return null;
  // only changes seen after the decision count against it
  const day = record.decided_at.slice(0, 10);
  const changes = (held.changes.get(record.dot_number) ?? []).filter((change) =>
    change.date ? change.date >= day : change.seen >= record.decided_at,
  );
  const result = recordVerdict(recorded, changes, policy, {
    now,
    recordedSettings: held.settings.get(Number(record.policy_version)),
  });
  return {
    verdict: result.verdict,
    policy_version: result.policy_version,
    reasons: result.reasons.filter((reason) => reason.outcome !== 'pass'),
    fetched_at: fetchedAtOf(record),
    evaluated_at: evaluatedAt,
    source: 'record',
  };
}

/** The standing of `record` given its held verdict. */
export function standingFor(record: CurrentRecord, now: HeldVerdict | null): Standing {
  const recorded = recordedVerdictOf(record);
  if (!recorded) return 'unknown';
  return standingOf(
    { decision: record.decision, verdict: recorded.verdict, reasons: recorded.reasons },
    now,
  );
}
