/**
 * The inbox's change identity: the shared `triageId` (profile id + field + change date + prior and
 * current values, see docs/monitoring.md), the id the proxy stores triage states under.
 */
import { triageId } from '../../../lib/service/triage-id.ts';
import type { ChangeIdentity } from './inbox.ts';

export const changeId: ChangeIdentity = (change) =>
  triageId({
    profileId: change.profileId,
    field: change.field,
    date: change.date,
    prior: change.prior,
    current: change.current,
  });
