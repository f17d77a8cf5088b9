/**
 * The re-vet queue on the Decisions page (`?revet=due`): every carrier whose current decision's
 * re-vet date has passed or falls within 14 days (`GET /api/local/decisions/revet-due`), most
 * overdue first; and the switch between it and every record.
 */
import { Link } from 'react-router';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { MUTED } from '../../../components/controls.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate } from '../../../lib/format.ts';
import { DECISION_LABELS } from '../../../lib/vetting/decision-record.ts';
import { useRevetDue } from '../api/decisions.ts';
import { dueWords } from '../model/revet.ts';

const LINK = 'text-sky-800 underline dark:text-sky-300';
const TAB =
  'inline-flex min-h-11 items-center gap-1.5 rounded-md border px-3 text-sm font-medium sm:min-h-9';
const TAB_ON =
  'border-neutral-900 bg-neutral-900 text-white dark:border-neutral-100 dark:bg-neutral-100 dark:text-neutral-900';
const TAB_OFF =
  'border-neutral-300 text-neutral-800 hover:bg-neutral-50 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-800';

/** "All records" and "Re-vet due (n)": two links, the shown one marked current. */
export function RevetViewSwitch({ due }: { due: boolean }) {
  const queue = useRevetDue();
  const count = queue.data ? queue.data.overdue + queue.data.soon : undefined;
  return (
    <nav aria-label="Decisions view" className="mt-4 flex flex-wrap gap-2">
      <Link
        to="/decisions"
        aria-current={due ? undefined : 'page'}
        className={`${TAB} ${due ? TAB_OFF : TAB_ON}`}
      >
        All records
      </Link>
      <Link
        to="/decisions?revet=due"
        aria-current={due ? 'page' : undefined}
        className={`${TAB} ${due ? TAB_ON : TAB_OFF}`}
      >
        Re-vet due{count === undefined ? '' : ` (${count})`}
      </Link>
    </nav>
  );
}

/** The queue itself. */
export function RevetDueList() {
  const queue = useRevetDue();
  if (queue.isError) {
    return (
      <ErrorState
        error={queue.error}
        what="the re-vet queue"
        onRetry={() => void queue.refetch()}
        retrying={queue.isFetching}
      />
    );
  }
  if (!queue.data) return <p className={`mt-4 ${MUTED}`}>Loading the re-vet queue…</p>;
  const { items, as_of: asOf, within_days: within, overdue, soon } = queue.data;
  return (
    <section aria-labelledby="revet-due-heading" className="mt-4">
      <h2 id="revet-due-heading" className="text-lg font-semibold">
        Re-vet due
      </h2>
      <p className={MUTED}>
        Current decisions whose re-vet date has passed or falls within {within} days (today is{' '}
        {formatDate(asOf)}, UTC): {overdue} overdue, {soon} due soon.
      </p>
      {items.length === 0 ? (
        <p className="mt-3 text-neutral-700 dark:text-neutral-300" data-testid="no-revet-due">
          No decision is due for re-vetting in the next {within} days.
        </p>
      ) : (
        <ul aria-label="Decisions due for re-vet, most overdue first" className="mt-3 space-y-2">
          {items.map((item) => (
            <li
              key={item.id}
              data-due={item.due}
              className={`rounded-md border-y border-r border-l-4 bg-white p-3 text-sm dark:bg-neutral-900 ${item.due === 'overdue' ? 'border-y-neutral-200 border-r-neutral-200 border-l-red-700 dark:border-y-neutral-800 dark:border-r-neutral-800 dark:border-l-red-400' : 'border-y-neutral-200 border-r-neutral-200 border-l-amber-600 dark:border-y-neutral-800 dark:border-r-neutral-800 dark:border-l-amber-400'}`}
            >
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <Link
                  to={carrierPath(item.dot_number)}
                  className={`${LINK} font-medium break-words`}
                >
                  {item.legal_name ?? `USDOT ${item.dot_number}`}
                </Link>
                <span className={MUTED}>USDOT {item.dot_number}</span>
                <span>{DECISION_LABELS[item.decision]}</span>
              </div>
              <p className="mt-1">
                Re-vet by {formatDate(item.expires_on)}:{' '}
                <strong
                  className={
                    item.due === 'overdue'
                      ? 'text-red-800 dark:text-red-300'
                      : 'text-amber-900 dark:text-amber-200'
                  }
                >
                  {dueWords(item.expires_on, asOf)}
                </strong>{' '}
                ·{' '}
                <Link to={`/decisions/${item.id}`} className={LINK}>
                  Record #{item.id}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
