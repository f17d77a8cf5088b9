/** Watchlist ids of carrier profiles: `<dot>-<docket>` (`568253-MC277621`), or a bare DOT. */

const PROFILE_ID = /^([1-9]\d{0,7})(?:-((?:MC|MX|FF)\d{1,8}))?$/;

/** The canonical spelling of a profile id (`568253-MC277621`, or a bare DOT), or undefined. */
export function canonicalProfileId(raw: string): string | undefined {
  const text = raw.trim().toUpperCase();
  return PROFILE_ID.test(text) ? text : undefined;
}

/** The fields of a profile that name it on the watchlist. */
export interface ProfileIdentity {
  dot_number?: string | undefined;
  doc_id?: string | undefined;
  docket?: string | undefined;
  docket_prefix?: string | undefined;
  docket_number?: string | undefined;
}

/**
 * The watchlist id of a profile: its `doc_id`, else `<dot>-<docket>`, else the DOT alone (a carrier
 * without a docket). Undefined when no valid id can be formed.
 */
export function profileIdOf(
  profile: ProfileIdentity,
  dot = profile.dot_number,
): string | undefined {
  const docket =
    profile.docket ??
    (profile.docket_number ? `${profile.docket_prefix ?? ''}${profile.docket_number}` : undefined);
  const candidates = [profile.doc_id, docket && dot ? `${dot}-${docket}` : undefined, dot];
  for (const candidate of candidates) {
    const id =
      candidate === undefined ? undefined : canonicalProfileId(candidate.replace(/\s+/g, ''));
    if (id !== undefined) return id;
  }
  return undefined;
}

/** The DOT part of a profile id. */
export function dotOfProfileId(profileId: string): string {
  return profileId.split('-')[0] ?? profileId;
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/** The valid ids among `raw`, canonical and without repeats (malformed ones are dropped). */
export function canonicalIds(raw: readonly string[]): string[] {
  return [...new Set(raw.map(canonicalProfileId).filter(isDefined))];
}
