import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { usageQuery } from '../features/usage/api/usage.ts';
import { formatUsd } from '../lib/format.ts';
import { useServerReachable } from '../lib/server-reachable.ts';
import { useAppConfig } from './app-config.tsx';

/**
 * This month's spend in the header, on a live key only (sandbox and test keys bill nothing, and the
 * mode banner says so). Links to the Usage page; shows nothing until the amount is known, and
 * marks the amount "last known" while the server cannot be reached.
 */
export function HeaderSpend() {
  const { mode } = useAppConfig();
  const usage = useQuery({ ...usageQuery, enabled: mode === 'live' });
  const reachable = useServerReachable();
  if (mode !== 'live' || usage.data === undefined) return null;
  const { spentUsd, budgetUsd } = usage.data;
  return (
    <Link
      to="/usage"
      data-testid="header-spend"
      className="rounded-md px-2 py-1 text-sm whitespace-nowrap text-neutral-700 hover:bg-neutral-50 hover:text-neutral-950 dark:text-neutral-300 dark:hover:bg-neutral-800/60 dark:hover:text-neutral-50"
    >
      <span className="font-medium">{formatUsd(spentUsd)}</span>{' '}
      {/* a phone's first row holds the amount only; the words stay for screen readers */}
      <span className="max-sm:sr-only">
        this month
        {budgetUsd === undefined ? null : <> of {formatUsd(budgetUsd)}</>}
      </span>
      {reachable ? null : (
        <span className="text-neutral-500 dark:text-neutral-400"> (last known)</span>
      )}
    </Link>
  );
}
