import { useIsFetching } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { carrierKeys } from '../../../entities/carrier/keys.ts';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatCount, formatUsd } from '../../../lib/format.ts';
import {
  NAME_LOOKUP_MAX,
  useNameLookup,
  useNameLookupEstimate,
  type NameLookupEstimate,
  type NameLookupResult,
} from '../api/name-lookup.ts';
import { BUTTON, MUTED } from './ui.ts';

const ENDPOINT_LABELS: Record<string, string> = {
  'profile-fmcsa': 'FMCSA record',
  'profile-lite': 'lite profile',
};

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

function problemText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

function CostText({ estimate }: { estimate: NameLookupEstimate }) {
  const what = ENDPOINT_LABELS[estimate.endpoint] ?? estimate.endpoint;
  return (
    <p className="text-sm">
      <span className="font-medium">
        Looking up {plural(estimate.to_look_up, 'name', 'names')} costs{' '}
        {formatUsd(estimate.billed ? estimate.cost_usd : estimate.metered_cost_usd)}
      </span>{' '}
      ({formatCount(estimate.billable)} × {formatUsd(estimate.unit_price_usd)}, one {what} each
      {estimate.endpoint === 'profile-fmcsa' ? ', nothing for a carrier not found' : ''}).
      {estimate.billed ? '' : ' Sandbox or test key: nothing is billed.'}
      {estimate.within_budget ? '' : ' This would exceed the monthly budget.'}
    </p>
  );
}

function ResultText({ result }: { result: NameLookupResult }) {
  const named = Object.keys(result.named).length;
  const parts = [`Named ${plural(named, 'carrier', 'carriers')}`];
  if (result.not_found.length > 0) parts.push(`${formatCount(result.not_found.length)} not found`);
  if (result.failed.length > 0) parts.push(`${formatCount(result.failed.length)} failed`);
  return (
    <p className="text-sm" role="status">
      {parts.join(', ')}.{result.stopped ? ` Stopped early: ${result.stopped.error}.` : ''}
    </p>
  );
}

/**
 * "Look up N names": for watched carriers on this page that no answer has named yet. Shows the
 * cost first and looks them up only when the user confirms it.
 */
export function NameLookup({
  profiles,
  names,
}: {
  profiles: readonly MonitoredProfile[];
  names: ReadonlyMap<string, string>;
}) {
  const estimate = useNameLookupEstimate();
  const lookup = useNameLookup();
  const [open, setOpen] = useState(false);
  // while the names the proxy holds are being read, every carrier would look unnamed
  const readingNames = useIsFetching({ queryKey: [...carrierKeys.all, 'held-names'] }) > 0;
  const dots = useMemo(
    () => [...new Set(profiles.map((p) => p.dot).filter((dot) => !names.has(dot)))],
    [profiles, names],
  );
  const asked = dots.slice(0, NAME_LOOKUP_MAX);
  const reset = () => {
    setOpen(false);
    estimate.reset();
  };
  if ((asked.length === 0 || (readingNames && !open)) && !lookup.data) return null;

  return (
    <div className="flex flex-col gap-2 rounded-lg border border-neutral-200 p-3 dark:border-neutral-800">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm">
          {asked.length > 0
            ? `${plural(dots.length, 'carrier', 'carriers')} on this page ${dots.length === 1 ? 'has' : 'have'} no known name.`
            : 'Every carrier on this page is named.'}
        </p>
        {asked.length > 0 && !open ? (
          <button
            type="button"
            className={BUTTON}
            disabled={estimate.isPending}
            onClick={() => {
              lookup.reset();
              setOpen(true);
              estimate.mutate(asked);
            }}
          >
            {estimate.isPending
              ? 'Working out the cost…'
              : `Look up ${plural(asked.length, 'name', 'names')}`}
          </button>
        ) : null}
      </div>
      {open && estimate.isPending ? <p className={MUTED}>Working out the cost…</p> : null}
      {open && estimate.error ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          Could not work out the cost: {problemText(estimate.error)}
        </p>
      ) : null}
      {open && estimate.data ? (
        <div className="flex flex-col gap-2">
          <CostText estimate={estimate.data} />
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className={BUTTON}
              disabled={
                lookup.isPending || estimate.data.to_look_up === 0 || !estimate.data.within_budget
              }
              onClick={() => {
                const seen = estimate.data;
                lookup.mutate(
                  { dots: asked, maxCostUsd: seen.metered_cost_usd },
                  { onSettled: reset },
                );
              }}
            >
              {lookup.isPending
                ? 'Looking up…'
                : `Look up for ${formatUsd(estimate.data.billed ? estimate.data.cost_usd : estimate.data.metered_cost_usd)}`}
            </button>
            <button type="button" className={BUTTON} disabled={lookup.isPending} onClick={reset}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {lookup.error ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          The look-up failed: {problemText(lookup.error)}
        </p>
      ) : null}
      {lookup.data ? <ResultText result={lookup.data} /> : null}
    </div>
  );
}
