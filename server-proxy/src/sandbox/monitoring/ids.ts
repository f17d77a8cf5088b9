import type { CarrierDataset } from '../data/types.ts';
import {
  formatProfileId,
  type ParsedProfileId,
} from '../../../../src/lib/service/rules/profile-id.ts';

// The ID format is a parameter rule of the service contract; resolving an ID against the dataset
// is the sandbox's own. Re-exported for the sandbox's modules and tests.
export {
  formatProfileId,
  parseProfileId,
  type ParsedProfileId,
} from '../../../../src/lib/service/rules/profile-id.ts';

export type Resolution =
  { ok: true; profileId: string; dot: string } | { ok: false; error: string };

/** Check a well-formed ID against the dataset: the DOT must exist and the docket must be its own. */
export function resolveProfileId(parsed: ParsedProfileId, dataset: CarrierDataset): Resolution {
  const identity = dataset.getIdentity(parsed.dot);
  if (!identity) return { ok: false, error: 'Profile not found' };
  const canonical = formatProfileId(identity.dot, identity.docket);
  const asked = formatProfileId(parsed.dot, parsed.docket);
  if (canonical !== asked) {
    return {
      ok: false,
      error: `Profile not found; the profile of DOT ${parsed.dot} is ${canonical}`,
    };
  }
  return { ok: true, profileId: canonical, dot: identity.dot };
}
