import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatCount, formatUsd } from '../../../../../lib/format.ts';
import {
  lookUpNames,
  lookupPricingQuery,
  type LookupPricing,
  type LookupProgress,
} from '../../../api/lookup-network.ts';
import { lookupCost } from './model.ts';

const BUTTON =
  'rounded-md border border-neutral-300 px-3 py-1.5 text-sm font-medium text-neutral-900 hover:bg-neutral-100 disabled:opacity-60 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800';
const PRIMARY =
  'rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300';

function carriers(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'carrier' : 'carriers'}`;
}

function CostLine({ n, pricing }: { n: number; pricing: LookupPricing }) {
  const cost = lookupCost(n, pricing.unitUsd, pricing.billed);
  return (
    <p>
      {carriers(n)} × {formatUsd(cost.unitUsd)} (lite profile, per new DOT this month) ={' '}
      <strong>{formatUsd(cost.totalUsd)}</strong>
      {cost.billed
        ? ' — billed to this key (DOTs already billed this month cost nothing more).'
        : ` — ${pricing.mode ?? 'sandbox/test'} mode: not billed.`}
      {pricing.assumed ? ' Price as published; the proxy did not report one.' : ''}
    </p>
  );
}

function ProgressLine({ progress }: { progress: LookupProgress }) {
  const finished = progress.done === progress.total || progress.stoppedBy;
  return (
    <p role="status">
      {finished ? 'Looked up' : 'Looking up'} {formatCount(progress.done)} of{' '}
      {carriers(progress.total)}
      {progress.failed.length ? `; ${formatCount(progress.failed.length)} failed` : ''}
      {progress.stoppedBy ? `. Stopped: ${progress.stoppedBy.message}` : '.'}
    </p>
  );
}

/** The explicit, costed action to name the carriers nobody has named yet. */
export function NameLookup({ unnamed }: { unnamed: readonly string[] }) {
  const queryClient = useQueryClient();
  const pricing = useQuery({ ...lookupPricingQuery, enabled: unnamed.length > 0 });
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<LookupProgress | undefined>();
  const running = progress !== undefined && progress.done < progress.total && !progress.stoppedBy;

  async function run() {
    const dots = [...unnamed];
    setConfirming(false);
    setProgress({ done: 0, total: dots.length, failed: [] });
    setProgress(await lookUpNames(queryClient, dots, setProgress));
  }

  if (!unnamed.length && !progress) {
    return (
      <p className="text-sm">
        Nothing left to look up: every linked carrier is named or was already looked up.
      </p>
    );
  }
  return (
    <div className="space-y-2 text-sm">
      {unnamed.length && !confirming && !running ? (
        <button type="button" className={BUTTON} onClick={() => setConfirming(true)}>
          Look up names for {carriers(unnamed.length)}
        </button>
      ) : null}
      {confirming ? (
        <div
          role="group"
          aria-label="Confirm name look-up"
          className="space-y-2 rounded-md border border-neutral-300 p-3 dark:border-neutral-700"
        >
          {pricing.data ? (
            <CostLine n={unnamed.length} pricing={pricing.data} />
          ) : (
            <p>
              {pricing.isError ? 'Could not read the price from the proxy.' : 'Reading the price…'}
            </p>
          )}
          <div className="flex gap-2">
            <button
              type="button"
              className={PRIMARY}
              disabled={!pricing.data}
              onClick={() => void run()}
            >
              Confirm: look up {carriers(unnamed.length)}
            </button>
            <button type="button" className={BUTTON} onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      {progress ? <ProgressLine progress={progress} /> : null}
    </div>
  );
}
