/**
 * A search checked in the browser before anything is sent, with the service's own rules (the ones
 * the sandbox and the proxy apply, `lib/service/search-rules.ts`): an invalid value never reaches the
 * proxy, so it costs no request and leaves no 400 in the console, and the form says what is wrong.
 */
import { PLATE_STATE_RULE, SEARCH_KEY_RULES } from '../../../lib/service/search-rules.ts';
import { SEARCH_KEY_LABELS } from './search-keys.ts';
import type { SearchRequest } from './search-params.ts';

export interface SearchProblem {
  /** The form field it concerns. */
  field: 'value' | 'plateState';
  message: string;
}

/** What is wrong with `request`, or undefined when the service would accept it. */
export function searchProblem(request: SearchRequest): SearchProblem | undefined {
  const rule = SEARCH_KEY_RULES[request.key];
  if (!rule.valid(request.value.trim())) {
    return {
      field: 'value',
      message: `${SEARCH_KEY_LABELS[request.key]}: expected ${rule.expected}.`,
    };
  }
  if (
    request.key === 'plate_number' &&
    request.plateState !== undefined &&
    !PLATE_STATE_RULE.valid(request.plateState)
  ) {
    return { field: 'plateState', message: `Plate state: expected ${PLATE_STATE_RULE.expected}.` };
  }
  return undefined;
}
