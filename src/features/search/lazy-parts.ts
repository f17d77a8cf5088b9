/**
 * The search feature's lazy chunks: what the first paint of `/search` does not need, kept out of the
 * initial bundle (budget: `node scripts/bench-bundle.mjs dist --check 150`). Each loader is the one
 * `import()` of its chunk, so prefetching and using it share the same module.
 *
 * - the autocomplete parser (the shared service parsers and zod under them): the omnibox's first
 *   suggestions;
 * - the results reader: the first search;
 * - the results section (results table, VIN details, lite preview, with the table library);
 * - the CSV writer of a page of results (papaparse): the click on "Download this page (CSV)".
 */

export function loadAutocompleteParser() {
  return import('../../lib/service/autocomplete.ts');
}

export function loadResultsReader() {
  return import('./api/read-results.ts');
}

export function loadResultsSection() {
  return import('./components/ResultsSection.tsx');
}

export function loadResultsCsv() {
  return import('./lib/results-csv.ts');
}

/** Fetch every lazy part ahead of use (call when idle); a failure is left to the real use to report. */
export function prefetchSearchParts(): void {
  for (const load of [loadAutocompleteParser, loadResultsReader, loadResultsSection]) {
    load().catch(() => undefined);
  }
}
