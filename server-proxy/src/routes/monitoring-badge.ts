/**
 * `GET /api/local/monitoring-badge`: the count next to "Monitoring" in the navigation, worked out
 * here rather than in the browser. It asks the mirror for the badge's fixed page of the watchlist
 * (`BADGE_LIST_QUERY`: the newest changed profiles, one page of the largest size) exactly as the
 * monitoring view does (`MirrorClient.get`: validation, queue, retries, metering, audit; the list is
 * free and never cached), reads the caller's triage states of those profiles from the triage store,
 * and counts the untriaged changes with the functions the inbox uses (`inboxChangesOf`,
 * `untriagedCounts`). The answer is a few hundred bytes instead of a page of megabytes. A refusal of
 * the mirror is sent on as the monitoring view sends it. See docs/proxy.md, "Monitoring badge".
 */
import type { FastifyInstance } from 'fastify';
import { inboxChangesOf } from '../../../src/lib/monitoring/change-id.ts';
import { MAX_PAGE_SIZE } from '../../../src/lib/monitoring/inbox-params.ts';
import { untriagedCounts, type TriageEntry } from '../../../src/lib/monitoring/inbox.ts';
import { newestChangeDaysOf } from '../../../src/lib/monitoring/change-freshness.ts';
import { parseMonitoringList, type MonitoredProfile } from '../../../src/lib/service/monitoring.ts';
import {
  monitoringBadgeRoute,
  type MonitoringBadge,
} from '../../../src/lib/monitoring/contract.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { unlessStorageUnavailable } from '../http/storage-unavailable.ts';
import type { TriageStore } from '../triage/store.ts';
import type { MirrorClient } from './mirror.ts';
import { isSuccess, sendChecked, withMirrorHeaders } from './monitoring-view.ts';
import { callerOf } from './profile-summary.ts';

export const MONITORING_BADGE_PATH = '/api/local/monitoring-badge';

/** The route's successful body (its schema: src/lib/monitoring/contract.ts). */
export type { MonitoringBadge } from '../../../src/lib/monitoring/contract.ts';

/**
 * The list query the badge counts over: what the SPA's badge sent to the monitoring view (page 1 of
 * the largest size, changed profiles only, the service's default order: newest first).
 */
const BADGE_LIST_QUERY: Readonly<Record<string, string>> = {
  page: '1',
  pageSize: String(MAX_PAGE_SIZE),
  view_changes: 'true',
};

/** The newest change day per DOT, for the changes dated on or after the day before `at`. */
function recentChangesOf(profiles: readonly MonitoredProfile[], at: Date): Record<string, string> {
  const since = new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
  const recent: Record<string, string> = {};
  for (const [dot, day] of newestChangeDaysOf(profiles)) {
    if (day >= since) recent[dot] = day;
  }
  return recent;
}

export interface MonitoringBadgeDeps {
  mirror: MirrorClient;
  /** the triage store the triage routes read and write */
  store: TriageStore;
}

const WORDING: InputWording = {
  hint: `${MONITORING_BADGE_PATH} takes no parameters: it always counts the newest ${MAX_PAGE_SIZE} changed carriers.`,
  unknown: { code: 'unknown_parameter', message: (key: string) => `Unknown parameter "${key}"` },
  rootCode: 'invalid_query',
};

/** Register `GET /api/local/monitoring-badge` (no parameters). */
export function registerMonitoringBadgeRoute(app: FastifyInstance, deps: MonitoringBadgeDeps) {
  contractRoute(
    app,
    monitoringBadgeRoute,
    { wording: { query: WORDING } },
    async (request, reply) => {
      const caller = callerOf(request);
      const answer = await deps.mirror.get('monitoring/list', { ...BADGE_LIST_QUERY }, caller);
      if (!isSuccess(answer.status)) {
        withMirrorHeaders(reply, answer);
        const text = answer.stored?.body ?? JSON.stringify(answer.json);
        // the mirror's refusal, passed on as it came (Fastify takes the returned reply as answered)
        return sendChecked(monitoringBadgeRoute, request, reply, text) as Promise<never>;
      }
      const fetchedAt = (answer.stored?.fetchedAt ?? new Date()).toISOString();
      const { profiles } = parseMonitoringList(answer.json).value;
      const changes = profiles.flatMap(inboxChangesOf);
      const profileIds = [...new Set(profiles.map((profile) => profile.profileId))];
      const counted = unlessStorageUnavailable(request, reply, 'triage', async () => {
        const stored = await deps.store.byProfiles(caller.user, profileIds);
        const states = new Map<string, TriageEntry>(
          stored.map((entry) => [entry.id, { id: entry.id, state: entry.state }]),
        );
        const { total, ...counts } = untriagedCounts(changes, states);
        const recentChanges = recentChangesOf(profiles, new Date(fetchedAt));
        const body: MonitoringBadge = {
          total,
          counts,
          profiles: profiles.length,
          fetchedAt,
          recentChanges,
        };
        void reply.header('cache-control', 'private, no-store');
        return body;
      });
      // a 503 `storage_unavailable` is sent on `reply`, which Fastify takes as answered
      return counted as Promise<MonitoringBadge>;
    },
  );
}
