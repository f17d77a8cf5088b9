/**
 * The search page's URL is its state: `/search?company=hansen&page=2&sort=risk&order=desc`. One
 * search key (named as the API names it), the optional `plate_state` / `unit_type`, the page, and
 * how the page's rows are sorted (`sort`, `order`: ours, never sent to the service, which has no
 * sort parameter). Anything else in the URL is ignored; a URL with no usable key is "no search yet".
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

/** Columns of the results table that a page of results can be sorted by (`sort=`). */
export const RESULT_SORT_COLUMNS = [
  'name',
  'dot',
  'docket',
  'place',
  'usdot',
  'authority',
  'insurance',
  'risk',
] as const;
export type ResultSortColumn = (typeof RESULT_SORT_COLUMNS)[number];

/** How the rows of one page are sorted: a column and a direction (`order=desc`). */
export interface ResultsSort {
  column: ResultSortColumn;
  desc: boolean;
}

/** The sort named by the URL, or undefined (the service's own order). */
export function sortFromParams(params: URLSearchParams): ResultsSort | undefined {
  const raw = params.get('sort');
  const column = RESULT_SORT_COLUMNS.find((name) => name === raw);
  if (column === undefined) return undefined;
  return { column, desc: params.get('order') === 'desc' };
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

/**
 * The URL query of a search and of the sort of its rows; page 1 and ascending order are left out,
 * so each view has one canonical URL.
 */
export function searchToParams(request: SearchRequest, sort?: ResultsSort): URLSearchParams {
  const params = new URLSearchParams();
  params.set(request.key, request.value);
  if (request.key === 'plate_number' && request.plateState) {
    params.set('plate_state', request.plateState);
  }
  if (request.key === 'unit_number' && request.unitType) params.set('unit_type', request.unitType);
  if (request.page > 1) params.set('page', String(request.page));
  if (sort) {
    params.set('sort', sort.column);
    if (sort.desc) params.set('order', 'desc');
  }
  return params;
}

/** `/search?...` for a request: what links and navigation use. */
export function searchPath(request: SearchRequest): string {
  return `/search?${searchToParams(request).toString()}`;
}

/** The `/v2/profile` parameters of a request (the API's names, plus `pageSize`; never the sort). */
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
