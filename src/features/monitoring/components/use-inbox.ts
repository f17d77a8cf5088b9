/**
 * Everything the inbox shows, derived from the URL: the page of profiles, their changes, triage
 * states, untriaged counts and the last visit the "new" marks compare against.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useMonitoringList } from '../api/get-monitoring-list.ts';
import { monitoringKeys } from '../api/keys.ts';
import { putLastVisit, useLastVisit, useTriageStates } from '../api/triage.ts';
import { inboxChangesOf } from '../../../lib/monitoring/change-id.ts';
import {
  readInboxParams,
  updateInboxParams,
  writeInboxParams,
  type InboxParams,
} from '../../../lib/monitoring/inbox-params.ts';
import {
  matchesTriage,
  untriagedCounts,
  type InboxChange,
  type TriageEntry,
} from '../../../lib/monitoring/inbox.ts';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
import {
  standingFor,
  standingRank,
  type DecisionStanding,
} from '../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';

export interface InboxRow {
  profile: MonitoredProfile;
  /** the changes shown for the profile: selected channels and triage filter applied */
  changes: InboxChange[];
  /** all changes of the profile on this page, for its triage summary */
  allChanges: InboxChange[];
  /** the carrier's current decision and its standing now, from the proxy (the Decisions page's words) */
  standing?: DecisionStanding | undefined;
}

const NO_TRIAGE: ReadonlyMap<string, TriageEntry> = new Map();
const NO_IDS: ReadonlySet<string> = new Set();

function channelChanges(profile: MonitoredProfile, channels: InboxParams['channels']) {
  const changes = inboxChangesOf(profile);
  if (channels.length === 0) return changes;
  return changes.filter((change) => change.channel && channels.includes(change.channel));
}

/**
 * Rows whose decision needs re-vet first, then approvals that now fail, then those that now need
 * review, the others in their order.
 */
export function standingFirst<T extends { standing?: DecisionStanding | undefined }>(
  rows: readonly T[],
): T[] {
  const rank = (row: T) => Math.min(standingRank(row.standing), 3);
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row) - rank(b.row) || a.index - b.index)
    .map(({ row }) => row);
}

export function useInboxParams() {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => readInboxParams(search), [search]);
  const update = useCallback(
    (patch: Partial<InboxParams>) =>
      setSearch(writeInboxParams(updateInboxParams(params, patch)), { preventScrollReset: true }),
    [params, setSearch],
  );
  return { params, update };
}

/** Records the visit once the first page arrived; the marks keep comparing to the previous one. */
function useRecordVisit(loaded: boolean) {
  const client = useQueryClient();
  const recorded = useRef(false);
  const lastVisit = useLastVisit();
  useEffect(() => {
    if (!loaded || !lastVisit.isSuccess || recorded.current) return;
    recorded.current = true;
    putLastVisit().catch(() => undefined);
  }, [loaded, lastVisit.isSuccess]);
  useEffect(
    () => () => {
      if (recorded.current) void client.invalidateQueries({ queryKey: monitoringKeys.lastVisit() });
    },
    [client],
  );
  return lastVisit.data ?? undefined;
}

/**
 * `kept`: changes triaged in this view stay shown even when they no longer match the triage filter
 * (the row the user is working in does not vanish under the focus); the next filter change drops them.
 */
export function useInbox(params: InboxParams, kept: ReadonlySet<string> = NO_IDS) {
  const list = useMonitoringList(params);
  const profiles = useMemo(() => list.data?.profiles ?? [], [list.data]);
  const { channels } = params;
  const pageChanges = useMemo(
    () => profiles.map((profile) => ({ profile, changes: channelChanges(profile, channels) })),
    [profiles, channels],
  );
  const profileIds = useMemo(() => profiles.map((profile) => profile.profileId), [profiles]);
  const triageQuery = useTriageStates(profileIds);
  const triage = triageQuery.data ?? NO_TRIAGE;
  const dots = useMemo(() => profiles.map((profile) => profile.dot), [profiles]);
  // one request for the page's DOTs: the proxy's standing, so the inbox and the profile agree
  const standings = useDecisionStandings(dots);
  const rows: InboxRow[] = useMemo(() => {
    const current = standings.data;
    return standingFirst(
      pageChanges
        .map(({ profile, changes }) => ({
          profile,
          allChanges: changes,
          changes: changes.filter(
            (change) => kept.has(change.id) || matchesTriage(change, params.triage, triage),
          ),
          standing: standingFor(current, profile.dot),
        }))
        .filter((row) => params.triage === 'all' || row.changes.length > 0),
    );
  }, [pageChanges, params.triage, triage, standings.data, kept]);
  const counts = useMemo(
    () =>
      untriagedCounts(
        pageChanges.flatMap(({ changes }) => changes),
        triage,
      ),
    [pageChanges, triage],
  );
  const lastVisit = useRecordVisit(list.isSuccess);
  return { list, profiles, triageQuery, triage, rows, counts, lastVisit };
}
