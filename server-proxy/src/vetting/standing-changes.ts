/**
 * What a policy change does to the decisions on record (docs/vetting.md, "Standing"): the preview
 * of a proposed policy (`POST /api/local/policy/preview`: nothing stored, never a billed call) and,
 * once a policy is saved, one `vetting_standing_change` row per current decision whose standing it
 * changed ("needs re-vet" until a newer decision on the carrier; the alerts announce each row once).
 */
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import type { Outcome, Policy } from '../../../src/lib/vetting/index.ts';
import { heldVerdict, standingFor, type CurrentRecord, type Held } from './held.ts';
import type { VettingSqlStore } from './store.ts';
import type { PolicyPreview } from '../../../src/lib/vetting/contract.ts';

export interface StandingDeps {
  sql: SqlEngine;
  store: VettingSqlStore;
  held: Held;
  now: () => Date;
}

/** The preview's answer (`POST /api/local/policy/preview`): the route contract's. */
export type { PolicyPreview };
type PreviewEntry = PolicyPreview['would_fail'][number];

/** The current decision of every carrier that has one (the newest record of each DOT). */
async function allCurrentDecisions(deps: StandingDeps): Promise<CurrentRecord[]> {
  const rows = await deps.sql.query<{ dot_number: string }>(
    'SELECT DISTINCT dot_number FROM vetting_decision ORDER BY dot_number',
  );
  return deps.store.currentDecisions(rows.map((row) => row.dot_number));
}

function legalNameOf(record: CurrentRecord): string | null {
  const identity = (record.profile as { identity?: unknown } | null)?.identity;
  if (!Array.isArray(identity)) return null;
  const field = (identity as { name?: unknown; value?: unknown }[]).find(
    (f) => f?.name === 'legal_name',
  );
  return typeof field?.value === 'string' ? field.value : null;
}

/**
 * Every current decision whose standing or verdict differs between `before` and `after`, judged
 * on the same held data; carriers nothing is held of cannot change and count as unchanged.
 */
async function changesBetween(
  deps: StandingDeps,
  before: Policy,
  after: Policy,
): Promise<{ entries: PreviewEntry[]; total: number }> {
  const records = await allCurrentDecisions(deps);
  const held = await deps.held.gather(records);
  const now = deps.now();
  const entries: PreviewEntry[] = [];
  for (const record of records) {
    const was = heldVerdict(record, before, held, now);
    const will = heldVerdict(record, after, held, now);
    if (!was || !will) continue;
    const standingBefore = standingFor(record, was);
    const standingAfter = standingFor(record, will);
    if (standingBefore === standingAfter && was.verdict === will.verdict) continue;
    entries.push({
      dot_number: record.dot_number,
      legal_name: legalNameOf(record),
      decision: record.decision,
      decision_id: record.id,
      standing_before: standingBefore,
      standing_after: standingAfter,
      verdict_before: was.verdict,
      verdict_after: will.verdict,
      reasons: will.reasons,
    });
  }
  return { entries, total: records.length };
}

/** What saving `proposed` would change, against the current policy. */
export async function previewPolicy(
  deps: StandingDeps,
  current: Policy,
  proposed: Policy,
): Promise<PolicyPreview> {
  const { entries, total } = await changesBetween(deps, current, proposed);
  const bucket = (verdict: Outcome) => entries.filter((entry) => entry.verdict_after === verdict);
  return {
    version_from: current.version,
    would_fail: bucket('fail'),
    would_review: bucket('review'),
    would_pass: bucket('pass'),
    unchanged: total - entries.length,
  };
}

/** The decisions whose standing saving `saved` over `previous` changes: the rows to record. */
export async function standingChangesOf(
  deps: StandingDeps,
  previous: Policy,
  saved: Policy,
): Promise<PreviewEntry[]> {
  const { entries } = await changesBetween(deps, previous, saved);
  return entries.filter((entry) => entry.standing_before !== entry.standing_after);
}

/**
 * Record `changed` as the standing changes of policy `version`, inside the transaction that stores
 * that version (store.savePolicy's `within`), so a save and its "needs re-vet" rows land together.
 */
export async function insertStandingChanges(
  tx: SqlExecutor,
  version: number,
  changed: readonly PreviewEntry[],
  at: string,
): Promise<void> {
  for (const entry of changed) {
    await tx.run(
      `INSERT INTO vetting_standing_change (policy_version, dot_number, decision_id,
         standing_before, standing_after, verdict_after, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        version,
        entry.dot_number,
        entry.decision_id,
        entry.standing_before,
        entry.standing_after,
        entry.verdict_after,
        at,
      ],
    );
  }
}
