/** `/v2/autocomplete` results: a bare array or `{items}`; `dot_number` number or string. */
import { unwrapItems } from './envelope.ts';
import { joinPath, readRecord, type Parsed, type ParseIssue, type Shape } from './record.ts';

const AUTOCOMPLETE_SPEC = {
  dot_number: 'id',
  legal_name: 'text',
  dba_name: 'text',
  city: 'text',
  state: 'text',
} as const;

/** One suggestion; items without a readable DOT number are dropped (they cannot be opened). */
export type AutocompleteItem = Shape<typeof AUTOCOMPLETE_SPEC> & { dot_number: string };

function hasDot(item: Shape<typeof AUTOCOMPLETE_SPEC>): item is AutocompleteItem {
  return item.dot_number !== undefined;
}

export function parseAutocomplete(body: unknown): Parsed<AutocompleteItem[]> {
  const issues: ParseIssue[] = [];
  const suggestions: AutocompleteItem[] = [];
  for (const { raw, path } of unwrapItems(body, issues).items) {
    const item = readRecord(raw, AUTOCOMPLETE_SPEC, path, issues);
    if (hasDot(item)) suggestions.push(item);
    else
      issues.push({ path: joinPath(path, 'dot_number'), message: 'no DOT number; item dropped' });
  }
  return { value: suggestions, issues };
}
