/**
 * Light/dark theme: follows the system until the user picks one, which is kept in localStorage.
 * The `dark` class on <html> drives Tailwind's `dark:` variant (see `@custom-variant` in index.css).
 * `public/theme-init.js` applies the same rule before first paint; keep the two in step.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'carrier-desk.theme';
const THEME_CHANGE_EVENT = 'carrier-desk:theme-change';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function readStoredTheme(): Theme | undefined {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : undefined;
  } catch {
    return undefined;
  }
}

function darkMediaQuery(): MediaQueryList | undefined {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : undefined;
}

function systemTheme(): Theme {
  return darkMediaQuery()?.matches ? 'dark' : 'light';
}

function currentTheme(): Theme {
  return readStoredTheme() ?? systemTheme();
}

function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

/** Persists the choice and tells every `useTheme` in this tab (other tabs get a `storage` event). */
function storeTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked (privacy mode): the theme keeps following the system.
  }
  window.dispatchEvent(new Event(THEME_CHANGE_EVENT));
}

function subscribe(onChange: () => void): () => void {
  const media = darkMediaQuery();
  media?.addEventListener('change', onChange);
  window.addEventListener('storage', onChange);
  window.addEventListener(THEME_CHANGE_EVENT, onChange);
  return () => {
    media?.removeEventListener('change', onChange);
    window.removeEventListener('storage', onChange);
    window.removeEventListener(THEME_CHANGE_EVENT, onChange);
  };
}

function serverTheme(): Theme {
  return 'light';
}

export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const theme = useSyncExternalStore(subscribe, currentTheme, serverTheme);
  useEffect(() => applyTheme(theme), [theme]);
  const toggleTheme = useCallback(() => storeTheme(theme === 'dark' ? 'light' : 'dark'), [theme]);
  return { theme, toggleTheme };
}
