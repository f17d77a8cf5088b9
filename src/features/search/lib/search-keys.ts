/**
 * The ten search keys of `/v2/profile`, named as the API and the search page's URL name them, and
 * the detection of a key from what someone typed into the omnibox.
 */
import { SEARCH_KEYS, type SearchKey } from '../../../lib/service/params.ts';

export { SEARCH_KEYS, type SearchKey };

export const SEARCH_KEY_LABELS: Record<SearchKey, string> = {
  dot_number: 'USDOT number',
  docket_number: 'Docket (MC/MX/FF)',
  company: 'Company name',
  ein: 'EIN',
  email: 'E-mail or domain',
  phone: 'Phone',
  address: 'Address',
  vin: 'VIN',
  plate_number: 'Licence plate',
  unit_number: 'Unit number',
};

export function isSearchKey(value: unknown): value is SearchKey {
  return typeof value === 'string' && (SEARCH_KEYS as readonly string[]).includes(value);
}

export interface DetectedKey {
  key: SearchKey;
  /** Other keys the same input could reasonably mean, best first (e.g. digits → docket). */
  alternatives: SearchKey[];
}

const VIN = /^[A-HJ-NPR-Z0-9]{17}$/i;
const DOCKET = /^(MC|MX|FF)[\s-]?\d{1,8}$/i;
const EIN_FORMATTED = /^\d{2}-\d{7}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOMAIN_ONLY = /^@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

function isPhone(value: string): boolean {
  if (!PHONE_CHARACTERS.test(value)) return false;
  const digits = digitsOf(value);
  return digits.length === 10 || (digits.length === 11 && digits.startsWith('1'));
}

/**
 * What the omnibox input most likely is. Order matters: a 17-character VIN may be all digits, a
 * phone number may be written with separators, and everything unrecognised is a company name.
 * Returns undefined for blank input.
 */
export function detectSearchKey(input: string): DetectedKey | undefined {
  const value = input.trim();
  if (value === '') return undefined;
  if (/^\d{1,8}$/.test(value)) return { key: 'dot_number', alternatives: ['docket_number'] };
  if (/^\d{9}$/.test(value) || EIN_FORMATTED.test(value)) return { key: 'ein', alternatives: [] };
  if (DOCKET.test(value)) return { key: 'docket_number', alternatives: [] };
  if (VIN.test(value)) return { key: 'vin', alternatives: [] };
  if (EMAIL.test(value) || DOMAIN_ONLY.test(value)) return { key: 'email', alternatives: [] };
  if (isPhone(value)) return { key: 'phone', alternatives: [] };
  return { key: 'company', alternatives: [] };
}

/**
 * The value sent for `key`: trimmed; a docket loses inner spaces ("MC 277621" → "MC277621"), a bare
 * `@domain` loses its "@" (the service takes `example.com` or a full address).
 */
export function normaliseSearchValue(key: SearchKey, input: string): string {
  const value = input.trim();
  if (key === 'docket_number') return value.replace(/\s+/g, '').toUpperCase();
  if (key === 'email' && value.startsWith('@')) return value.slice(1);
  return value;
}
