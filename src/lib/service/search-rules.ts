/**
 * The service's rules for the values of the ten search keys of `/v2/profile` and
 * `/v2/profile-lite`: one implementation for the sandbox's validation (and so the proxy's, which
 * imports it) and the dashboard's forms, which check a value before any request is sent.
 * Runtime-neutral and free of zod: the search page's first paint imports it.
 */
import type { SearchKey } from './params.ts';

interface KeyRule {
  /** Whether the (trimmed) value is acceptable. */
  valid: (value: string) => boolean;
  /** What a valid value looks like, for the hint. */
  expected: string;
}

const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/i;

/** True when `value` holds an ASCII control character (tab, newline, NUL, DEL ...). */
function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const lengthBetween = (value: string, min: number, max: number): boolean =>
  value.length >= min && value.length <= max && !hasControlChars(value);

export const SEARCH_KEY_RULES: Record<SearchKey, KeyRule> = {
  dot_number: {
    valid: (v) => /^0*[1-9][0-9]{0,7}$/.test(v),
    expected: 'a USDOT number of 1 to 8 digits, e.g. 568253',
  },
  docket_number: {
    valid: (v) => /^(?:(?:MC|MX|FF)-?)?[0-9]{1,8}$/i.test(v),
    expected: 'MC, MX or FF followed by digits, or digits only, e.g. MC277621 or 277621',
  },
  company: {
    valid: (v) => lengthBetween(v, 2, 120),
    expected: 'a legal or DBA name (part) of 2 to 120 characters',
  },
  ein: {
    valid: (v) => /^[0-9]{9}$|^[0-9]{2}-[0-9]{7}$/.test(v),
    expected: 'an EIN of 9 digits, optionally written as 12-3456789',
  },
  email: {
    valid: (v) =>
      v.length <= 254 && /^(?:[^\s@]+@)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)+$/i.test(v),
    expected: 'an e-mail address (dispatch@example.com) or a domain (example.com)',
  },
  phone: {
    valid: (v) => /^[0-9\s().+-]{10,25}$/.test(v) && /^1?[0-9]{10}$/.test(v.replace(/\D/g, '')),
    expected: 'a 10-digit US/Canada phone number, digits or formatted, e.g. (555) 123-4567',
  },
  address: {
    valid: (v) => lengthBetween(v, 3, 200),
    expected: 'a physical address (part) of 3 to 200 characters',
  },
  vin: {
    valid: (v) => VIN_RE.test(v),
    expected: '17 characters of digits and letters other than I, O and Q',
  },
  plate_number: {
    valid: (v) => /^[A-Z0-9][A-Z0-9 -]{0,9}$/i.test(v),
    expected: 'a license plate of 1 to 10 letters, digits, spaces or hyphens',
  },
  unit_number: {
    valid: (v) => /^[A-Z0-9][A-Z0-9 _-]{0,19}$/i.test(v),
    expected: 'a fleet unit number of 1 to 20 letters, digits, spaces, hyphens or underscores',
  },
};

/** `plate_state`, which narrows a plate search: a two-letter state or province code. */
export const PLATE_STATE_RULE: KeyRule = {
  valid: (v) => /^[A-Z]{2}$/i.test(v),
  expected: 'a two-letter state or province code, e.g. TX',
};

/** Autocomplete `q` after trimming: 2 to 100 printable characters. */
export const AUTOCOMPLETE_Q_MAX = 100;

export function isValidAutocompleteQ(q: string): boolean {
  return lengthBetween(q.trim(), 2, AUTOCOMPLETE_Q_MAX);
}
