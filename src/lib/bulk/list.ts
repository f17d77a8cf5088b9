/**
 * A bulk list as the user sees it: each entry numbered by its line in the pasted text or its row in
 * the uploaded file (docs/bulk-vetting.md, "Identifiers"), so "row 34" on the job page is row 34 of
 * their spreadsheet, header and blank rows counted. The reading of one entry is the shared
 * `identifierOf` (the watch list's and the forms' too). Pure; used by the page and the proxy.
 */
import {
  MAX_ENTRY_CHARS,
  identifierOf,
  splitIdentifiers,
  type Identifier,
} from '../service/rules/entries.ts';
import type { NUMBERINGS } from './contract.ts';

/** What a position counts: lines of pasted text, or rows of an uploaded CSV/XLSX file. */
export type Numbering = (typeof NUMBERINGS)[number];

/** One entry of the list and the line or row it stands on. */
export interface ListEntry {
  input: string;
  position: number;
}

/** A valid identifier with the line or row it was given on. */
type ListedIdentifier = Identifier & { position: number };

type LeftOutReason = 'invalid' | 'too_long' | 'duplicate';

interface LeftOutEntry {
  input: string;
  /** the line or row the entry stands on */
  position: number;
  reason: LeftOutReason;
  message: string;
}

export interface CheckedList {
  /** distinct identifiers, in the order first given */
  valid: ListedIdentifier[];
  /** invalid entries and repeats, with why, in list order */
  rejected: LeftOutEntry[];
}

const EXPECTED =
  'Expected a USDOT number (568253, USDOT 568253) or an MC, MX or FF docket (MC277621, MC-277621).';

/**
 * The entries of a pasted text, each numbered by its line (1-based): a line may hold several
 * entries (commas, semicolons, tabs, spaces), which share its number; blank lines count.
 */
export function splitNumbered(text: string): ListEntry[] {
  const entries: ListEntry[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    for (const input of splitIdentifiers(line)) entries.push({ input, position: index + 1 });
  });
  return entries;
}

/**
 * Check a numbered list before anything runs: each entry is a DOT or docket, or left out as
 * invalid, too long, or a repeat of an earlier entry (same canonical key: `MC-277621` repeats
 * `mc277621`), the repeat's message naming the earlier entry's line or row.
 */
export function checkList(entries: readonly ListEntry[], numbering: Numbering): CheckedList {
  const valid: ListedIdentifier[] = [];
  const rejected: LeftOutEntry[] = [];
  const first = new Map<string, ListEntry>();
  for (const entry of entries) {
    const input = entry.input.trim();
    const { position } = entry;
    if (input.length > MAX_ENTRY_CHARS) {
      const message = `Longer than ${MAX_ENTRY_CHARS} characters.`;
      rejected.push({ input: `${input.slice(0, 40)}…`, position, reason: 'too_long', message });
      continue;
    }
    const identifier = identifierOf(input);
    if (!identifier) {
      const message = `Not a USDOT number or docket. ${EXPECTED}`;
      rejected.push({ input, position, reason: 'invalid', message });
      continue;
    }
    const earlier = first.get(identifier.key);
    if (earlier !== undefined) {
      const message = `Repeats ${numbering} ${earlier.position} (${earlier.input.trim()}).`;
      rejected.push({ input, position, reason: 'duplicate', message });
      continue;
    }
    first.set(identifier.key, entry);
    valid.push({ ...identifier, position });
  }
  return { valid, rejected };
}

/** The entries of a request body: `positions[i]` when given, else i + 1. */
export function numberedEntries(
  inputs: readonly string[],
  positions: readonly number[] | undefined,
): ListEntry[] {
  return inputs.map((input, index) => ({ input, position: positions?.[index] ?? index + 1 }));
}

/**
 * The entries of the list box: numbered by their line, or, when the box was filled from a file's
 * column (one cell a line), by the file's row of each line (`rows[line - 1]`).
 */
export function boxEntries(
  text: string,
  rows: readonly number[] | undefined,
): { entries: ListEntry[]; numbering: Numbering } {
  const entries = splitNumbered(text);
  if (rows === undefined) return { entries, numbering: 'line' };
  return {
    entries: entries.map((entry) => ({
      input: entry.input,
      position: rows[entry.position - 1] ?? entry.position,
    })),
    numbering: 'row',
  };
}

/** "line 3" / "row 34" */
export function positionLabel(numbering: Numbering, position: number): string {
  return `${numbering} ${position.toLocaleString('en-US')}`;
}
