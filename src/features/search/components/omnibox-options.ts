/** What the omnibox's listbox offers for an input: other keys to search by, then suggestions. */
import type { AutocompleteItem } from '../../../lib/service/index.ts';
import {
  SEARCH_KEY_LABELS,
  normaliseSearchValue,
  type DetectedKey,
  type SearchKey,
} from '../lib/search-keys.ts';

export type OmniboxOption =
  | { kind: 'search'; key: SearchKey; value: string; label: string }
  | { kind: 'carrier'; item: AutocompleteItem };

/** Keys whose values the autocomplete can suggest carriers for (names, and DOT prefixes). */
export function suggestsCarriers(key: SearchKey): boolean {
  return key === 'company' || key === 'dot_number';
}

/** The value an alternative key would search: digits offered as a docket read "MC<digits>". */
function alternativeValue(key: SearchKey, input: string): string {
  const value = normaliseSearchValue(key, input);
  return key === 'docket_number' && /^\d+$/.test(value) ? `MC${value}` : value;
}

export function buildOmniboxOptions(
  input: string,
  detected: DetectedKey | undefined,
  override: SearchKey | undefined,
  suggestions: readonly AutocompleteItem[],
): OmniboxOption[] {
  if (detected === undefined) return [];
  const key = override ?? detected.key;
  const alternatives: OmniboxOption[] = override
    ? []
    : detected.alternatives.map((alternative) => {
        const value = alternativeValue(alternative, input);
        return {
          kind: 'search',
          key: alternative,
          value,
          label: `Search ${SEARCH_KEY_LABELS[alternative]}: ${value}`,
        };
      });
  const carriers: OmniboxOption[] = suggestsCarriers(key)
    ? suggestions.map((item) => ({ kind: 'carrier', item }))
    : [];
  return [...alternatives, ...carriers];
}
