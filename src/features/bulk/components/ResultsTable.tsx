import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import { standingFor } from '../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatCount } from '../../../lib/format.ts';
import type { Numbering } from '../../../lib/bulk/list.ts';
import { ROW_STATUS_LABELS, VERDICT_LABELS, type Verdict } from '../model/format.ts';
import {
  SORT_VALUES,
  inputsText,
  type ResultParams,
  type ResultRow,
  type SortId,
} from '../model/results.ts';

const VERDICT_CLASS: Record<Verdict, string> = {
  pass: 'text-emerald-800 dark:text-emerald-300',
  review: 'text-amber-900 dark:text-amber-300',
  fail: 'text-red-800 dark:text-red-300',
};
const VERDICT_MARK: Record<Verdict, string> = { pass: '✓', review: '!', fail: '✕' };

function text(value: string | undefined): string {
  return value ?? '—';
}

function nameOf(row: ResultRow): string {
  return row.name ?? (row.dot ? `USDOT ${row.dot}` : row.identifier);
}

interface ResultsTableProps {
  rows: readonly ResultRow[];
  /** what the row column counts: lines of pasted text or rows of the uploaded file */
  numbering: Numbering;
  sort: ResultParams['sort'];
  onSort: (sort: ResultParams['sort']) => void;
  selected: ReadonlySet<string>;
  onToggle: (row: ResultRow) => void;
}

/**
 * The job's carriers and entries left out, virtualised past a few hundred rows; sort kept by the
 * caller (the URL). The verdict is the first column at every width.
 */
export function ResultsTable({
  rows,
  numbering,
  sort,
  onSort,
  selected,
  onToggle,
}: ResultsTableProps) {
  // the decisions already recorded on these carriers, with their standing now: one request per
  // 500 DOTs for the whole job, never one per row
  const dots = useMemo(() => rows.flatMap((row) => (row.dot ? [row.dot] : [])), [rows]);
  const standings = useDecisionStandings(dots).data;
  const columns = useMemo<DataTableColumn<ResultRow>[]>(
    () => [
      // the verdict first, then the carrier: on a phone both show without scrolling sideways
      {
        id: 'verdict',
        header: 'Verdict',
        value: SORT_VALUES.verdict,
        firstDirection: 'desc',
        cell: (row) =>
          row.verdict ? (
            <span
              className={`font-medium whitespace-nowrap ${VERDICT_CLASS[row.verdict]}`}
              title={row.reasons.join('\n') || undefined}
            >
              <span aria-hidden="true">{VERDICT_MARK[row.verdict]} </span>
              {VERDICT_LABELS[row.verdict]}
            </span>
          ) : row.status === 'left_out' ? (
            <span className="whitespace-nowrap text-amber-900 dark:text-amber-300">Left out</span>
          ) : row.status === 'failed' ? (
            <span className="text-red-800 dark:text-red-300">Failed</span>
          ) : (
            '—'
          ),
      },
      {
        id: 'name',
        header: 'Carrier',
        value: SORT_VALUES.name,
        rowHeader: true,
        className: 'min-w-40',
        cell: (row) =>
          row.dot ? (
            <Link to={carrierPath(row.dot)} className="text-sky-800 underline dark:text-sky-300">
              {nameOf(row)}
            </Link>
          ) : (
            // no carrier yet (left out, not found, waiting): the entry as given
            <span className="font-mono break-all">{row.identifier}</span>
          ),
      },
      {
        id: 'select',
        header: 'Select',
        value: () => undefined,
        sortable: false,
        className: 'w-12',
        cell: (row) =>
          row.dot ? (
            <input
              type="checkbox"
              checked={selected.has(row.id)}
              onChange={() => onToggle(row)}
              aria-label={`Select ${nameOf(row)}`}
            />
          ) : null,
      },
      {
        id: 'row',
        header: numbering === 'row' ? 'Row' : 'Line',
        value: SORT_VALUES.row,
        align: 'end',
        cell: (row) => formatCount(row.row),
      },
      {
        id: 'identifier',
        header: 'Identifier',
        value: SORT_VALUES.identifier,
        className: 'min-w-32',
        cell: (row) =>
          row.inputs.length > 1 ? (
            <span>
              {row.identifier}
              <span className="block text-xs text-neutral-600 dark:text-neutral-400">
                Inputs: {inputsText(row, numbering).replaceAll('; ', ', ')}
              </span>
            </span>
          ) : (
            row.identifier
          ),
      },
      { id: 'dot', header: 'DOT', value: SORT_VALUES.dot, cell: (row) => text(row.dot) },
      {
        id: 'status',
        header: 'Status',
        value: SORT_VALUES.status,
        className: 'min-w-44',
        cell: (row) =>
          row.status === 'failed' ? (
            <span className="text-red-800 dark:text-red-300">
              Failed{row.error ? `: ${row.error}` : ''}
            </span>
          ) : row.status === 'left_out' ? (
            <span className="text-amber-900 dark:text-amber-300" title={row.leftOut}>
              {row.leftOutShort ?? row.leftOut}
            </span>
          ) : (
            ROW_STATUS_LABELS[row.status]
          ),
      },
      {
        id: 'decision',
        header: 'Decision',
        value: () => undefined,
        sortable: false,
        className: 'min-w-48',
        cell: (row) => {
          const standing = standingFor(standings, row.dot);
          return standing ? <DecisionStanding item={standing} link /> : '—';
        },
      },
      {
        id: 'authority',
        header: 'Authority',
        value: SORT_VALUES.authority,
        className: 'min-w-44',
        cell: (row) => text(row.authority),
      },
      {
        id: 'insurance',
        header: 'Insurance',
        value: SORT_VALUES.insurance,
        className: 'min-w-52',
        cell: (row) => text(row.insurance),
      },
      {
        id: 'safety',
        header: 'Safety rating',
        value: SORT_VALUES.safety,
        cell: (row) => text(row.safetyRating),
      },
      {
        id: 'basics',
        header: 'BASIC alerts',
        value: SORT_VALUES.basics,
        firstDirection: 'desc',
        cell: (row) =>
          row.basicAlerts.length
            ? row.basicAlerts.join(', ')
            : row.status === 'done'
              ? 'None'
              : '—',
      },
      {
        id: 'oos',
        header: 'OOS',
        value: SORT_VALUES.oos,
        firstDirection: 'desc',
        cell: (row) => (row.outOfService === undefined ? '—' : row.outOfService ? 'Yes' : 'No'),
      },
      {
        id: 'linked',
        header: 'Linked-carrier warnings',
        value: SORT_VALUES.linked,
        firstDirection: 'desc',
        align: 'end',
        cell: (row) => (row.linkedWarnings === undefined ? '—' : formatCount(row.linkedWarnings)),
      },
    ],
    [selected, onToggle, numbering, standings],
  );
  return (
    <DataTable
      caption="Results of the job"
      captionHidden
      columns={columns}
      data={rows}
      getRowId={(row) => row.id}
      sort={sort}
      onSortChange={(next) =>
        onSort(
          next && next.id in SORT_VALUES ? { id: next.id as SortId, desc: next.desc } : undefined,
        )
      }
      maxHeight={560}
      empty="No result matches these filters."
    />
  );
}
