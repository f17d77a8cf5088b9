/**
 * What a pasted watch-list line is: a profile id (`<dot>-<docket>`), a USDOT number or a docket.
 * Pure; the resolver (resolve.ts) looks up what is not already a profile id.
 */
import { formatProfileId, parseProfileId } from '../../../src/lib/service/rules/profile-id.ts';

export type Entry =
  | { kind: 'profile_id'; key: string; profileId: string }
  | { kind: 'dot'; key: string; dot: string }
  | { kind: 'docket'; key: string; docket: string }
  | { kind: 'invalid'; key: string };

export const MAX_ENTRY_CHARS = 100;

const DOT = /^(?:US)?(?:DOT)?(?:NO\.?|NUMBER)?[#:.]?0*([1-9]\d{0,7})$/;
const DOCKET = /^(MC|MX|FF)[-#:.]?0*([1-9]\d{0,7})$/;
const WITH_DOCKET = /^0*([1-9]\d{0,7})[-/](MC|MX|FF)-?0*([1-9]\d{0,7})$/;

/**
 * Classify one entry. Spaces are ignored and letters upper-cased, so `usdot 568253`, `MC-277621`
 * and `568253-mc277621` are understood. A bare number is a USDOT number: a profile id without a
 * docket is the bare DOT too, and resolving it tells which one it is. `key` is the canonical form
 * (equal keys are looked up once).
 */
export function classifyEntry(input: string): Entry {
  const text = input.replace(/\s+/g, '').toUpperCase();
  const withDocket = WITH_DOCKET.exec(text);
  if (withDocket) {
    const [, dot = '', prefix = '', digits = ''] = withDocket;
    const parsed = parseProfileId(`${dot}-${prefix}${digits}`);
    if (parsed) {
      const profileId = formatProfileId(parsed.dot, parsed.docket);
      return { kind: 'profile_id', key: profileId, profileId };
    }
  }
  const docket = DOCKET.exec(text);
  if (docket) {
    const value = `${docket[1] ?? ''}${docket[2] ?? ''}`;
    return { kind: 'docket', key: `docket:${value}`, docket: value };
  }
  const dot = DOT.exec(text)?.[1];
  if (dot !== undefined) return { kind: 'dot', key: `dot:${dot}`, dot };
  return { kind: 'invalid', key: `invalid:${text}` };
}
