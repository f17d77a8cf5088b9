import { useTheme } from './theme.ts';

/** A two-state button: pressed means the dark theme is on. */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      aria-pressed={dark}
      onClick={toggleTheme}
      className="inline-flex h-9 items-center gap-2 rounded-md border border-neutral-300 px-2.5 text-sm font-medium text-neutral-700 hover:bg-neutral-100 sm:px-3 dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-800"
    >
      {dark ? <MoonIcon /> : <SunIcon />}
      {/* the word where the row has room: not on a phone, nor at 1024–1279 px beside the search */}
      <span className="sr-only sm:not-sr-only lg:sr-only xl:not-sr-only">Dark mode</span>
    </button>
  );
}

function SunIcon() {
  return (
    <svg
      viewBox="0 0 20 20"
      aria-hidden="true"
      className="size-4"
      fill="none"
      stroke="currentColor"
    >
      <circle cx="10" cy="10" r="3.5" strokeWidth="1.5" />
      <path
        strokeWidth="1.5"
        strokeLinecap="round"
        d="M10 2v1.5M10 16.5V18M2 10h1.5M16.5 10H18M4.3 4.3l1.1 1.1M14.6 14.6l1.1 1.1M4.3 15.7l1.1-1.1M14.6 5.4l1.1-1.1"
      />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg viewBox="0 0 20 20" aria-hidden="true" className="size-4" fill="currentColor">
      <path d="M16.5 12.6A7 7 0 0 1 7.4 3.5a7 7 0 1 0 9.1 9.1z" />
    </svg>
  );
}
