import { useCallback, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BUTTON, INPUT, LABEL, MUTED } from '../../../components/controls.ts';
import { useCan } from '../../../entities/session/role.ts';
import { csvFileName, tableCsv } from '../../../components/data-table/csv.ts';
import { ResolveAndWatch } from '../../../entities/watchlist/components/ResolveAndWatch.tsx';
import type { BulkEstimate, BulkItem } from '../../../lib/bulk/contract.ts';
import { COMPARE_MAX, COMPARE_MIN, compareUrl } from '../../../lib/comparison/selection.ts';
import { downloadCsv } from '../../../lib/download.ts';
import { formatCount } from '../../../lib/format.ts';
import { ROW_STATUS_LABELS, VERDICT_LABELS } from '../model/format.ts';
import {
  ROW_STATUSES,
  VERDICTS,
  exportColumns,
  filterRows,
  jobRows,
  readResultParams,
  sortRows,
  writeResultParams,
  type ResultParams,
  type ResultRow,
} from '../model/results.ts';
import { xlsxBlob, xlsxFileName } from '../model/xlsx.ts';
import { ResultsTable } from './ResultsTable.tsx';

function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

interface JobResultsProps {
  jobId: string;
  items: readonly BulkItem[];
  /** the estimate the job was accepted with: its entries left out, and what positions count */
  estimate: BulkEstimate;
}

/**
 * The results: one row per carrier and per entry left out, in the order of the user's list;
 * filters and sort in the URL, selection for "Watch selected", CSV/XLSX export.
 */
export function JobResults({ jobId, items, estimate }: JobResultsProps) {
  const [search, setSearch] = useSearchParams();
  const params = readResultParams(search);
  const numbering = estimate.numbering ?? 'line';
  const rows = useMemo(() => jobRows(items, estimate.rejected), [items, estimate.rejected]);
  const columns = exportColumns(numbering);
  const { verdict, status, q } = params;
  const shown = useMemo(
    () => filterRows(rows, { verdict, status, q, sort: undefined }),
    [rows, verdict, status, q],
  );
  const update = (next: Partial<ResultParams>) =>
    setSearch((current) => writeResultParams(current, next), { replace: true });

  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (row: ResultRow) =>
      setSelected((current) => {
        const next = new Set(current);
        if (!next.delete(row.id)) next.add(row.id);
        return next;
      }),
    [],
  );
  const selectable = shown.filter((row) => row.dot !== undefined);
  const selectedDots = rows
    .filter((row) => selected.has(row.id) && row.dot !== undefined)
    .map((row) => row.dot ?? '');
  const [watching, setWatching] = useState(false);
  const watchRefusal = useCan('watch carriers').reason;
  const [exportNote, setExportNote] = useState<string | undefined>();

  const rowsWord = `${formatCount(shown.length)} ${shown.length === 1 ? 'row' : 'rows'}`;
  const ordered = () => sortRows(shown, params.sort);
  const subject = `bulk-${jobId}`;
  const exportXlsx = async () => {
    setExportNote('Preparing the workbook…');
    try {
      saveBlob(await xlsxBlob(ordered(), columns), xlsxFileName(subject));
      setExportNote(`Exported ${rowsWord}.`);
    } catch (error) {
      setExportNote(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return (
    <section aria-labelledby="bulk-results-title" className="flex flex-col gap-3">
      <h2 id="bulk-results-title" className="text-lg font-semibold">
        Results
      </h2>
      <form
        aria-label="Filter results"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => event.preventDefault()}
      >
        <label className={LABEL}>
          Verdict
          <select
            className={INPUT}
            value={params.verdict ?? ''}
            onChange={(event) =>
              update({ verdict: (event.target.value || undefined) as ResultParams['verdict'] })
            }
          >
            <option value="">Any</option>
            {VERDICTS.map((verdict) => (
              <option key={verdict} value={verdict}>
                {VERDICT_LABELS[verdict]}
              </option>
            ))}
          </select>
        </label>
        <label className={LABEL}>
          Status
          <select
            className={INPUT}
            value={params.status ?? ''}
            onChange={(event) =>
              update({ status: (event.target.value || undefined) as ResultParams['status'] })
            }
          >
            <option value="">Any</option>
            {ROW_STATUSES.map((status) => (
              <option key={status} value={status}>
                {ROW_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <label className={LABEL}>
          Identifier, DOT or name
          <input
            type="search"
            className={INPUT}
            value={params.q}
            onChange={(event) => update({ q: event.target.value })}
          />
        </label>
      </form>
      <p className={MUTED} role="status">
        {formatCount(shown.length)} of {formatCount(rows.length)} rows shown
        {selected.size ? `; ${formatCount(selected.size)} selected` : ''}.
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={BUTTON}
          disabled={selectable.length === 0}
          onClick={() => setSelected(new Set(selectable.map((row) => row.id)))}
        >
          Select {formatCount(selectable.length)} shown
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={selected.size === 0}
          onClick={() => {
            setSelected(new Set());
            setWatching(false);
          }}
        >
          Clear selection
        </button>
        <button
          type="button"
          className={BUTTON}
          aria-expanded={watching}
          disabled={selectedDots.length === 0}
          onClick={() => setWatching((open) => !open)}
        >
          Watch selected ({formatCount(selectedDots.length)})
        </button>
        {/* 2 to 4 selected carriers side by side: the compare page holds only fetched profiles */}
        {selectedDots.length >= COMPARE_MIN && selectedDots.length <= COMPARE_MAX ? (
          <Link className={BUTTON} to={compareUrl(selectedDots)}>
            Compare selected ({formatCount(selectedDots.length)})
          </Link>
        ) : null}
        <button
          type="button"
          className={BUTTON}
          disabled={shown.length === 0}
          onClick={() => downloadCsv(tableCsv(ordered(), columns), csvFileName(subject))}
        >
          Export {rowsWord} as CSV
        </button>
        <button
          type="button"
          className={BUTTON}
          disabled={shown.length === 0}
          onClick={() => void exportXlsx()}
        >
          Export {rowsWord} as XLSX
        </button>
      </div>
      {exportNote ? (
        <p className={MUTED} role="status">
          {exportNote}
        </p>
      ) : null}
      {watching && selectedDots.length ? (
        <section
          aria-label="Watch selected carriers"
          className="rounded-lg border border-neutral-300 p-3 dark:border-neutral-700"
        >
          <ResolveAndWatch
            key={selectedDots.join(',')}
            entries={selectedDots}
            noun={selectedDots.length === 1 ? 'selected carrier' : 'selected carriers'}
            refusal={watchRefusal}
            onDone={() => {
              setSelected(new Set());
              setWatching(false);
            }}
          />
        </section>
      ) : null}
      <ResultsTable
        rows={shown}
        numbering={numbering}
        sort={params.sort}
        onSort={(sort) => update({ sort })}
        selected={selected}
        onToggle={toggle}
      />
    </section>
  );
}
