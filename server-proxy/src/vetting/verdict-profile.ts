/**
 * The profile the vetting engine reads: every field but the three long histories (inspections,
 * crashes, equipment), which no rule reads, parsed by the shared service parser. For the heaviest
 * carrier that is a few milliseconds instead of ~0.5 s for the whole 13.5 MB answer, and it is kept
 * per cached answer, so a verdict on a cached carrier parses nothing again.
 */
import type { StoredResponse } from '../cache.ts';
import { omitProfileFields, PROFILE_HISTORY_FIELDS } from '../profile-items.ts';
import { parseProfileResponse, type Profile } from '../../../src/lib/service/index.ts';

/** The first profile of an answer, without its histories (read whole when its form hides them). */
export function verdictProfileOf(json: unknown): Profile | undefined {
  const trimmed = parseProfileResponse(omitProfileFields(json, PROFILE_HISTORY_FIELDS)).value;
  return trimmed.items[0] ?? parseProfileResponse(json).value.items[0];
}

/** Verdict profiles kept per stored answer: dropped with it, never served for a newer one. */
export class VerdictProfiles {
  private readonly known = new WeakMap<StoredResponse, Profile | null>();

  /** The profile of `stored` (kept), else read from `json()` — and kept when `stored` is given. */
  of(stored: StoredResponse | undefined, json: () => unknown): Profile | undefined {
    if (stored) {
      const kept = this.known.get(stored);
      if (kept !== undefined) return kept ?? undefined;
    }
    const profile = verdictProfileOf(json());
    if (stored) this.known.set(stored, profile ?? null);
    return profile;
  }
}
