/**
 * The search page's URL is its state: `/search?company=hansen&page=2`. One search key (named as
 * the API names it), the optional `plate_state` / `unit_type`, and the page. Anything else in the
 * URL is ignored; a URL with no usable key is "no search yet".
 */
import { SEARCH_KEYS, SEARCH_KEY_LABELS, type SearchKey } from './search-keys.ts';

export const UNIT_TYPES = ['TRUCK', 'TRAILER'] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

/** Small pages: every carrier on a page is a full (billed) profile. */
export const RESULTS_PAGE_SIZE = 10;

export interface SearchRequest {
  key: SearchKey;
  value: string;
  /** Two-letter state narrowing a plate search. */
  plateState?: string | undefined;
  /** TRUCK or TRAILER narrowing a unit-number search. */
  unitType?: UnitType | undefined;
  /** 1-based page of results. */
  page: number;
}

function readPage(raw: string | null): number {
  if (raw === null || !/^\d{1,6}$/.test(raw)) return 1;
  return Math.max(1, Number(raw));
}

function readUnitType(raw: string | null): UnitType | undefined {
  const upper = raw?.trim().toUpperCase();
  return UNIT_TYPES.find((type) => type === upper);
}

function readPlateState(raw: string | null): string | undefined {
  const trimmed = raw?.trim().toUpperCase();
  return trimmed ? trimmed : undefined;
}

/** The first search key with a non-blank value wins; undefined when there is none. */
export function searchFromParams(params: URLSearchParams): SearchRequest | undefined {
  const key = SEARCH_KEYS.find((name) => (params.get(name) ?? '').trim() !== '');
  if (key === undefined) return undefined;
  return {
    key,
    value: (params.get(key) ?? '').trim(),
    plateState: key === 'plate_number' ? readPlateState(params.get('plate_state')) : undefined,
    unitType: key === 'unit_number' ? readUnitType(params.get('unit_type')) : undefined,
    page: readPage(params.get('page')),
  };
}

/** The URL query of a search; page 1 is left out so the first page has one canonical URL. */
export function searchToParams(request: SearchRequest): URLSearchParams {
  const params = new URLSearchParams();
  params.set(request.key, request.value);
  if (request.key === 'plate_number' && request.plateState) {
    params.set('plate_state', request.plateState);
  }
  if (request.key === 'unit_number' && request.unitType) params.set('unit_type', request.unitType);
  if (request.page > 1) params.set('page', String(request.page));
  return params;
}

/** `/search?...` for a request: what links and navigation use. */
export function searchPath(request: SearchRequest): string {
  return `/search?${searchToParams(request).toString()}`;
}

/** The `/v2/profile` parameters of a request (the API's names, plus `pageSize`). */
export function profileQueryParams(request: SearchRequest): Record<string, string | number> {
  const params: Record<string, string | number> = Object.fromEntries(searchToParams(request));
  params.page = request.page;
  params.pageSize = RESULTS_PAGE_SIZE;
  return params;
}

/** A request in words, for status lines and captions: `Company name “hansen” (TX)`. */
export function describeSearch(request: SearchRequest): string {
  const extra = request.plateState ?? request.unitType;
  return `${SEARCH_KEY_LABELS[request.key]} “${request.value}”${extra ? ` (${extra})` : ''}`;
}
