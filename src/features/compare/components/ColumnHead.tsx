import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import { describeError } from '../../../components/ErrorState.tsx';
import type { DecisionStanding as Standing } from '../../../lib/decision-standing.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDateTime, formatUsd } from '../../../lib/format.ts';
import {
  heldProfileQuery,
  useFetchProfile,
  useProfileCost,
  type ProfileCost,
} from '../api/profiles.ts';

const SMALL_BUTTON =
  'min-h-6 min-w-6 rounded-md border border-neutral-300 px-1.5 py-0.5 text-xs font-medium text-neutral-800 hover:bg-neutral-100 disabled:opacity-40 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800';
const FETCH_BUTTON =
  'mt-1 rounded-md bg-neutral-900 px-2 py-1 text-xs font-medium text-white hover:bg-neutral-700 disabled:opacity-50 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300';
const NOTE = 'mt-1 text-xs font-normal text-neutral-700 dark:text-neutral-300';

/** The price on the button: the published price, or why it is free. */
function costWords(cost: ProfileCost | undefined): string {
  if (!cost) return 'cost being checked';
  if (cost.billing && !cost.billing.billed) return 'free in sandbox';
  if (cost.costUsd === 0) return 'free: already billed this month';
  return formatUsd(cost.costUsd);
}

function NotHeld({ dot, who }: { dot: string; who: string }) {
  const cost = useProfileCost(dot, true);
  const fetch = useFetchProfile(dot);
  const words = costWords(cost.data);
  return (
    <div className={NOTE} data-cost={dot}>
      <p>
        Not fetched yet: fetching the profile costs{' '}
        <strong>
          {cost.data?.billing && !cost.data.billing.billed
            ? `${formatUsd(cost.data.unitPriceUsd)} on a live key, free in sandbox`
            : words}
        </strong>
        .{cost.data && !cost.data.withinBudget ? ' It would exceed the monthly budget.' : ''}
      </p>
      <button
        type="button"
        className={`${FETCH_BUTTON} print:hidden`}
        disabled={fetch.isPending || !cost.data}
        onClick={() => fetch.mutate()}
      >
        {fetch.isPending ? 'Fetching…' : `Fetch profile (${words})`}
        <span className="sr-only"> of {who}</span>
      </button>
      {fetch.isError ? (
        <p role="alert" className="mt-1 text-red-800 dark:text-red-300">
          {describeError(fetch.error).title}
        </p>
      ) : null}
    </div>
  );
}

interface ColumnHeadProps {
  dot: string;
  title: string;
  index: number;
  count: number;
  /** the carrier's current decision and its standing now, when one is recorded */
  standing?: Standing | undefined;
  onMove: (from: number, to: number) => void;
  onRemove: (dot: string) => void;
}

function HeldState({ dot, who }: { dot: string; who: string }) {
  // The page's query for the same DOT: one cache entry, one request.
  const held = useQuery(heldProfileQuery(dot));
  if (held.isPending) return <p className={NOTE}>Checking whether the profile is held…</p>;
  if (held.isError) {
    return (
      <div className={NOTE} role="alert">
        {describeError(held.error).title}{' '}
        <button type="button" className={SMALL_BUTTON} onClick={() => void held.refetch()}>
          Try again<span className="sr-only"> for {who}</span>
        </button>
      </div>
    );
  }
  const { data } = held;
  if (data.state === 'not-held') return <NotHeld dot={dot} who={who} />;
  if (data.state === 'unknown-carrier') {
    return <p className={NOTE}>The service has no carrier with this DOT number.</p>;
  }
  return data.fetchedAt ? <p className={NOTE}>Data of {formatDateTime(data.fetchedAt)}</p> : null;
}

/** A carrier's column heading: name, DOT, what is held or what fetching costs, and its controls. */
export function ColumnHead({
  dot,
  title,
  index,
  count,
  standing,
  onMove,
  onRemove,
}: ColumnHeadProps) {
  return (
    <div className="flex flex-col items-start gap-0.5">
      <Link
        to={carrierPath(dot)}
        className="font-semibold text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 print:text-neutral-950 print:no-underline"
      >
        {title}
      </Link>
      <span className="text-xs font-normal text-neutral-700 dark:text-neutral-300">DOT {dot}</span>
      <HeldState dot={dot} who={title} />
      {standing ? (
        <div className="mt-1 text-left font-normal">
          <DecisionStanding item={standing} label="Decision" link />
        </div>
      ) : null}
      <div className="mt-1 flex flex-wrap gap-1 print:hidden">
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
          aria-label={`Move ${title} left`}
        >
          ←
        </button>
        <button
          type="button"
          className={SMALL_BUTTON}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
          aria-label={`Move ${title} right`}
        >
          →
        </button>
        <button type="button" className={SMALL_BUTTON} onClick={() => onRemove(dot)}>
          Remove<span className="sr-only"> {title}</span>
        </button>
      </div>
    </div>
  );
}
