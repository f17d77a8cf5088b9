/**
 * What the omnibox's listbox offers for an input, best first:
 *
 * - a DOT number: that carrier (or "Search USDOT number: …" when no suggestion is that DOT), then
 *   the carriers whose DOT starts with it, then the other keys the digits could mean (a docket);
 * - a name: one option per distinct name, the names taking turns by first word, so that one
 *   prolific name ("SWIFTLINE …") cannot fill the list and hide another ("SWIFTPATH …");
 *   carriers that share a legal name are one option with their count, which searches that name.
 */
import type { AutocompleteItem } from '../../../lib/service/index.ts';
import {
  SEARCH_KEY_LABELS,
  normaliseSearchValue,
  type DetectedKey,
  type SearchKey,
} from '../lib/search-keys.ts';

export type OmniboxOption =
  | { kind: 'search'; key: SearchKey; value: string; label: string }
  /** `count` carriers of the answer share this one's legal name (1: only this one). */
  | { kind: 'carrier'; item: AutocompleteItem; count: number };

/** Keys whose values the autocomplete can suggest carriers for (names, and DOT prefixes). */
export function suggestsCarriers(key: SearchKey): boolean {
  return key === 'company' || key === 'dot_number';
}

/** The value an alternative key would search: digits offered as a docket read "MC<digits>". */
function alternativeValue(key: SearchKey, input: string): string {
  const value = normaliseSearchValue(key, input);
  return key === 'docket_number' && /^\d+$/.test(value) ? `MC${value}` : value;
}

function searchOption(key: SearchKey, value: string): OmniboxOption {
  return { kind: 'search', key, value, label: `Search ${SEARCH_KEY_LABELS[key]}: ${value}` };
}

function nameKey(item: AutocompleteItem): string {
  const name = item.legal_name?.trim().replace(/\s+/g, ' ').toUpperCase();
  return name ? name : `DOT ${item.dot_number}`;
}

/** One option per legal name, in the answer's order, with how many carriers share it. */
function collapseSameNames(items: readonly AutocompleteItem[]): OmniboxOption[] {
  const byName = new Map<string, { item: AutocompleteItem; count: number }>();
  for (const item of items) {
    const key = nameKey(item);
    const seen = byName.get(key);
    if (seen) seen.count += 1;
    else byName.set(key, { item, count: 1 });
  }
  return [...byName.values()].map(({ item, count }) => ({ kind: 'carrier', item, count }));
}

function firstWord(option: OmniboxOption): string {
  return option.kind === 'carrier' ? (nameKey(option.item).split(' ')[0] ?? '') : '';
}

/**
 * The names taking turns by first word: the first name of each first word (in the order the words
 * first appear), then the second of each, and so on. Within a word the answer's order is kept.
 */
function interleaveByFirstWord(options: readonly OmniboxOption[]): OmniboxOption[] {
  const groups = new Map<string, OmniboxOption[]>();
  for (const option of options) {
    const word = firstWord(option);
    const group = groups.get(word);
    if (group) group.push(option);
    else groups.set(word, [option]);
  }
  const lists = [...groups.values()];
  const out: OmniboxOption[] = [];
  for (let round = 0; out.length < options.length; round += 1) {
    for (const list of lists) {
      const option = list[round];
      if (option) out.push(option);
    }
  }
  return out;
}

function dotOptions(input: string, suggestions: readonly AutocompleteItem[]): OmniboxOption[] {
  const dot = normaliseSearchValue('dot_number', input).replace(/^0+(?=\d)/, '');
  const exact = suggestions.filter((item) => item.dot_number === dot);
  const others = suggestions.filter((item) => item.dot_number !== dot);
  const first: OmniboxOption[] =
    exact.length > 0
      ? exact.map((item) => ({ kind: 'carrier', item, count: 1 }))
      : [searchOption('dot_number', dot)];
  return [...first, ...others.map((item): OmniboxOption => ({ kind: 'carrier', item, count: 1 }))];
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
    : detected.alternatives.map((alternative) =>
        searchOption(alternative, alternativeValue(alternative, input)),
      );
  if (key === 'dot_number') return [...dotOptions(input, suggestions), ...alternatives];
  if (key === 'company') {
    return [...interleaveByFirstWord(collapseSameNames(suggestions)), ...alternatives];
  }
  return alternatives;
}
