/**
 * Answers of the proxy's monitoring routes for tests that stub `fetch`, built through the routes'
 * own schemas (src/lib/monitoring/contract.ts): a body the proxy could not send fails here, at the
 * test's start, rather than passing a test the real proxy would fail.
 */
import {
  monitoringBadgeSchema,
  monitoringViewSchema,
  triageEntriesSchema,
  triagePutAnswerSchema,
  type MonitoringBadge,
  type StoredTriage,
} from '../../../lib/monitoring/contract.ts';
import { CHANNELS, type MonitoringList } from '../../../lib/service/index.ts';

/** `GET /api/local/monitoring-badge`: `total` untriaged changes, all in `channel`. */
export function badgeBody(
  total: number,
  more: Partial<MonitoringBadge> & { channel?: keyof MonitoringBadge['counts'] } = {},
): MonitoringBadge {
  const { channel = 'insurance', ...rest } = more;
  const counts = Object.fromEntries([...CHANNELS, 'other'].map((name) => [name, 0]));
  return monitoringBadgeSchema.parse({
    total,
    counts: { ...counts, [channel]: total },
    profiles: 3,
    fetchedAt: '2026-11-27T08:00:00Z',
    recentChanges: {},
    ...rest,
  });
}

/** `GET /api/local/triage`, `POST /api/local/triage/lookup`: the stored decisions. */
export function triageEntriesBody(items: readonly StoredTriage[] = []) {
  return triageEntriesSchema.parse({ items });
}

/** `PUT /api/local/triage`: `updated` changes sent, the decisions as stored. */
export function triagePutBody(updated: number, items: readonly StoredTriage[] = []) {
  return triagePutAnswerSchema.parse({ updated, items });
}

/** `GET /api/local/monitoring-view`: a page of the watchlist with its change ids. */
export function monitoringViewBody(list: MonitoringList = { totalCount: 0, profiles: [] }) {
  return monitoringViewSchema.parse({ list, changeIds: list.profiles.map(() => []) });
}
