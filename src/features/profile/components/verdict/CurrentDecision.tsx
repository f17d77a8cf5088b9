/**
 * The carrier's current decision beside the verdict (the newest record: a correction supersedes
 * what it corrects), "expired — re-vet" past its re-vet date, and the history of its records. Both
 * parts read the same query.
 */
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../../components/Badge.tsx';
import { formatDate, formatDateTime } from '../../../../lib/format.ts';
import {
  DECISION_LABELS,
  isExpired,
  useDecisions,
  type Decision,
} from '../../../../lib/vetting-api.ts';

const DECISION_TONE: Record<Decision, BadgeTone> = {
  approved: 'good',
  approved_with_conditions: 'warn',
  rejected: 'bad',
  do_not_use: 'bad',
};

/** "✓ Decision: Approved 20 Nov 2026 · re-vet by 10 Dec 2026", or "No decision recorded". */
/** `compact` (the strip on the tabs other than the Overview): on a phone, the state alone. */
export function DecisionState({ dot, compact = false }: { dot: string; compact?: boolean }) {
  const decisions = useDecisions({ dot_number: dot });
  if (decisions.isError) {
    return <span>Decisions could not be loaded: {decisions.error.message}</span>;
  }
  if (decisions.isPending) {
    return <span className="text-neutral-700 dark:text-neutral-300">Loading the decision…</span>;
  }
  const current = decisions.data.items[0];
  if (!current)
    return <span className="text-neutral-800 dark:text-neutral-200">No decision recorded</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-1">
      <Badge tone={DECISION_TONE[current.decision]} label="Decision">
        {DECISION_LABELS[current.decision]}
      </Badge>
      <span className={`text-neutral-800 dark:text-neutral-200 ${compact ? 'max-sm:hidden' : ''}`}>
        <time dateTime={current.decided_at} title={formatDateTime(current.decided_at)}>
          {formatDate(current.decided_at)}
        </time>
        {current.expires_on ? ` · re-vet by ${formatDate(current.expires_on)}` : ''}
      </span>
      {isExpired(current) ? (
        <Badge tone="bad" label="Re-vet">
          expired — re-vet
        </Badge>
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
