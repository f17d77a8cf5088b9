/**
 * The inbox's change identity: the shared `triageId` (profile id + field + change date + prior and
 * current values, see docs/monitoring.md), the id the proxy stores triage states under.
 */
import { triageId } from '../service/triage-id.ts';
import type { MonitoredProfile } from '../service/index.ts';
import { profileChanges, type ChangeIdentity, type InboxChange } from './inbox.ts';

export const changeId: ChangeIdentity = (change) =>
  triageId({
    profileId: change.profileId,
    field: change.field,
    date: change.date,
    prior: change.prior,
    current: change.current,
  });

/**
 * A profile's changes with their ids, derived once per parsed profile object: a cached page shown
 * again (a filter switched off, a page visited before) does not hash its thousands of changes again.
 * The cache holds no profile alive: it forgets a page's profiles once the query cache drops them.
 */
const changesOfProfile = new WeakMap<MonitoredProfile, InboxChange[]>();
/** Ids computed where the list was parsed (the proxy's monitoring view), in `profileChanges` order. */
const idsOfProfile = new WeakMap<MonitoredProfile, readonly string[]>();

/** The change count of a profile: one per changed field of each record. */
function changeCount(profile: MonitoredProfile): number {
  let count = 0;
  for (const record of profile.records) count += record.changes.length;
  return count;
}

/**
 * The ids of each profile's changes, in `profileChanges` order: computed by the proxy that parsed
 * the page (`/api/local/monitoring-view`), so the browser does not hash a page's thousands of
 * changes before its first render.
 */
export function changeIdsOf(profiles: readonly MonitoredProfile[]): string[][] {
  // the ids `profileChanges(profile, changeId)` gives, record by record and change by change,
  // without building the inbox changes only to keep their ids
  return profiles.map((profile) => {
    const ids: string[] = [];
    for (const record of profile.records) {
      for (const change of record.changes) {
        ids.push(
          triageId({
            profileId: profile.profileId,
            field: change.field,
            date: record.lastChangedDate,
            prior: change.prior,
            current: change.current,
          }),
        );
      }
    }
    return ids;
  });
}

/** Keeps ids computed elsewhere for these profiles; a list that does not fit is ignored. */
export function adoptChangeIds(
  profiles: readonly MonitoredProfile[],
  ids: readonly (readonly string[])[],
): void {
  if (ids.length !== profiles.length) return;
  profiles.forEach((profile, index) => {
    const own = ids[index];
    if (own && own.length === changeCount(profile)) idsOfProfile.set(profile, own);
  });
}

export function inboxChangesOf(profile: MonitoredProfile): InboxChange[] {
  let changes = changesOfProfile.get(profile);
  if (!changes) {
    const known = idsOfProfile.get(profile);
    let next = 0;
    changes = profileChanges(profile, known ? () => known[next++] ?? '' : changeId);
    changesOfProfile.set(profile, changes);
  }
  return changes;
}
