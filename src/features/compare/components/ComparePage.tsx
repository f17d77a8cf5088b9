/**
 * The Compare page (`/compare?dot=568253,2214589`): 2 to 4 carriers side by side, one column each.
 * The URL is the source of truth here (the shared selection follows it); without `dot` the page
 * opens the stored selection. Only profiles the proxy already holds are compared; any other
 * column shows what fetching costs and fetches on request (docs/search-and-profile.md#compare).
 */
import { useQueries } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { csvFileName } from '../../../components/data-table/csv.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { BUTTON, INPUT, MUTED } from '../../../components/controls.ts';
import {
  COMPARE_MAX,
  COMPARE_MIN,
  compareUrl,
  normaliseDot,
  parseCompareDots,
  setSelection,
  useCompareSelection,
} from '../../../lib/comparison/selection.ts';
import { downloadCsv } from '../../../lib/download.ts';
import { enginePolicy, usePolicy } from '../../../entities/vetting/policy.ts';
import type { Profile } from '../../../lib/service/index.ts';
import { evaluate, type Policy, type VerdictResult } from '../../../lib/vetting/index.ts';
import { heldProfileQuery } from '../api/profiles.ts';
import {
  buildComparison,
  columnTitle,
  comparisonCsv,
  type CompareColumn,
} from '../model/compare-model.ts';
import { ComparisonTable } from './ComparisonTable.tsx';

const verdicts = new WeakMap<Profile, { version: number; verdict: VerdictResult }>();

/** The verdict of a held profile under the team policy, computed once per profile and version. */
function verdictOf(profile: Profile, policy: Policy): VerdictResult {
  const known = verdicts.get(profile);
  if (known && known.version === policy.version) return known.verdict;
  const verdict = evaluate(profile, policy);
  verdicts.set(profile, { version: policy.version, verdict });
  return verdict;
}

function AddByDot({ dots, onAdd }: { dots: readonly string[]; onAdd: (dot: string) => void }) {
  const inputId = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string>();
  const full = dots.length >= COMPARE_MAX;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dot = normaliseDot(value);
    if (!dot) setProblem('Type a DOT number: digits only, e.g. 568253.');
    else if (dots.includes(dot)) setProblem(`DOT ${dot} is already compared.`);
    else {
      setProblem(undefined);
      setValue('');
      onAdd(dot);
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2 print:hidden" noValidate>
      <label htmlFor={inputId} className="flex flex-col gap-1 text-sm font-medium">
        Add a carrier by DOT number
        <input
          id={inputId}
          className={INPUT}
          inputMode="numeric"
          autoComplete="off"
          value={value}
          disabled={full}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          onChange={(event) => setValue(event.target.value)}
        />
      </label>
      <button type="submit" className={BUTTON} disabled={full}>
        Add
      </button>
      {full ? (
        <p className={MUTED}>{COMPARE_MAX} carriers at most: remove one to add another.</p>
      ) : null}
      {problem ? (
        <p
          id={`${inputId}-problem`}
          role="alert"
          className="w-full text-sm text-red-800 dark:text-red-300"
        >
          {problem}
        </p>
      ) : null}
    </form>
  );
}

/** The page's DOTs from the URL; with no `dot` parameter, the stored selection's URL is opened. */
function useCompareDots() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const selection = useCompareSelection();
  const param = params.get('dot');
  const parsed = useMemo(() => parseCompareDots(param), [param]);
  const names = useMemo(
    () => new Map(selection.flatMap((entry) => (entry.name ? [[entry.dot, entry.name]] : []))),
    [selection],
  );
  useEffect(() => {
    if (param === null && selection.length > 0) {
      void navigate(compareUrl(selection.map((entry) => entry.dot)), { replace: true });
    }
  }, [param, selection, navigate]);
  // Once on the page the URL wins: a shared link becomes this browser's selection.
  const key = parsed.dots.join(',');
  useEffect(() => {
    if (param !== null) setSelection(key ? key.split(',') : []);
  }, [param, key]);
  const update = (dots: readonly string[]) => {
    setSelection(dots);
    void navigate(compareUrl(dots));
  };
  return { dots: parsed.dots, dropped: parsed.dropped, names, update };
}

export function ComparePage() {
  const { dots, dropped, names, update } = useCompareDots();
  // Only the answers are read here (each column heading reads its own query's state).
  const held = useQueries({
    queries: dots.map((dot) => heldProfileQuery(dot)),
    combine: (results) => results.map((result) => result.data),
  });
  const policy = usePolicy();
  const engine = policy.data ? enginePolicy(policy.data) : undefined;
  const columns: CompareColumn[] = dots.map((dot, index) => {
    const data = held[index];
    const profile = data?.state === 'held' ? data.profile : undefined;
    return {
      dot,
      name: names.get(dot),
      profile,
      verdict: profile && engine ? verdictOf(profile, engine) : undefined,
    };
  });
  // Cheap (a few dozen rows); the verdicts, the costly part, are kept per profile and policy.
  const sections = buildComparison(columns);

  const move = (from: number, to: number) => {
    const next = [...dots];
    const [moved] = next.splice(from, 1);
    if (moved === undefined) return;
    next.splice(to, 0, moved);
    update(next);
  };
  const remove = (dot: string) => update(dots.filter((d) => d !== dot));
  const exportCsv = () =>
    downloadCsv(comparisonCsv(sections, columns), csvFileName(`compare-${dots.join('-')}`));

  return (
    <div className="[page:compare]">
      <PageHeader
        title="Compare"
        description={`${COMPARE_MIN} to ${COMPARE_MAX} carriers side by side: verdict, authority, insurance, safety and network. Only profiles already fetched are compared; any other shows what fetching costs.`}
      />
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <AddByDot dots={dots} onAdd={(dot) => update([...dots, dot])} />
        {dots.length > 0 ? (
          <div className="flex gap-2 print:hidden">
            <button type="button" className={BUTTON} onClick={exportCsv}>
              Export CSV
            </button>
            <button type="button" className={BUTTON} onClick={() => window.print()}>
              Print
            </button>
          </div>
        ) : null}
      </div>
      {dropped.length ? (
        <p className={`${MUTED} mb-3`} role="status">
          Left out of the link: {dropped.join(', ')} (not a DOT number, or more than {COMPARE_MAX}{' '}
          carriers).
        </p>
      ) : null}
      {policy.isError ? (
        <p role="alert" className="mb-3 text-sm text-red-800 dark:text-red-300">
          The vetting policy could not be loaded, so no verdicts are shown.
        </p>
      ) : null}
      {dots.length === 0 ? (
        <p className="max-w-prose">
          Nothing to compare yet. Use “Add to compare” on search results, in the monitoring inbox or
          on a carrier’s profile, or add a carrier by its DOT number above.
        </p>
      ) : (
        <>
          {dots.length < COMPARE_MIN ? (
            <p className={`${MUTED} mb-3`}>Add at least one more carrier to compare.</p>
          ) : null}
          <p className={`${MUTED} mb-3`}>
            Highlighted cells mark what differs in a way that matters: the worst value of a measure,
            or a problem only some carriers have (named in the cell, e.g. “Worst”).
          </p>
          <ComparisonTable
            columns={columns}
            titles={columns.map(columnTitle)}
            sections={sections}
            onMove={move}
            onRemove={remove}
          />
        </>
      )}
    </div>
  );
}
