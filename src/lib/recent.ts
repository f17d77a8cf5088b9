/**
 * Recently viewed carriers: a small list in localStorage, newest first, one entry per DOT.
 * The profile page calls `rememberCarrier` when a profile is shown; the search page lists them
 * with `useRecentCarriers()`. Other tabs' changes arrive through the `storage` event.
 */
import { useMemo, useSyncExternalStore } from 'react';

export const RECENT_STORAGE_KEY = 'carrier-desk.recent-carriers';
export const RECENT_LIMIT = 10;
const CHANGE_EVENT = 'carrier-desk:recent-carriers';

export interface RecentCarrier {
  dot: string;
  name: string;
  /** ISO time of the last view. */
  viewedAt: string;
}

function isRecentCarrier(value: unknown): value is RecentCarrier {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.dot === 'string' &&
    typeof entry.name === 'string' &&
    typeof entry.viewedAt === 'string'
  );
}

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** Parses the stored list; anything unreadable is an empty list, unreadable entries are skipped. */
export function parseRecent(text: string | null): RecentCarrier[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isRecentCarrier).slice(0, RECENT_LIMIT) : [];
  } catch {
    return [];
  }
}

function readText(): string | null {
  try {
    return storage()?.getItem(RECENT_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The stored list, newest first. */
export function readRecentCarriers(): RecentCarrier[] {
  return parseRecent(readText());
}

/** Puts a carrier at the top of the list (moving it if present), keeping at most RECENT_LIMIT. */
export function rememberCarrier(
  entry: { dot: string; name: string },
  now: Date = new Date(),
): void {
  const dot = entry.dot.trim();
  if (dot === '') return;
  const name = entry.name.trim() || `DOT ${dot}`;
  const others = readRecentCarriers().filter((carrier) => carrier.dot !== dot);
  const next = [{ dot, name, viewedAt: now.toISOString() }, ...others].slice(0, RECENT_LIMIT);
  try {
    storage()?.setItem(RECENT_STORAGE_KEY, JSON.stringify(next));
  } catch {
    return; // storage full or blocked: the list simply does not change
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** Empties the list. */
export function clearRecentCarriers(): void {
  try {
    storage()?.removeItem(RECENT_STORAGE_KEY);
  } catch {
    return;
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === RECENT_STORAGE_KEY) onChange();
  };
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

const serverSnapshot = (): string | null => null;

/** The recently viewed carriers, newest first; re-renders when any tab changes the list. */
export function useRecentCarriers(): RecentCarrier[] {
  // The snapshot is the stored text (a stable primitive); it is parsed only when it changes.
  const text = useSyncExternalStore(subscribe, readText, serverSnapshot);
  return useMemo(() => parseRecent(text), [text]);
}
