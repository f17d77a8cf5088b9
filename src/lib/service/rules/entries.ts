/**
 * What a pasted or uploaded carrier identifier is: a profile id (`<dot>-<docket>`), a USDOT number
 * or an MC/MX/FF docket. One reading for the watch list's resolver, the bulk vetting jobs and the
 * dashboard's forms, so the list a user sees checked is the list the proxy runs. Pure.
 */
import { formatProfileId, parseProfileId } from './profile-id.ts';

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

/** Lines, commas, semicolons, tabs or runs of spaces separate pasted identifiers. */
const SEPARATORS = /[\r\n,;\t]+|\s{2,}/;

/**
 * Split a pasted list into trimmed, non-empty pieces, in order (repeats kept: `checkIdentifiers`
 * reports them). Single spaces stay inside a piece, so `MC 277621` and `USDOT 568253` are one
 * identifier; a line of numbers separated by single spaces (`568253 2214589`) is split when every
 * word is a number.
 */
export function splitIdentifiers(text: string): string[] {
  const pieces: string[] = [];
  for (const part of text.split(SEPARATORS)) {
    const trimmed = part.trim();
    if (trimmed === '') continue;
    const words = trimmed.split(' ');
    if (words.length > 1 && words.every((word) => /^\d+$/.test(word))) pieces.push(...words);
    else pieces.push(trimmed);
  }
  return pieces;
}

/** A bulk-vetting identifier: a USDOT number or a docket (a profile id counts as its DOT). */
export type Identifier =
  | { input: string; kind: 'dot'; key: string; dot: string }
  | { input: string; kind: 'docket'; key: string; docket: string };

type RejectReason = 'invalid' | 'too_long' | 'duplicate';

export interface RejectedIdentifier {
  input: string;
  /** 1-based position in the list as given */
  position: number;
  reason: RejectReason;
  message: string;
}

export interface CheckedIdentifiers {
  /** distinct identifiers, in the order first given */
  valid: Identifier[];
  /** invalid entries and repeats, with why, in list order */
  rejected: RejectedIdentifier[];
}

const EXPECTED =
  'Expected a USDOT number (568253, USDOT 568253) or an MC, MX or FF docket (MC277621, MC-277621).';

/** The one identifier an entry names, or undefined when it names none. */
export function identifierOf(input: string): Identifier | undefined {
  const entry = classifyEntry(input);
  switch (entry.kind) {
    case 'dot':
      return { input, kind: 'dot', key: entry.key, dot: entry.dot };
    case 'profile_id': {
      const dot = parseProfileId(entry.profileId)?.dot ?? '';
      return { input, kind: 'dot', key: `dot:${dot}`, dot };
    }
    case 'docket':
      return { input, kind: 'docket', key: entry.key, docket: entry.docket };
    case 'invalid':
      return undefined;
  }
}

/**
 * Check a list before anything runs: each entry is a DOT or docket, or rejected as invalid, too
 * long, or a duplicate of an earlier entry (same canonical key: `MC-277621` repeats `mc277621`).
 */
export function checkIdentifiers(inputs: readonly string[]): CheckedIdentifiers {
  const valid: Identifier[] = [];
  const rejected: RejectedIdentifier[] = [];
  const firstAt = new Map<string, number>();
  inputs.forEach((raw, index) => {
    const input = raw.trim();
    const position = index + 1;
    if (input.length > MAX_ENTRY_CHARS) {
      const message = `Longer than ${MAX_ENTRY_CHARS} characters.`;
      rejected.push({ input: `${input.slice(0, 40)}…`, position, reason: 'too_long', message });
      return;
    }
    const identifier = identifierOf(input);
    if (!identifier) {
      const message = `Not a USDOT number or docket. ${EXPECTED}`;
      rejected.push({ input, position, reason: 'invalid', message });
      return;
    }
    const earlier = firstAt.get(identifier.key);
    if (earlier !== undefined) {
      const message = `Repeats entry ${earlier} (${inputs[earlier - 1]?.trim() ?? ''}).`;
      rejected.push({ input, position, reason: 'duplicate', message });
      return;
    }
    firstAt.set(identifier.key, position);
    valid.push(identifier);
  });
  return { valid, rejected };
}
