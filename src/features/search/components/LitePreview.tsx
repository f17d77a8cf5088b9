/**
 * A quick look at one carrier from the lite profile (`/api/v2/profile-lite`): status, authority,
 * insurance, risk and fleet size, labelled with what the call costs. A carrier the service does not
 * know (404) is an answer, shown as such, not an error.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../components/Skeleton.tsx';
import {
  MISSING,
  TRI_STATE_LABELS,
  formatCount,
  formatDate,
  formatRiskScore,
  formatUsd,
  triState,
} from '../../../lib/format.ts';
import { liteProfileQuery } from '../../../entities/carrier/lite-profile.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { unitUsd } from '../../../lib/service/endpoints.ts';
import type { LiteProfile } from '../../../lib/service/index.ts';
import { usePricing, type Pricing } from '../api/get-prices.ts';
import { authoritySummary, docketOf, placeOf, usdotSummary } from '../lib/carrier-summary.ts';

/** The price fallback when the proxy does not list one: the published lite price. */
const LITE_PRICE_USD = unitUsd('profile-lite');

export function liteCostLabel(pricing: Pricing | undefined): string {
  const usd = pricing?.prices['profile-lite']?.usd ?? LITE_PRICE_USD;
  const price = `${formatUsd(usd)} per new DOT per month`;
  return pricing?.billed ? `Preview cost: ${price}` : `Preview: not billed here (live: ${price})`;
}

interface LitePreviewProps {
  dot: string;
  name: string;
  onClose: () => void;
}

export function LitePreview({ dot, name, onClose }: LitePreviewProps) {
  const lite = useQuery(liteProfileQuery(dot));
  const pricing = usePricing();
  return (
    <section
      aria-label={`Preview of ${name}`}
      className="space-y-3 rounded-lg border border-sky-200 bg-sky-50/60 p-4 dark:border-sky-900 dark:bg-sky-950/40"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-base font-semibold text-neutral-950 dark:text-neutral-50">
            Preview: {name}
          </h2>
          <p className="text-xs text-neutral-700 dark:text-neutral-300">
            {liteCostLabel(pricing.data)}
          </p>
        </div>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md border border-neutral-300 px-2 py-1 text-sm hover:bg-white dark:border-neutral-700 dark:hover:bg-neutral-800"
        >
          Close preview
        </button>
      </div>
      {lite.isPending ? <LoadingBlock label="Loading preview" lines={3} /> : null}
      {lite.isError ? (
        <ErrorState error={lite.error} what="the preview" onRetry={() => void lite.refetch()} />
      ) : null}
      {lite.isSuccess ? <LiteFacts dot={dot} lite={lite.data} /> : null}
    </section>
  );
}

function LiteFacts({ dot, lite }: { dot: string; lite: LiteProfile | null }) {
  if (!lite) return <p className="text-sm">The service has no lite profile for DOT {dot}.</p>;
  const facts: [string, string][] = [
    ['DOT / docket', `${lite.dot_number ?? dot} / ${docketOf(lite) ?? MISSING}`],
    ['Location', placeOf(lite)],
    ['USDOT status', usdotSummary(lite)],
    ['Authority', authoritySummary(lite)],
    ['Authority check', TRI_STATE_LABELS[triState(lite.indicator_authority)]],
    ['Insurance check', TRI_STATE_LABELS[triState(lite.indicator_insurance)]],
    ['Risk', formatRiskScore(lite.risk_score)],
    [
      'Power units / drivers',
      `${formatCount(lite.total_power_units)} / ${formatCount(lite.total_drivers)}`,
    ],
    ['Inspections', formatCount(lite.inspections_total)],
    ['Snapshot', formatDate(lite.snapshot_date)],
  ];
  return (
    <>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {facts.map(([term, value]) => (
          <div
            key={term}
            className="flex justify-between gap-3 border-b border-sky-100 py-1 dark:border-sky-900/60"
          >
            <dt className="text-neutral-600 dark:text-neutral-400">{term}</dt>
            <dd className="text-right font-medium text-neutral-950 dark:text-neutral-50">
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Link
        to={carrierPath(lite.dot_number ?? dot)}
        className="inline-block text-sm font-medium text-sky-800 underline underline-offset-2 dark:text-sky-300"
      >
        Open the full profile
      </Link>
    </>
  );
}
