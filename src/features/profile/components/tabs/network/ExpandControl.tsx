import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../../lib/format.ts';
import {
  expandCostQuery,
  fetchGraphProfile,
  heldGraphProfileQuery,
} from '../../../api/graph-profiles.ts';

const PRIMARY =
  'rounded-md bg-neutral-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-neutral-700 disabled:opacity-60 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300';

/**
 * Hop out from one carrier: its cost first (free when the page or the proxy holds its profile:
 * asked with only-if-cached, never billed; else the proxy's estimate, which says when the mode
 * bills nothing), then the button that fetches it. Nothing is fetched from the service before the
 * click.
 */
export function ExpandControl({ dot, onExpand }: { dot: string; onExpand: (dot: string) => void }) {
  const client = useQueryClient();
  const held = useQuery(heldGraphProfileQuery(client, dot));
  const notHeld = held.data?.state === 'not-held';
  const cost = useQuery({ ...expandCostQuery(dot), enabled: notHeld });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function expand() {
    if (held.data?.state === 'held') {
      onExpand(dot);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const result = await fetchGraphProfile(client, dot);
      if (result.state === 'held') onExpand(dot);
      else setError('The service knows no carrier with this DOT.');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The profile could not be fetched.');
    } finally {
      setBusy(false);
    }
  }

  let line: string;
  let label = `Expand DOT ${dot}`;
  let ready = false;
  if (held.isPending) line = 'Checking whether its profile is already held…';
  else if (held.isError) line = 'Could not ask the proxy whether it holds this profile.';
  else if (held.data.state === 'unknown-carrier')
    line = 'The service knows no carrier with this DOT.';
  else if (held.data.state === 'held') {
    line = 'Cost: free — its profile is already held (nothing is billed).';
    ready = true;
  } else if (cost.data) {
    const price = formatUsd(cost.data.costUsd);
    if (cost.data.billing?.billed === false) {
      line = `Cost: free — ${cost.data.billing.note} (a live key would be billed ${price} for this full profile).`;
      label = `Confirm: expand DOT ${dot} (free)`;
    } else {
      line =
        cost.data.costUsd > 0
          ? `Cost: ${price} — one full profile at ${formatUsd(cost.data.unitPriceUsd)} per new DOT this month, billed to this key.`
          : 'Cost: free — this DOT was already billed this month.';
      label = `Confirm: expand DOT ${dot} for ${price}`;
    }
    ready = true;
  } else line = cost.isError ? 'Could not read the cost from the proxy.' : 'Reading the cost…';

  return (
    <div
      role="group"
      aria-label={`Expand DOT ${dot}`}
      className="space-y-2 rounded-md border border-neutral-300 p-3 text-sm dark:border-neutral-700"
    >
      <p data-testid="expand-cost">{line}</p>
      {held.data?.state !== 'unknown-carrier' ? (
        <button
          type="button"
          className={PRIMARY}
          disabled={!ready || busy}
          onClick={() => void expand()}
        >
          {busy ? `Fetching DOT ${dot}…` : label}
        </button>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </div>
  );
}
