/**
 * Slices of one carrier's profile cut by the proxy (`GET /api/local/profile-view`, contract in
 * docs/proxy.md): a page of a history (sorted and filtered by the proxy), the map's points, and
 * the filter choices and per-state counts over the whole history. The history tabs ask for these
 * instead of downloading the full profile (13.5 MB for the heaviest carrier). Each row's `item` is
 * the history element as the service sent it, read with the shared parser like the full profile.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import {
  profileViewNetworkSchema,
  profileViewPageSchema,
  profileViewPointsSchema,
  type PagedView,
} from '../../../lib/carrier/contract.ts';
import { parseProfile, type Profile } from '../../../lib/service/index.ts';
import { profileKeys } from './keys.ts';

const PATH = '/api/local/profile-view';

/** The paged views and the history of the profile each one pages through. */
const HISTORY_OF = {
  inspections: 'inspection_history',
  crashes: 'crash_history',
  equipment: 'equipment_history',
} as const satisfies Record<PagedView, string>;

export type { PagedView } from '../../../lib/carrier/contract.ts';
type HistoryField = (typeof HISTORY_OF)[PagedView];
/** One element of the history a view pages through, as the shared parser reads it. */
type HistoryItem<V extends PagedView> = NonNullable<Profile[(typeof HISTORY_OF)[V]]>[number];

/** The most rows one request may ask for (the proxy's limit). */
const MAX_VIEW_LIMIT = 10_000;

/** A view's query: paging, sort, direction and the view's filters, as the proxy names them. */
export type ViewQuery = Readonly<Record<string, string>>;

export interface ViewRow<V extends PagedView> {
  /** the same id the tabs give a row of the full profile (`_id`, report number or position) */
  id: string;
  /** the element's position in the service's array */
  index: number;
  item: HistoryItem<V>;
}

interface ViewPage<V extends PagedView> {
  total: number;
  matched: number;
  offset: number;
  limit: number;
  sort: string;
  dir: 'asc' | 'desc';
  rows: ViewRow<V>[];
  choices?: { states: string[]; levels: string[] } | undefined;
  stateCounts?: { state: string; inspections: number }[] | undefined;
}

/** One history element through the shared profile parser (as it reads it inside a profile). */
function readItem<V extends PagedView>(view: V, item: unknown): HistoryItem<V> {
  const field: HistoryField = HISTORY_OF[view];
  const parsed = parseProfile({ [field]: [item] }).value[field]?.[0];
  return (parsed ?? { extra: {} }) as HistoryItem<V>;
}

/** Reads a paged view's body. */
function readViewPage<V extends PagedView>(view: V, body: unknown): ViewPage<V> {
  const page = parseBody(profileViewPageSchema, body, `the ${view} of the profile`);
  return {
    total: page.total,
    matched: page.matched,
    offset: page.offset,
    limit: page.limit,
    sort: page.sort,
    dir: page.dir,
    rows: page.rows.map((row) => ({
      id: row.id,
      index: row.index,
      item: readItem(view, row.item),
    })),
    choices: page.choices,
    stateCounts: page.state_counts,
  };
}

async function getViewPage<V extends PagedView>(
  dot: string,
  view: V,
  query: ViewQuery,
  signal?: AbortSignal,
  headers?: Readonly<Record<string, string>>,
): Promise<ViewPage<V>> {
  const body = await apiGet(PATH, { dot_number: dot, view, ...query }, { signal, headers });
  return readViewPage(view, body);
}

/**
 * How a view is asked for: `held` only from what the proxy already holds (`Cache-Control:
 * only-if-cached`: a profile that has left its cache answers 504 `not_cached` instead of being
 * fetched, i.e. billed, again), for fetching ahead what the user has not opened yet.
 */
export type ViewFetch = 'normal' | 'held';

const HELD_ONLY = { 'cache-control': 'only-if-cached' } as const;

/**
 * Every row the filters match, in the query's order, for an export: pages of the largest size the
 * proxy allows until all `matched` rows are in.
 */
export async function getAllViewRows<V extends PagedView>(
  dot: string,
  view: V,
  query: ViewQuery,
): Promise<ViewRow<V>[]> {
  const rows: ViewRow<V>[] = [];
  for (;;) {
    const page = await getViewPage(dot, view, {
      ...query,
      offset: String(rows.length),
      limit: String(MAX_VIEW_LIMIT),
    });
    rows.push(...page.rows);
    if (page.rows.length === 0 || rows.length >= page.matched) return rows;
  }
}

/** A page of a view as a query: what the table asks for, and what a prefetch fills ahead of it. */
export function viewPageOptions<V extends PagedView>(
  dot: string,
  view: V,
  query: ViewQuery,
  fetch: ViewFetch = 'normal',
) {
  const headers = fetch === 'held' ? HELD_ONLY : undefined;
  // how a slice is asked (held only or not) is not part of what it is: both fill the one entry
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- see above
  return queryOptions({
    queryKey: profileKeys.view(dot, view, query),
    queryFn: ({ signal }) => getViewPage(dot, view, query, signal, headers),
  });
}

/** A page of a view; the previous page stays on screen while the next one travels. */
export function useViewPage<V extends PagedView>(dot: string, view: V, query: ViewQuery) {
  return useQuery({ ...viewPageOptions(dot, view, query), placeholderData: keepPreviousData });
}

type PointsView = 'inspection-points' | 'crash-points';

/** A map point of a view: longitude, latitude and the row's id. */
type ViewPoint = readonly [lon: number, lat: number, id: string];

function readViewPoints(body: unknown): { total: number; points: ViewPoint[] } {
  return parseBody(profileViewPointsSchema, body, 'the map points of the profile');
}

/** The map's points for the filters as a query (the map's, and a prefetch's ahead of it). */
export function viewPointsOptions(
  dot: string,
  view: PointsView,
  filters: ViewQuery,
  fetch: ViewFetch = 'normal',
) {
  const headers = fetch === 'held' ? HELD_ONLY : undefined;
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- as in viewPageOptions
  return queryOptions({
    queryKey: profileKeys.view(dot, view, filters),
    queryFn: async ({ signal }) =>
      readViewPoints(
        await apiGet(PATH, { dot_number: dot, view, ...filters }, { signal, headers }),
      ),
  });
}

/** The map's points for the filters (every matching element with a coordinate, compact). */
export function useViewPoints(dot: string, view: PointsView, filters: ViewQuery) {
  return useQuery({ ...viewPointsOptions(dot, view, filters), placeholderData: keepPreviousData });
}

/**
 * The summary with the `network` view's fields laid over it: what the overview's network line and
 * the Network tab read (the view's parse has no `extra` of its own: the summary's unknown keys stay).
 */
export function withNetworkFields(summary: Profile, network: Profile): Profile {
  const fields: Partial<Profile> = { ...network };
  delete fields.extra;
  return Object.assign({}, summary, fields);
}

/**
 * The profile's network fields (`network`: every `network_graph_*` list, the equipment links
 * with their carriers' statuses, the shared units, and the carrier's own records of the VINs it
 * shares), read with the shared profile parser: the overview's chameleon line and the Network tab
 * with its graph read them; the summary leaves them out.
 */
export function useNetworkView(dot: string, enabled: boolean) {
  return useQuery({
    queryKey: profileKeys.view(dot, 'network', {}),
    queryFn: async ({ signal }) => {
      const body = parseBody(
        profileViewNetworkSchema,
        await apiGet(PATH, { dot_number: dot, view: 'network' }, { signal }),
        'the network of the profile',
      );
      return parseProfile(body.item).value;
    },
    enabled,
  });
}
