/**
 * The header's search box: detects what was typed (DOT, docket, VIN, e-mail, phone, EIN, company),
 * says so in the "Search by" select (which also overrides it), and suggests carriers by name or DOT
 * prefix following the ARIA 1.2 combobox pattern (listbox popup, aria-activedescendant).
 * "/" focuses it from anywhere. Enter searches (or opens the highlighted suggestion); a DOT opens
 * its carrier's profile directly.
 *
 * It is never the part of the header that gives way: from 1024 px the input keeps at least 240 px,
 * and the suggestions open under the whole form (input, "Search by" and the button), so the list is
 * never narrower than the input; below 1024 px the form has a full-width row of its own.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  memo,
  useCallback,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useNavigate } from 'react-router';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  hasFreshSuggestions,
  useAutocomplete,
} from '../api/get-autocomplete.ts';
import { useSlashFocus } from '../hooks/use-slash-focus.ts';
import { useTypingDebounce } from '../hooks/use-typing-debounce.ts';
import {
  SEARCH_KEYS,
  SEARCH_KEY_LABELS,
  detectSearchKey,
  isSearchKey,
  normaliseSearchValue,
  type SearchKey,
} from '../lib/search-keys.ts';
import { searchPath } from '../lib/search-params.ts';
import { HighlightMatch } from './HighlightMatch.tsx';
import { buildOmniboxOptions, suggestsCarriers, type OmniboxOption } from './omnibox-options.ts';
import { prefetchSearchParts } from '../lazy-parts.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';

const AUTO = 'auto';

/**
 * Where a search goes. A DOT opens its carrier's profile at once: a DOT search with one match would
 * open it anyway, only after downloading the full profile and drawing a results table, and the
 * profile page reads the summary and says when no carrier has that DOT. Anything else is a search.
 */
function searchTarget(key: SearchKey, value: string): string {
  if (key === 'dot_number' && /^[1-9]\d{0,7}$/.test(value)) return carrierPath(value);
  return searchPath({ key, value, page: 1 });
}

function optionTarget(option: OmniboxOption): string {
  if (option.kind === 'search') return searchTarget(option.key, option.value);
  const { item, count } = option;
  // Several carriers share the name: list them all (a company search for the name).
  if (count > 1 && item.legal_name) {
    return searchPath({ key: 'company', value: item.legal_name, page: 1 });
  }
  return carrierPath(item.dot_number);
}

/** The placeholder for the width: the long one is cut off in a phone's header (390 px). */
const PLACEHOLDER_WIDE = 'DOT, MC, name, phone, e-mail, VIN…  ( / )';
const PLACEHOLDER_NARROW = 'DOT, MC or name';
const WIDE_QUERY = '(min-width: 40rem)';

