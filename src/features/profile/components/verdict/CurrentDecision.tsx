/**
 * The carrier's current decision beside the verdict (the newest record: a correction supersedes
 * what it corrects) with its standing against the verdict now, and the history of its records.
 */
import { Link } from 'react-router';
import { DecisionStanding } from '../../../../components/DecisionStanding.tsx';
import { standingFor } from '../../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../../entities/vetting/standing.ts';
import { formatDate, formatDateTime } from '../../../../lib/format.ts';
import { DECISION_LABELS } from '../../../../lib/vetting/decision-record.ts';
import { useDecisions } from '../../../../entities/vetting/decisions.ts';

/**
 * "Decision: Approved 20 Nov — now fails policy v2 (2 reasons)" (its standing under the current
 * policy, from the proxy: the same words as every other screen), the re-vet date, or "No decision
 * recorded". `compact` (the strip on the tabs other than the Overview): on a phone, no date.
 * `basis` ties it to the verdict shown beside it: when that verdict is computed on newer data (a
 * change the inbox reported) or under another policy, the standing is asked again.
 */
export function DecisionState({
  dot,
  compact = false,
  basis,
}: {
  dot: string;
  compact?: boolean;
  /** the verdict beside it ("policy version@fetched at"): a newer one asks the standing again */
  basis?: string;
}) {
  const standings = useDecisionStandings([dot], true, basis);
  if (standings.isError) {
    return <span>The decision could not be loaded: {standings.error.message}</span>;
  }
  if (standings.isPending) {
    return <span className="text-neutral-700 dark:text-neutral-300">Loading the decision…</span>;
  }
  const current = standingFor(standings.data, dot);
  if (!current)
    return <span className="text-neutral-800 dark:text-neutral-200">No decision recorded</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-1">
      <DecisionStanding item={current} label="Decision" narrow brief marksOnPhone={!compact} />
      {current.expires_on ? (
        <span className="text-neutral-800 max-sm:hidden dark:text-neutral-200">
          re-vet by {formatDate(current.expires_on)}
        </span>
      ) : null}
    </span>
  );
}

/** Every record of the carrier, newest first, behind a disclosure (nothing when there is none). */
export function DecisionHistory({ dot }: { dot: string }) {
  const decisions = useDecisions({ dot_number: dot });
  const items = decisions.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <details className="mt-1.5 text-sm">
      <summary className="cursor-pointer text-neutral-800 dark:text-neutral-200">
        Decision history ({decisions.data?.total ?? items.length})
      </summary>
      <ol className="mt-1 space-y-1">
        {items.map((record) => (
          <li key={record.id}>
            #{record.id} {DECISION_LABELS[record.decision]} · verdict {record.verdict.verdict} ·{' '}
            {record.user.name} · {formatDateTime(record.decided_at)}
            {record.expires_on ? ` · re-vet by ${formatDate(record.expires_on)}` : ''}
            {record.note ? ` — ${record.note}` : ''}{' '}
            <Link
              to={`/decisions/${record.id}`}
              className="text-sky-800 underline dark:text-sky-300"
            >
              Record #{record.id}
            </Link>
          </li>
        ))}
      </ol>
      <Link
        to={`/decisions?dot_number=${dot}`}
        className="text-sky-800 underline dark:text-sky-300"
      >
        All decisions on this carrier
      </Link>
    </details>
  );
}
