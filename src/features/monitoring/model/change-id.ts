/**
 * The inbox's change identity: the shared `triageId` (profile id + field + change date + prior and
 * current values, see docs/monitoring.md), the id the proxy stores triage states under.
 */
import { triageId } from '../../../lib/service/triage-id.ts';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
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

export function inboxChangesOf(profile: MonitoredProfile): InboxChange[] {
  let changes = changesOfProfile.get(profile);
  if (!changes) {
    changes = profileChanges(profile, changeId);
    changesOfProfile.set(profile, changes);
  }
  return changes;
}
