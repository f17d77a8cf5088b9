/**
 * What a search costs, said before it is run (the search form) and next to the pages of results:
 * on a live key every carrier a search returns is billed once per calendar month, as a lite profile
 * (list searches) or a full profile (DOT, docket, VIN), see `resultsEndpoint`.
 */
import { formatUsd } from '../../../lib/format.ts';
import { unitUsd } from '../../../lib/service/endpoints.ts';
import type { Pricing } from '../api/get-prices.ts';
import { resultsEndpoint } from '../api/search-profiles.ts';
import type { SearchKey } from './search-keys.ts';
import { RESULTS_PAGE_SIZE } from './search-params.ts';

function what(key: SearchKey, usd: number): string {
  const each = `${formatUsd(usd)} per new DOT per month`;
  if (key === 'dot_number') return `${each} (the full profile)`;
  if (resultsEndpoint(key) === 'profile') return `${each} for each carrier found (full profiles)`;
  return `up to ${formatUsd(usd * RESULTS_PAGE_SIZE)} a page of ${RESULTS_PAGE_SIZE} (lite profiles, ${each})`;
}

/** "Cost: up to $5.00 a page of 10 (lite profiles, $0.50 per new DOT per month)." */
export function searchCostLabel(pricing: Pricing | undefined, key: SearchKey): string {
  const endpoint = resultsEndpoint(key);
  // The published price (the contract's table) until the proxy's own list has arrived.
  const usd = pricing?.prices[endpoint]?.usd ?? unitUsd(endpoint);
  return pricing?.billed
    ? `Cost: ${what(key, usd)}.`
    : `Not billed here; on a live key ${what(key, usd)}.`;
}
