/**
 * Profile IDs and the body of `/v2/monitoring/add` and `/remove`. An ID is `<dot>-<docket>` (e.g.
 * 568253-MC277621) for a carrier with a docket, the bare `<dot>` for one without. The docket
 * prefix is matched case-insensitively and written upper-case. Whether an ID names a real carrier
 * is the service's (the sandbox's) business, not a parameter rule.
 */
import { ParamError } from '../param-error.ts';
import { quote } from './query.ts';

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

/** Most profile IDs one add/remove request may carry (the service documents no limit). */
const MAX_PROFILE_IDS = 10_000;

/** One ID of an add/remove body: as sent, and parsed. */
export interface RequestedId {
  raw: string;
  parsed: ParsedProfileId;
}

const ID_HINT =
  'Each ID is <dot>-<docket>, e.g. 568253-MC277621, or the bare DOT of a carrier without a docket.';
const BODY_HINT = 'Send {"profile_ids": ["568253-MC277621"]} with Content-Type: application/json.';

function checkShape(body: unknown): unknown[] {
  if (body === undefined || body === null) {
    throw new ParamError('missing_profile_ids', 'The request has no body', BODY_HINT);
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ParamError('invalid_body', 'The body must be a JSON object', BODY_HINT);
  }
  const unknown = Object.keys(body).find((key) => key !== 'profile_ids');
  if (unknown !== undefined) {
    throw new ParamError('unknown_field', `Unknown body field "${quote(unknown)}"`, BODY_HINT);
  }
  const ids = (body as { profile_ids?: unknown }).profile_ids;
  if (ids === undefined) {
    throw new ParamError('missing_profile_ids', '"profile_ids" is missing', BODY_HINT);
  }
  if (!Array.isArray(ids)) {
    throw new ParamError(
      'invalid_profile_ids',
      '"profile_ids" must be an array of strings',
      BODY_HINT,
    );
  }
  if (ids.length === 0) {
    throw new ParamError(
      'empty_profile_ids',
      '"profile_ids" is empty',
      'Send at least one profile ID.',
    );
  }
  if (ids.length > MAX_PROFILE_IDS) {
    throw new ParamError(
      'too_many_profile_ids',
      `"profile_ids" holds ${ids.length} IDs; at most ${MAX_PROFILE_IDS} are accepted per request`,
      `Split the list into requests of up to ${MAX_PROFILE_IDS} IDs.`,
    );
  }
  return ids;
}

/** Validate a body of add/remove; any malformed ID rejects the whole request (400). */
export function parseProfileIdsBody(body: unknown): RequestedId[] {
  return checkShape(body).map((raw, index) => {
    if (typeof raw !== 'string') {
      throw new ParamError(
        'invalid_profile_ids',
        `profile_ids[${index}] is not a string`,
        'Every element of "profile_ids" must be a string.',
      );
    }
    const parsed = parseProfileId(raw);
    if (!parsed) {
      throw new ParamError(
        'invalid_profile_id',
        `profile_ids[${index}] is not a profile ID: "${quote(raw)}"`,
        ID_HINT,
      );
    }
    return { raw, parsed };
  });
}
