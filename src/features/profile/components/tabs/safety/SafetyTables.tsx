import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { BASIC_LABELS, HISTORY_BASICS } from '../../../../../lib/service/index.ts';
import {
  formatCount,
  formatDate,
  formatDecimal,
  formatPercent,
} from '../../../../../lib/format.ts';
import type { BenchmarkRow, HistoryPoint, OosRow, ViolationRow } from './model.ts';
import { Warning } from '../kit/parts.tsx';

const OOS_COLUMNS: readonly DataTableColumn<OosRow>[] = [
  {
    id: 'kind',
    header: 'Inspection type',
    rowHeader: true,
    className: 'font-medium',
    value: (row) => row.label,
  },
  {
    id: 'inspections',
    header: 'Inspections',
    align: 'end',
    value: (row) => formatCount(row.inspections),
  },
  {
    id: 'oos',
    header: 'Out of service',
    align: 'end',
    value: (row) => formatCount(row.outOfService),
  },
  {
    id: 'carrier',
    header: 'Carrier rate',
    align: 'end',
    value: (row) => formatPercent(row.carrierRate),
  },
  {
    id: 'national',
    header: 'National average',
    align: 'end',
    value: (row) => formatPercent(row.nationalRate),
  },
  {
    id: 'status',
    header: 'Status',
    value: (row) => (row.alert ? 'OOS alert' : 'No alert'),
    cell: (row) => (row.alert ? <Warning>OOS alert</Warning> : 'No alert'),
  },
];

export function OosTable({ rows }: { rows: readonly OosRow[] }) {
  return (
    <DataTable
      caption="Out-of-service rates against national averages"
      sortable={false}
      columns={OOS_COLUMNS}
      data={rows}
      getRowId={(row) => row.kind}
    />
  );
}

const VIOLATION_COLUMNS: readonly DataTableColumn<ViolationRow>[] = [
  {
    id: 'basic',
    header: 'BASIC',
    rowHeader: true,
    className: 'font-medium',
    value: (r) => r.label,
  },
  { id: 'total', header: 'Total', align: 'end', value: (r) => formatCount(r.total) },
  { id: 'severe', header: 'Severe', align: 'end', value: (r) => formatCount(r.severe) },
  { id: 'oos', header: 'Out of service', align: 'end', value: (r) => formatCount(r.outOfService) },
];

export function ViolationsTable({
  rows,
  total,
}: {
  rows: readonly ViolationRow[];
  total?: number;
}) {
  return (
    <DataTable
      caption="Violations per BASIC (last 24 months)"
      sortable={false}
      columns={VIOLATION_COLUMNS}
      data={rows}
      getRowId={(row) => row.category}
      footer={
        <tr>
          <th scope="row" className="px-3 py-2 text-left font-semibold">
            All violations
          </th>
          <td className="px-3 py-2 text-right font-semibold tabular-nums">{formatCount(total)}</td>
          <td className="px-3 py-2" colSpan={2} />
        </tr>
      }
    />
  );
}

const POSITION_TEXT: Record<BenchmarkRow['position'], string> = {
  below: 'Below the expected range',
  within: 'Within the expected range',
  above: 'Above the expected range',
  unknown: 'No range',
};

function indicatorText(value: boolean | undefined): string {
  if (value === true) return 'Flagged';
  return value === false ? 'Not flagged' : '—';
}

const BENCHMARK_COLUMNS: readonly DataTableColumn<BenchmarkRow>[] = [
  {
    id: 'benchmark',
    header: 'Benchmark',
    rowHeader: true,
    className: 'font-medium',
    value: (row) => `${row.label} (${row.code})`,
  },
  { id: 'observed', header: 'Observed', align: 'end', value: (row) => formatDecimal(row.observed) },
  {
    id: 'range',
    header: 'Expected range',
    align: 'end',
    value: (row) => `${formatDecimal(row.lower)} – ${formatDecimal(row.upper)}`,
  },
  { id: 'position', header: 'Position', value: (row) => POSITION_TEXT[row.position] },
  {
    id: 'indicator',
    header: 'Indicator',
    value: (row) => indicatorText(row.indicator),
    cell: (row) =>
      row.indicator === true ? <Warning>Flagged</Warning> : indicatorText(row.indicator),
  },
];

export function BenchmarksTable({ rows }: { rows: readonly BenchmarkRow[] }) {
  return (
    <DataTable
      caption="Industry benchmarks: observed against expected range"
      sortable={false}
      columns={BENCHMARK_COLUMNS}
      data={rows}
      getRowId={(row) => row.code}
    />
  );
}

const HISTORY_COLUMNS: readonly DataTableColumn<HistoryPoint>[] = [
  {
    id: 'snapshot',
    header: 'Snapshot',
    rowHeader: true,
    className: 'font-medium whitespace-nowrap',
    value: (point) => formatDate(point.snapshot),
  },
  ...HISTORY_BASICS.map((category): DataTableColumn<HistoryPoint> => ({
    id: category,
    header: BASIC_LABELS[category],
    align: 'end',
    value: (point) => formatDecimal(point[category]),
  })),
];

/** The history chart's numbers, behind a disclosure. */
export function HistoryTable({ points }: { points: readonly HistoryPoint[] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer rounded text-neutral-700 dark:text-neutral-300">
        Show the history as a table
      </summary>
      <div className="mt-2">
        <DataTable
          caption="BASIC measures per snapshot"
          sortable={false}
          columns={HISTORY_COLUMNS}
          data={points}
          getRowId={(point) => point.snapshot}
        />
      </div>
    </details>
  );
}
