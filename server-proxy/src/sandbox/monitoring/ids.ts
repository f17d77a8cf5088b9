import type { CarrierDataset } from '../data/types.ts';

/**
 * Profile IDs: `<dot>-<docket>` (e.g. 568253-MC277621) for carriers with a docket, the bare `<dot>`
 * for carriers without one. The docket prefix is matched case-insensitively and stored upper-case.
 */
const PROFILE_ID_RE = /^([1-9][0-9]{0,7})(?:-((?:MC|MX|FF)[0-9]{1,8}))?$/i;

export interface ParsedProfileId {
  dot: string;
  docket?: string;
}

/** Split a well-formed profile ID, or undefined when it has neither accepted form. */
export function parseProfileId(raw: string): ParsedProfileId | undefined {
  const match = PROFILE_ID_RE.exec(raw);
  if (!match?.[1]) return undefined;
  return match[2] ? { dot: match[1], docket: match[2].toUpperCase() } : { dot: match[1] };
}

/** The canonical ID of a carrier: `<dot>-<docket>`, or `<dot>` when it has no docket. */
export function formatProfileId(dot: string, docket: string | undefined): string {
  return docket ? `${dot}-${docket.toUpperCase()}` : dot;
}

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

/** Shorten user input quoted back in an error message. */
export function quote(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}
