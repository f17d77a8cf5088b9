/** The query of `GET /v2/autocomplete`: `q` and an optional `limit`. */
import { ParamError } from '../param-error.ts';
import { AUTOCOMPLETE_Q_MAX, isValidAutocompleteQ } from '../search-rules.ts';
import { positiveInt, singleValues, type RawQuery } from './query.ts';

const AUTOCOMPLETE_DEFAULT_LIMIT = 10;
/** Largest `limit` the service serves; the service clamps a larger one, the proxy refuses it. */
export const AUTOCOMPLETE_MAX_LIMIT = 15;

/** q: required, 2..100 characters after trimming; limit: 1.. (default 10), above 15 clamped. */
export function parseAutocompleteQuery(raw: RawQuery): { q: string; limit: number } {
  const values = singleValues(raw, ['q', 'limit']);
  const q = values.q?.trim();
  if (q === undefined) {
    throw new ParamError(
      'missing_q',
      'The query parameter "q" is required',
      'Send q with at least 2 characters, e.g. q=hansen.',
    );
  }
  if (!isValidAutocompleteQ(q)) {
    throw new ParamError(
      'invalid_q',
      `"q" must be 2 to ${AUTOCOMPLETE_Q_MAX} printable characters, got ${q.length}`,
      'Type at least 2 characters of a carrier name or USDOT number.',
    );
  }
  const limit = positiveInt(values.limit, 'limit', 'invalid_limit', 1_000_000_000);
  return { q, limit: Math.min(limit ?? AUTOCOMPLETE_DEFAULT_LIMIT, AUTOCOMPLETE_MAX_LIMIT) };
}
