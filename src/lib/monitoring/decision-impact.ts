/**
 * Monitoring meets decisions (docs/vetting.md): a watched carrier whose current decision approves it
 * and whose verdict, re-evaluated on its changed fields, is now worse than the one it was approved
 * with ("fails" or "needs-review"), for the alert poller. The inbox shows the proxy's standing
 * instead (src/lib/decision-standing.ts), as every other screen does.
 */
import type { DecisionRecord } from '../vetting/decision-record.ts';
import { reevaluate, type Outcome, type Policy } from '../vetting/index.ts';
import type { InboxChange } from './inbox.ts';

export type DecisionImpact = 'fails' | 'needs-review';

const RANK: Record<Outcome, number> = { pass: 0, review: 1, fail: 2 };
const APPROVALS = new Set(['approved', 'approved_with_conditions']);

export function decisionImpact(
  record: DecisionRecord | undefined,
  changes: readonly InboxChange[],
  policy: Policy,
): DecisionImpact | undefined {
  if (!record || !APPROVALS.has(record.decision) || changes.length === 0) return undefined;
  // only changes seen after the decision count against it
  const day = record.decided_at.slice(0, 10);
  const after = changes.filter((change) => change.date === undefined || change.date >= day);
  if (after.length === 0) return undefined;
  const { verdict } = reevaluate(
    record.verdict,
    after.map((change) => ({ field: change.field, current: change.current, date: change.date })),
    policy,
  );
  if (RANK[verdict] <= RANK[record.verdict.verdict]) return undefined;
  return verdict === 'fail' ? 'fails' : 'needs-review';
}

/** Rows with an impact first (fails, then needs review), the others in their order. */
export function impactFirst<T extends { impact?: DecisionImpact | undefined }>(
  rows: readonly T[],
): T[] {
  const rank = (row: T) => (row.impact === 'fails' ? 0 : row.impact === 'needs-review' ? 1 : 2);
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row);
}
