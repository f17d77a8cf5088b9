import type { WireProfile } from '../data/types.ts';

/**
 * History arrays that events extend: their override holds only the items the events added (newest
 * first), which are put in front of the generated history.
 */
export const PREPENDED_ARRAYS: ReadonlySet<string> = new Set([
  'insurance_history',
  'authority_history',
  'crash_history',
]);

/**
 * The profile with the event-moved values merged over it. A null override removes the field (the
 * service omits fields without a value); history arrays get the added items in front.
 */
export function mergeOverrides(profile: WireProfile, overrides: Map<string, unknown>): WireProfile {
  const merged: WireProfile = { ...profile };
  for (const [field, value] of overrides) {
    if (PREPENDED_ARRAYS.has(field)) {
      const added = Array.isArray(value) ? value : [];
      const base = Array.isArray(profile[field]) ? (profile[field] as unknown[]) : [];
      merged[field] = [...added, ...base];
    } else if (value === null) {
      delete merged[field];
    } else {
      merged[field] = value;
    }
  }
  return merged;
}
