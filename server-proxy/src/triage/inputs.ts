/**
 * How the triage routes word a bad input: the hints and the codes of unknown members for
 * parseInput (http/parse-input.ts). The schemas themselves are the routes' contract
 * (src/lib/monitoring/contract.ts); every failure is a 400 body `{error, code, hint}` naming the
 * first problem (with the item's index for bulk bodies).
 */
import {
  MAX_TRIAGE_QUERY_IDS,
  PROFILE_ID_HINT,
  VISIT_PROBLEM,
} from '../../../src/lib/monitoring/contract.ts';
import type { InputWording, Parsed } from '../http/parse-input.ts';

export type Checked<T> = Parsed<T>;

const ITEM_HINT =
  'Send {"items": [{"id", "profile_id", "field", "state": "new"|"reviewed"|"escalated", "note"?}]}.';
const ID_HINT = 'Triage ids are c1- and 14 hex digits, computed by src/lib/service/triage-id.ts.';

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** GET /api/local/triage: `ids=…` or `profile_ids=…`. */
export const LOOKUP_WORDING: InputWording = {
  hint: 'Use ids=<id>,<id> or profile_ids=<profile id>,<profile id>.',
  hints: {
    missing_ids: 'E.g. /api/local/triage?ids=c1-0123456789abcd or ?profile_ids=568253-MC277621.',
    invalid_ids: `Ask for at most ${MAX_TRIAGE_QUERY_IDS} at a time (one inbox page of profiles).`,
    invalid_profile_id: PROFILE_ID_HINT,
  },
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${clip(key)}"` },
};

/** POST /api/local/triage/lookup: the same with arrays in a JSON body. */
export const LOOKUP_BODY_WORDING: InputWording = {
  hint: 'Send {"profile_ids": ["568253-MC277621", …]} or {"ids": ["c1-0123456789abcd", …]}.',
  codes: { ids: 'invalid_ids', profile_ids: 'invalid_ids' },
  hints: {
    missing_ids: 'E.g. {"profile_ids": ["568253-MC277621"]}.',
    invalid_ids: `Ask for at most ${MAX_TRIAGE_QUERY_IDS} at a time (one inbox page of profiles).`,
    invalid_profile_id: PROFILE_ID_HINT,
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${clip(key)}"` },
};

/** PUT /api/local/triage: `{items: [...]}`. */
export const PUT_WORDING: InputWording = {
  hint: ITEM_HINT,
  codes: { id: 'invalid_triage_id' },
  hints: {
    invalid_triage_id: ID_HINT,
    invalid_field: 'Send the base field name of the change, e.g. insurance_bipd_on_file.',
  },
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${clip(key)}"` },
};

/** PUT /api/local/triage/last-visit: no body, or an empty object. */
export const VISIT_WORDING: InputWording = {
  hint: 'The visit is recorded at the server time; send no members.',
  unknown: { code: 'invalid_body', message: () => VISIT_PROBLEM },
};
