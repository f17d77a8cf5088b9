/**
 * The carrier's current decision in the profile header (the newest record: a correction supersedes
 * what it corrects), "expired — re-vet" past its re-vet date, and the history of its records.
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

export function CurrentDecision({ dot }: { dot: string }) {
  const decisions = useDecisions({ dot_number: dot });
  if (decisions.isError) {
    return (
      <p className="mt-3 text-sm text-neutral-700 dark:text-neutral-300">
        Decisions could not be loaded: {decisions.error.message}
      </p>
    );
  }
  const items = decisions.data?.items ?? [];
  const current = items[0];
  return (
    <section aria-label="Decision" className="mt-3 text-sm" data-testid="current-decision">
      {decisions.isPending ? (
        <span className="text-neutral-600 dark:text-neutral-400">Loading the decision…</span>
      ) : current ? (
        <p className="flex flex-wrap items-center gap-2">
          <Badge tone={DECISION_TONE[current.decision]} label="Decision">
            {DECISION_LABELS[current.decision]}
          </Badge>
          {isExpired(current) ? (
            <Badge tone="bad" label="Re-vet">
              expired — re-vet
            </Badge>
          ) : null}
          <span className="text-neutral-700 dark:text-neutral-300">
            by {current.user.name} on {formatDateTime(current.decided_at)}
            {current.expires_on ? ` · re-vet by ${formatDate(current.expires_on)}` : ''}
          </span>
        </p>
      ) : (
        <p className="text-neutral-700 dark:text-neutral-300">No decision recorded.</p>
      )}
      {items.length > 0 ? (
        <details className="mt-1">
          <summary className="cursor-pointer text-neutral-800 dark:text-neutral-200">
            Decision history ({decisions.data?.total ?? items.length})
          </summary>
          <ol className="mt-1 space-y-1">
            {items.map((record) => (
              <li key={record.id}>
                #{record.id} {DECISION_LABELS[record.decision]} · verdict {record.verdict.verdict} ·{' '}
                {record.user.name} · {formatDateTime(record.decided_at)}
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
      ) : null}
    </section>
  );
}
