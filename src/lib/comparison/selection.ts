/**
 * The carriers picked for the Compare page (2 to 4), shared by every feature that offers "Add to
 * compare" and by the navigation's count. Kept in localStorage so it survives a reload and follows
 * other tabs (the `storage` event); same-tab changes notify subscribers directly. Imports only
 * React, so the shell can show the count without loading any parser.
 */
import { useSyncExternalStore } from 'react';

/** Fewest carriers a comparison needs, and most it shows side by side. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export const COMPARE_STORAGE_KEY = 'carrier-desk.compare';

export interface CompareEntry {
  dot: string;
  /** the name shown before the profile is held (from the row or header that added it) */
  name?: string;
}

/** Digits only, without leading zeros (`0568253` → `568253`); undefined when not a DOT number. */
export function normaliseDot(input: string): string | undefined {
  const trimmed = input.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return undefined;
  const dot = trimmed.replace(/^0+/, '');
  return dot === '' ? undefined : dot;
}

/**
 * The DOTs of a `?dot=568253,2214589` parameter: normalised, duplicates and junk left out, at most
 * `COMPARE_MAX` (the rest reported as dropped so the page can say so).
 */
export function parseCompareDots(param: string | null | undefined): {
  dots: string[];
  dropped: string[];
} {
  const dots: string[] = [];
  const dropped: string[] = [];
  for (const part of (param ?? '').split(',')) {
    if (part.trim() === '') continue;
    const dot = normaliseDot(part);
    if (dot === undefined || dots.length >= COMPARE_MAX) dropped.push(part.trim());
    else if (!dots.includes(dot)) dots.push(dot);
  }
  return { dots, dropped };
}

/** `/compare?dot=568253,2214589` (commas left readable). */
export function compareUrl(dots: readonly string[]): string {
  return dots.length ? `/compare?dot=${dots.join(',')}` : '/compare';
}

/** A stored value read tolerantly: anything malformed is left out rather than failing. */
export function parseStored(raw: string | null): CompareEntry[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const entries: CompareEntry[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { dot: rawDot, name } = item as { dot?: unknown; name?: unknown };
    const dot = typeof rawDot === 'string' ? normaliseDot(rawDot) : undefined;
    if (!dot || entries.some((e) => e.dot === dot) || entries.length >= COMPARE_MAX) continue;
    entries.push(typeof name === 'string' && name ? { dot, name } : { dot });
  }
  return entries;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Storage blocked (private mode, a policy): the selection lives in memory for the page's life. */
let memory: string | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(COMPARE_STORAGE_KEY);
  } catch {
    return memory;
  }
}

function writeRaw(raw: string): void {
  memory = raw;
  try {
    window.localStorage.setItem(COMPARE_STORAGE_KEY, raw);
  } catch {
    // kept in memory only
  }
}

// The snapshot must be the same object while the stored text is unchanged (useSyncExternalStore).
let cachedRaw: string | null | undefined;
let cachedEntries: readonly CompareEntry[] = [];

export function getSelection(): readonly CompareEntry[] {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedEntries = parseStored(raw);
  }
  return cachedEntries;
}

function save(entries: readonly CompareEntry[]): void {
  writeRaw(JSON.stringify(entries.slice(0, COMPARE_MAX)));
  for (const listener of listeners) listener();
}

export type AddResult = 'added' | 'present' | 'full' | 'invalid';

/** Add a carrier (a name given later fills a missing one); refused when four are already picked. */
export function addToCompare(dotInput: string, name?: string): AddResult {
  const dot = normaliseDot(dotInput);
  if (!dot) return 'invalid';
  const entries = getSelection();
  const present = entries.find((entry) => entry.dot === dot);
  if (present) {
    if (name && !present.name) {
      save(entries.map((entry) => (entry.dot === dot ? { dot, name } : entry)));
    }
    return 'present';
  }
  if (entries.length >= COMPARE_MAX) return 'full';
  save([...entries, name ? { dot, name } : { dot }]);
  return 'added';
}

export function removeFromCompare(dotInput: string): void {
  const dot = normaliseDot(dotInput) ?? dotInput;
  const entries = getSelection();
  if (entries.some((entry) => entry.dot === dot)) {
    save(entries.filter((entry) => entry.dot !== dot));
  }
}

/**
 * Make the selection these DOTs, in this order (the compare page's URL, which wins once the page
 * is open); names already known are kept.
 */
export function setSelection(
  dots: readonly string[],
  names: ReadonlyMap<string, string> = new Map(),
): void {
  const entries = getSelection();
  const next = parseStored(
    JSON.stringify(
      dots.map((dot) => ({
        dot,
        name: names.get(dot) ?? entries.find((entry) => entry.dot === dot)?.name,
      })),
    ),
  );
  if (JSON.stringify(next) !== JSON.stringify(entries)) save(next);
}

export function clearSelection(): void {
  if (getSelection().length) save([]);
}

function onStorage(event: StorageEvent): void {
  // key null: another tab cleared the whole storage
  if (event.key !== COMPARE_STORAGE_KEY && event.key !== null) return;
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}

const EMPTY: readonly CompareEntry[] = [];

/** The current selection, re-rendering on changes in this tab and in others. */
export function useCompareSelection(): readonly CompareEntry[] {
  return useSyncExternalStore(subscribe, getSelection, () => EMPTY);
}
