import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { formatDecimal, formatPercent } from '../../../../../lib/format.ts';
import { basicMarkers, type BasicRow } from './model.ts';
import { Warning } from '../kit/parts.tsx';

function StatusCell({ row }: { row: BasicRow }) {
  const markers = basicMarkers(row);
  if (markers.length === 0) {
    return <span className="text-neutral-600 dark:text-neutral-400">No alert</span>;
  }
  return (
    <ul className="flex flex-col gap-0.5">
      {markers.map((marker) => (
        <li key={marker}>
          <Warning>{marker}</Warning>
        </li>
      ))}
    </ul>
  );
}

function thresholdText(row: BasicRow): string {
  const value = formatPercent(row.threshold);
  return row.thresholdSource === 'default' ? `${value} (default)` : value;
}

const COLUMNS: readonly DataTableColumn<BasicRow>[] = [
  {
    id: 'basic',
    header: 'BASIC',
    rowHeader: true,
    className: 'font-medium',
    value: (row) => row.label,
    cell: (row) => (
      <>
        {row.label}
        {row.serviceComputed && (
          <span className="block text-xs font-normal text-neutral-600 dark:text-neutral-400">
            computed by the service
          </span>
        )}
      </>
    ),
  },
  {
    id: 'percentile',
    header: 'Percentile',
    align: 'end',
    value: (row) => (row.insufficientData ? 'Insufficient data' : formatPercent(row.percentile)),
  },
  { id: 'threshold', header: 'Threshold', align: 'end', value: thresholdText },
  { id: 'measure', header: 'Measure', align: 'end', value: (row) => formatDecimal(row.measure) },
  {
    id: 'status',
    header: 'Status',
    value: (row) => basicMarkers(row).join(', '),
    cell: (row) => <StatusCell row={row} />,
  },
];

/** The precise numbers behind the BASIC chart, one row per BASIC. */
export function BasicTable({ rows }: { rows: readonly BasicRow[] }) {
  return (
    <DataTable
      caption="BASIC percentiles against intervention thresholds"
      sortable={false}
      columns={COLUMNS}
      data={rows}
      getRowId={(row) => row.category}
    />
  );
}
