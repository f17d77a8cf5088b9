import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatCount } from '../../../lib/format.ts';
import { ITEM_STATUS_LABELS, VERDICT_LABELS, type Verdict } from '../model/format.ts';
import { SORT_VALUES, type ResultParams, type ResultRow, type SortId } from '../model/results.ts';

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
  sort: ResultParams['sort'];
  onSort: (sort: ResultParams['sort']) => void;
  selected: ReadonlySet<string>;
  onToggle: (row: ResultRow) => void;
}

/** The job's items, virtualised past a few hundred rows; sort kept by the caller (the URL). */
export function ResultsTable({ rows, sort, onSort, selected, onToggle }: ResultsTableProps) {
  const columns = useMemo<DataTableColumn<ResultRow>[]>(
    () => [
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
      { id: 'identifier', header: 'Identifier', value: SORT_VALUES.identifier },
      { id: 'dot', header: 'DOT', value: SORT_VALUES.dot, cell: (row) => text(row.dot) },
      {
        id: 'name',
        header: 'Name',
        value: SORT_VALUES.name,
        rowHeader: true,
        className: 'min-w-48',
        cell: (row) =>
          row.dot ? (
            <Link to={carrierPath(row.dot)} className="text-sky-800 underline dark:text-sky-300">
              {nameOf(row)}
            </Link>
          ) : (
            text(row.name)
          ),
      },
      {
        id: 'status',
        header: 'Status',
        value: SORT_VALUES.status,
        cell: (row) =>
          row.status === 'failed' ? (
            <span className="text-red-800 dark:text-red-300">
              Failed{row.error ? `: ${row.error}` : ''}
            </span>
          ) : (
            ITEM_STATUS_LABELS[row.status]
          ),
      },
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
          ) : (
            '—'
          ),
      },
      {
        id: 'authority',
        header: 'Authority',
        value: SORT_VALUES.authority,
        cell: (row) => text(row.authority),
      },
      {
        id: 'insurance',
        header: 'Insurance',
        value: SORT_VALUES.insurance,
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
    [selected, onToggle],
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
