/**
 * A page of search results read with the shared parser: full profiles (DOT, docket and VIN
 * searches) or lite profiles (the others, see `search-profiles.ts`). A VIN search's extra keys (`vin_decoded`, `vin_inspection_history`) are read from the first item's `extra` into
 * the shared `Vehicle` / `Inspection` shapes. Loaded on demand with the parsers (and zod under
 * them), never in the search page's initial bundle: see `search-profiles.ts`.
 */
import {
  parseLiteResponse,
  parseProfile,
  parseProfileResponse,
  type Inspection,
  type Profile,
  type Vehicle,
} from '../../../lib/service/index.ts';
import type { ResultRow } from '../lib/results-columns.ts';
import type { SearchRequest } from '../lib/search-params.ts';

export interface VinDetails {
  vehicle: Vehicle | undefined;
  inspections: Inspection[];
}

export interface SearchResults {
  items: ResultRow[];
  totalCount: number;
  /** Only for VIN searches that found the vehicle. */
  vin: VinDetails | undefined;
}

/**
 * The VIN extras of a result, read through the profile parser: the decoded vehicle has the shape of
 * an `equipment_history` record and the history that of `inspection_history`.
 */
export function readVinDetails(profile: Profile | undefined): VinDetails | undefined {
  const decoded = profile?.extra.vin_decoded;
  const history = profile?.extra.vin_inspection_history;
  if (decoded === undefined && history === undefined) return undefined;
  const parsed = parseProfile({
    equipment_history: decoded === undefined ? undefined : [decoded],
    inspection_history: history,
  }).value;
  return {
    vehicle: parsed.equipment_history?.[0],
    inspections: parsed.inspection_history ?? [],
  };
}

/** The answer of `GET /api/v2/profile` for `request`. */
export function readSearchResults(body: unknown, request: SearchRequest): SearchResults {
  const { items, total_count } = parseProfileResponse(body).value;
  return {
    items,
    totalCount: total_count,
    vin: request.key === 'vin' ? readVinDetails(items[0]) : undefined,
  };
}

/** The answer of `GET /api/v2/profile-lite`: the rows, never VIN details. */
export function readLiteResults(body: unknown): SearchResults {
  const { items, total_count } = parseLiteResponse(body).value;
  return { items, totalCount: total_count, vin: undefined };
}
