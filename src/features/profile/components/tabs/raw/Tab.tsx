import { useDeferredValue, useId, useMemo, useState } from 'react';
import { copyJson, downloadJson } from './export-json.ts';
import { searchJson } from './json-search.ts';
import { JsonTree } from './JsonTree.tsx';
import { ParseIssues } from './ParseIssues.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';

/** Shorter queries would match most of a large profile. */
const MIN_QUERY = 2;
const MATCH_LIMIT = 500;

const BUTTON =
  'rounded-md border border-neutral-300 bg-white px-2.5 py-1 text-sm font-medium hover:bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-900 dark:hover:bg-neutral-800';

function useJsonSearch(raw: unknown, query: string) {
  const deferred = useDeferredValue(query.trim());
  const active = deferred.length >= MIN_QUERY;
  const result = useMemo(
    () => (active ? searchJson(raw, deferred, MATCH_LIMIT) : undefined),
    [raw, deferred, active],
  );
  return { deferred, result };
}

function matchText(result: ReturnType<typeof searchJson> | undefined): string {
  if (!result) return `Type at least ${MIN_QUERY} characters to search keys and values.`;
  if (result.matched.size === 0) return 'No key or value matches.';
  if (result.truncated) return `Showing the first ${MATCH_LIMIT} matches; refine the search.`;
  return result.matched.size === 1 ? '1 match' : `${result.matched.size} matches`;
}

/** Tab 10: the profile item as received, as a lazy, searchable JSON tree with copy and download. */
export function RawTab({ dot, raw, issues }: ProfileTabProps) {
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState('');
  const { deferred, result } = useJsonSearch(raw, query);
  const inputId = useId();
  const fileName = `${dot}.json`;

  const setAll = (open: boolean) => {
    setExpanded(open);
    setVersion((n) => n + 1);
  };
  const copy = () => {
    copyJson(raw).then(
      () => setNotice('Copied the JSON to the clipboard.'),
      (error: unknown) => setNotice(`Copy failed: ${error instanceof Error ? error.message : ''}`),
    );
  };
  const download = () => {
    downloadJson(raw, fileName);
    setNotice(`Saved ${fileName}.`);
  };

  return (
    <Section
      level={2}
      id="raw-profile"
      title="Raw profile"
      description="The profile exactly as the proxy returned it. Containers open on demand."
    >
      <ParseIssues issues={issues} />
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">
          Search keys and values
        </label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className="w-64 max-w-full rounded-md border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-950"
        />
        <button type="button" className={BUTTON} onClick={() => setAll(true)}>
          Expand all
        </button>
        <button type="button" className={BUTTON} onClick={() => setAll(false)}>
          Collapse all
        </button>
        <button type="button" className={BUTTON} onClick={copy}>
          Copy JSON
        </button>
        <button type="button" className={BUTTON} onClick={download}>
          Download {fileName}
        </button>
      </div>
      <p role="status" className="text-sm text-neutral-600 dark:text-neutral-400">
        {notice || matchText(result)}
      </p>
      <div className="rounded-lg border border-neutral-200 bg-white p-3 dark:border-neutral-800 dark:bg-neutral-900">
        <JsonTree key={`${version}-${deferred}`} value={raw} expanded={expanded} search={result} />
      </div>
    </Section>
  );
}