function subscribeWide(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isWide(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia(WIDE_QUERY).matches;
}

/** The placeholder that fits the viewport, following it as the window is resized. */
function useOmniboxPlaceholder(): string {
  const wide = useSyncExternalStore(subscribeWide, isWide, () => true);
  return wide ? PLACEHOLDER_WIDE : PLACEHOLDER_NARROW;
}

function wrapIndex(index: number, length: number): number {
  return ((index % length) + length) % length;
}

interface OmniboxProps {
  /**
   * Called whenever the box takes focus: the app loads ahead the code of the pages a search opens
   * (a profile). The search feature does not import other features, so the app passes it in.
   */
  onFocusPrepare?: () => void;
}

export function Omnibox({ onFocusPrepare }: OmniboxProps = {}) {
  const ids = useId();
  const inputId = `${ids}-input`;
  const listboxId = `${ids}-listbox`;
  const optionId = (index: number) => `${ids}-option-${index}`;
  const inputRef = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  useSlashFocus(inputRef);
  const placeholder = useOmniboxPlaceholder();

  const [input, setInput] = useState('');
  const [override, setOverride] = useState<SearchKey | undefined>(undefined);
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);

  const client = useQueryClient();
  const isKnown = useCallback((value: string) => hasFreshSuggestions(client, value), [client]);
  const [asked, onType] = useTypingDebounce(AUTOCOMPLETE_DEBOUNCE_MS, isKnown);

  const detected = useMemo(() => detectSearchKey(input), [input]);
  const key = override ?? detected?.key;
  const wantsSuggestions = key !== undefined && suggestsCarriers(key);
  const suggestions = useAutocomplete(wantsSuggestions ? asked : '');
  const options = useMemo(
    () => buildOmniboxOptions(input, detected, override, suggestions.data ?? []),
    [input, detected, override, suggestions.data],
  );
  const autoLabel = detected ? `Auto: ${SEARCH_KEY_LABELS[detected.key]}` : 'Auto-detect';
  const expanded = open && options.length > 0;
  const active = expanded && activeIndex >= 0 ? options[activeIndex] : undefined;

  const reset = () => {
    setInput('');
    setOpen(false);
    setActiveIndex(-1);
  };
  const go = (to: string) => {
    reset();
    inputRef.current?.blur();
    void navigate(to);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (active) return go(optionTarget(active));
    if (key === undefined) return;
    go(searchTarget(key, normaliseSearchValue(key, input)));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      const start = expanded ? activeIndex : step > 0 ? -1 : 0;
      setOpen(true);
      setActiveIndex(wrapIndex(start + step, options.length));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) {
        setOpen(false);
        setActiveIndex(-1);
      } else {
        reset();
      }
    }
  };

  return (
    <form
      role="search"
      aria-label="Carrier search"
      onSubmit={onSubmit}
      className="relative order-last flex w-full min-w-0 items-center gap-1 sm:gap-1.5 lg:order-none lg:w-auto lg:max-w-2xl lg:flex-1"
    >
      <div className="min-w-0 flex-1 lg:min-w-60">
        <label htmlFor={inputId} className="sr-only">
          Search carriers
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-activedescendant={active ? optionId(activeIndex) : undefined}
          aria-describedby={`${ids}-detected`}
          aria-keyshortcuts="/"
          placeholder={placeholder}
          value={input}
          onChange={(event) => {
            setInput(event.target.value);
            onType(event.target.value);
            setOpen(true);
            setActiveIndex(-1);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            setOpen(true);
            // the suggestions' parser (and the results' code) start loading with the first focus
            prefetchSearchParts();
            onFocusPrepare?.();
          }}
          onBlur={() => setOpen(false)}
          className="h-9 w-full min-w-0 rounded-md border border-neutral-300 bg-white px-2 text-sm text-neutral-950 placeholder:text-neutral-500 sm:px-3 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-50 dark:placeholder:text-neutral-400"
        />
        <span id={`${ids}-detected`} className="sr-only">
          {detected ? `Detected: ${SEARCH_KEY_LABELS[detected.key]}.` : ''}
        </span>
      </div>
      <label htmlFor={`${ids}-key`} className="sr-only">
        Search by
      </label>
      <select
        id={`${ids}-key`}
        // the choice in full where the box cuts it ("Auto-dete…" on a phone, "Auto: Company na…")
        title={`Search by: ${override ? SEARCH_KEY_LABELS[override] : autoLabel}`}
        value={override ?? AUTO}
        onChange={(event) =>
          setOverride(isSearchKey(event.target.value) ? event.target.value : undefined)
        }
        className="h-9 max-w-28 shrink-0 rounded-md border border-neutral-300 bg-white px-2 text-sm text-neutral-800 sm:max-w-40 dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
      >
        <option value={AUTO}>{autoLabel}</option>
        {SEARCH_KEYS.map((name) => (
          <option key={name} value={name}>
            {SEARCH_KEY_LABELS[name]}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="inline-flex h-9 shrink-0 items-center justify-center rounded-md bg-neutral-900 px-3 text-sm font-medium text-white hover:bg-neutral-700 max-sm:w-9 max-sm:px-0 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300"
      >
        <SearchIcon />
        <span className="max-sm:sr-only">Search</span>
      </button>
      <ul
        id={listboxId}
        role="listbox"
        aria-label="Suggestions"
        aria-busy={suggestions.isFetching}
        hidden={!expanded}
        className="absolute top-full right-0 left-0 z-40 mt-1 max-h-96 overflow-y-auto rounded-md border border-neutral-200 bg-white py-1 text-sm shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
      >
        {options.map((option, index) => (
          <li
            key={option.kind === 'carrier' ? `dot-${option.item.dot_number}` : `key-${option.key}`}
            id={optionId(index)}
            role="option"
            aria-selected={index === activeIndex}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => go(optionTarget(option))}
            onMouseMove={() => setActiveIndex(index)}
            className={`cursor-pointer px-3 py-1.5 ${index === activeIndex ? 'bg-sky-100 dark:bg-sky-900/60' : ''}`}
          >
            <OptionContent option={option} term={input} />
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {expanded ? `${options.length} suggestions` : ''}
      </p>
    </form>
  );
}

/** The submit button's face on a phone, where the word would take the input's room. */
function SearchIcon() {
  return (
    <svg
      viewBox="0 0 20 20"
      aria-hidden="true"
      className="size-4 sm:hidden"
      fill="none"
      stroke="currentColor"
    >
      <circle cx="8.5" cy="8.5" r="5" strokeWidth="1.75" />
      <path strokeWidth="1.75" strokeLinecap="round" d="M12.5 12.5 17 17" />
    </svg>
  );
}

/**
 * Memoised: a re-render that changes neither the option nor the typed term (arrow keys, the pointer
 * moving over the list) leaves the options' content alone.
 */
const OptionContent = memo(function OptionContent({
  option,
  term,
}: {
  option: OmniboxOption;
  term: string;
}) {
  if (option.kind === 'search') {
    return <span className="font-medium text-sky-800 dark:text-sky-300">{option.label}</span>;
  }
  const { item, count } = option;
  const place = [item.city, item.state].filter(Boolean).join(', ');
  if (count > 1) {
    return (
      <span className="flex flex-col">
        <span className="text-neutral-950 dark:text-neutral-50">
          <HighlightMatch text={item.legal_name ?? `DOT ${item.dot_number}`} term={term} />
        </span>
        <span className="text-xs text-neutral-600 dark:text-neutral-400">
          {count} carriers with this name · list them
        </span>
      </span>
    );
  }
  return (
    <span className="flex flex-col">
      <span className="text-neutral-950 dark:text-neutral-50">
        <HighlightMatch text={item.legal_name ?? `DOT ${item.dot_number}`} term={term} />
        {item.dba_name ? (
          <span className="text-neutral-600 dark:text-neutral-400">
            {' '}
            (DBA <HighlightMatch text={item.dba_name} term={term} />)
          </span>
        ) : null}
      </span>
      <span className="text-xs text-neutral-600 dark:text-neutral-400">
        DOT <HighlightMatch text={item.dot_number} term={term} />
        {place ? ` · ${place}` : ''}
      </span>
    </span>
  );
});
