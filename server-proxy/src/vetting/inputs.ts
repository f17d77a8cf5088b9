/**
 * How the vetting routes word a bad input's 400 `{error, code, hint}` (http/parse-input.ts): the
 * hints and the unknown-member wording. The inputs themselves, with their messages, are the
 * vetting contract's schemas (src/lib/vetting/contract.ts), which `contractRoute` reads them with.
 */
import { MAX_NOTE_CHARS, MAX_OVERRIDE_CHARS } from '../../../src/lib/vetting/contract.ts';
import { DECISIONS } from '../../../src/lib/vetting/decision-record.ts';
import type { InputWording } from '../http/parse-input.ts';

const DECISION_HINT = `Send {"dot_number": "568253", "decision": one of ${DECISIONS.join(', ')}, "note"?: text of at most ${MAX_NOTE_CHARS} characters, "conditions"?: text (required for approved_with_conditions), "expires_on"?: "YYYY-MM-DD" (today up to the policy's max_revet_days ahead), "supersedes"?: the id of the record it corrects, "override_reason"?: why a Fail or Review carrier is approved anyway (required then; at most ${MAX_OVERRIDE_CHARS} characters)}.`;
const LIST_HINT = `Filters: dot_number (digits), decision (${DECISIONS.join(', ')}), user, from and to (YYYY-MM-DD), page (1 or more).`;

/** `POST /api/local/decisions` body. */
export const DECISION_WORDING: InputWording = {
  hint: DECISION_HINT,
  unknown: { code: 'unknown_field', message: (key) => `Unknown member "${key}"` },
};

/** `GET /api/local/decisions` query; empty filters are ignored. */
export const QUERY_WORDING: InputWording = {
  hint: LIST_HINT,
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};
