/**
 * Carrier names for the inbox: a name its own change records carry first, then the shared lookup
 * (`useCarrierNames`: the SPA's query cache, then the names the proxy holds). Never a profile call.
 */
import { useMemo } from 'react';
import { useCarrierNames } from './carrier-names.ts';
import type { MonitoredProfile } from '../../../lib/service/index.ts';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The name the profile's newest change record says, when one carries it. */
export function recordName(profile: MonitoredProfile): string | undefined {
  for (const record of profile.records) {
    for (const field of ['legal_name', 'dba_name']) {
      const change = record.changes.find((c) => c.field === field);
      const name = text(change?.current) ?? text(record.extra[`${field}_current`]);
      if (name) return name;
    }
  }
  return undefined;
}

/** The names of a page's profiles by DOT. `version` re-reads the SPA cache (bump it on refresh). */
export function useKnownNames(
  profiles: readonly MonitoredProfile[],
  version: unknown,
): Map<string, string> {
  const dots = useMemo(() => profiles.map((profile) => profile.dot), [profiles]);
  const fromRecords = useMemo(() => {
    const names = new Map<string, string>();
    for (const profile of profiles) {
      const name = recordName(profile);
      if (name) names.set(profile.dot, name);
    }
    return names;
  }, [profiles]);
  return useCarrierNames(dots, fromRecords, version);
}
