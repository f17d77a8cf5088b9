/**
 * The proxy slices the Inspections tab opens on, apart from the tab's code: the profile page asks
 * for them ahead (`prefetchTabSlices`) without loading the table, the map or the charts.
 */
import type { QueryClient } from '@tanstack/react-query';
import { viewPageOptions, viewPointsOptions } from '../../../api/profile-view.ts';
import { firstViewPageQuery, type ViewTableOptions } from '../kit/view-query.ts';
import { INSPECTION_SORT_FIELDS, inspectionViewFilters, NO_INSPECTION_FILTERS } from './model.ts';

/** The tab's table on the proxy's pages: the columns it sorts by, newest first. */
export const INSPECTION_VIEW_TABLE: ViewTableOptions = {
  sortFields: INSPECTION_SORT_FIELDS,
  initialSort: { id: 'date', desc: true },
};

/**
 * Fetch ahead the two slices the tab opens on (its first page in its first sort, and the map's
 * points, both unfiltered) under the keys the tab reads, so a later click draws the rows from the
 * cache instead of waiting for the proxy. A slice already held or on its way is not asked again.
 *
 * Asked `held` (only-if-cached) and never retried: the user has not opened the tab, so a profile
 * that has left the proxy's cache must not be fetched — billed — again for it. Such a slice's
 * query is left failed (504 `not_cached`) with no data, which the tab's own query asks again, the
 * normal way, when it mounts.
 */
export async function prefetchInspections(client: QueryClient, dot: string): Promise<void> {
  const filters = inspectionViewFilters(NO_INSPECTION_FILTERS);
  const first = firstViewPageQuery(filters, INSPECTION_VIEW_TABLE);
  await Promise.all([
    client.prefetchQuery({ ...viewPageOptions(dot, 'inspections', first, 'held'), retry: false }),
    client.prefetchQuery({
      ...viewPointsOptions(dot, 'inspection-points', filters, 'held'),
      retry: false,
    }),
  ]);
}
