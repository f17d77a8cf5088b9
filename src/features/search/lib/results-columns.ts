/**
 * What the results table shows and sorts by, and the CSV of a page of results. A page is sorted in
 * the browser (the service's `/v2/profile` has no sort parameter, and sorting all pages would mean
 * fetching, and paying for, every one of them), so the sort is always "within this page".
 * Risk sorts by severity (Low < Medium < High < Very High), not by its words. The CSV of a page is
 * `results-csv.ts`, loaded on the click that asks for it.
 */
import { MISSING, triState, type TriState } from '../../../lib/format.ts';
import {
  authoritySummary,
  docketOf,
  placeOf,
  usdotSummary,
  type SummaryFields,
} from './carrier-summary.ts';
import type { ResultSortColumn, ResultsSort } from './search-params.ts';

/** The fields of a result row: both the full and the lite profile carry them. */
export interface ResultRow extends SummaryFields {
  dba_name?: string | undefined;
  indicator_insurance?: boolean | null | undefined;
  risk_score?: string | undefined;
}

/** The service's risk scores, least severe first (spec "States and transitions"). */
const RISK_SEVERITY = ['low', 'medium', 'high', 'very high'] as const;

/** 0 for Low … 3 for Very High; undefined when not scored or not one of the four. */
export function riskSeverity(score: string | undefined): number | undefined {
  const index = RISK_SEVERITY.findIndex(
    (level) => level === score?.trim().replace(/\s+/g, ' ').toLowerCase(),
  );
  return index < 0 ? undefined : index;
}

/** Pass before not applicable before fail. */
const TRI_RANK: Record<TriState, number> = { pass: 0, 'not-applicable': 1, fail: 2 };

type SortValue = string | number | undefined;

interface SortableColumn {
  label: string;
  /** Words for the two directions: [ascending, descending]. */
  directions: readonly [string, string];
  value: (row: ResultRow) => SortValue;
}

const TEXT: readonly [string, string] = ['A to Z', 'Z to A'];
const NUMBER: readonly [string, string] = ['lowest first', 'highest first'];

function present(text: string | undefined): string | undefined {
  return text === undefined || text === MISSING || text === '' ? undefined : text;
}

const SORTABLE_COLUMNS: Record<ResultSortColumn, SortableColumn> = {
  name: { label: 'Carrier', directions: TEXT, value: (row) => row.legal_name },
  dot: {
    label: 'DOT',
    directions: NUMBER,
    value: (row) => (row.dot_number ? Number(row.dot_number) : undefined),
  },
  docket: { label: 'Docket', directions: TEXT, value: (row) => docketOf(row) },
  place: { label: 'City / state', directions: TEXT, value: (row) => present(placeOf(row)) },
  usdot: { label: 'USDOT status', directions: TEXT, value: (row) => present(usdotSummary(row)) },
  authority: {
    label: 'Authority',
    directions: TEXT,
    value: (row) => present(authoritySummary(row)),
  },
  insurance: {
    label: 'Insurance',
    directions: ['pass first', 'fail first'],
    value: (row) => TRI_RANK[triState(row.indicator_insurance)],
  },
  risk: { label: 'Risk', directions: NUMBER, value: (row) => riskSeverity(row.risk_score) },
};

/** "Risk, highest first". */
export function describeSort(sort: ResultsSort): string {
  const column = SORTABLE_COLUMNS[sort.column];
  return `${column.label}, ${column.directions[sort.desc ? 1 : 0]}`;
}

/** Text naturally ("MC9" before "MC10"), case-insensitively; numbers numerically. */
const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareValues(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return NATURAL.compare(String(a), String(b));
}

/**
 * The rows of one page in the order of `sort` (a stable sort; rows without a value last in either
 * direction), or as the service sent them when there is no sort.
 */
export function sortResults<T extends ResultRow>(
  rows: readonly T[],
  sort: ResultsSort | undefined,
): readonly T[] {
  if (!sort) return rows;
  const { value } = SORTABLE_COLUMNS[sort.column];
  const sign = sort.desc ? -1 : 1;
  return rows
    .map((row) => ({ row, key: value(row) }))
    .sort((a, b) => {
      if (a.key === undefined || b.key === undefined) {
        return (a.key === undefined ? 1 : 0) - (b.key === undefined ? 1 : 0);
      }
      return sign * compareValues(a.key, b.key);
    })
    .map(({ row }) => row);
}
