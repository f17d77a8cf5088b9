import {
  DataTable,
  type DataTableColumn,
  type DataTableSort,
} from '../../../../../components/data-table/DataTable.tsx';
import type { PagerProps } from '../../../../../components/data-table/Pager.tsx';
import { formatCount, formatDate, MISSING } from '../../../../../lib/format.ts';
import { dateSortKey, idSortKey } from '../kit/sort-keys.ts';
import { InspectionDetail } from './InspectionDetail.tsx';
import { useFirstRowsFirst, withServerSort } from '../kit/view-table.tsx';
import {
  INSPECTION_CSV,
  INSPECTION_SORT_FIELDS,
  isOutOfService,
  levelLabel,
  type InspectionRow,
} from './model.ts';

const COLUMNS: readonly DataTableColumn<InspectionRow>[] = [
  {
    id: 'date',
    header: 'Date',
    rowHeader: true,
    cell: (r) => formatDate(r.inspection.insp_date),
    value: (r) => dateSortKey(r.inspection.insp_date),
    firstDirection: 'desc',
    className: 'whitespace-nowrap',
  },
  {
    id: 'state',
    header: 'State',
    cell: (r) => r.inspection.report_state ?? MISSING,
    value: (r) => r.inspection.report_state,
  },
  {
    id: 'location',
    header: 'Location',
    cell: (r) => r.inspection.location_desc ?? r.inspection.county_name ?? MISSING,
    value: (r) => r.inspection.location_desc ?? r.inspection.county_name,
  },
  {
    id: 'level',
    header: 'Level',
    cell: (r) => levelLabel(r.inspection.insp_level_id),
    value: (r) => idSortKey(r.inspection.insp_level_id),
  },
  {
    id: 'violations',
    header: 'Violations',
    cell: (r) => formatCount(r.inspection.viol_total),
    value: (r) => r.inspection.viol_total,
    firstDirection: 'desc',
    align: 'end',
  },
  {
    id: 'oos',
    header: 'Out of service',
    cell: (r) =>
      isOutOfService(r.inspection) ? `Yes (${formatCount(r.inspection.oos_total)})` : 'No',
    value: (r) => r.inspection.oos_total,
    firstDirection: 'desc',
  },
  {
    id: 'units',
    header: 'Units',
    value: () => undefined,
    sortable: false,
    cell: (r) => formatCount(r.inspection.vins?.length ?? 0),
    align: 'end',
  },
];

const SERVER_COLUMNS = withServerSort(COLUMNS, INSPECTION_SORT_FIELDS);

interface InspectionTableProps {
  rows: readonly InspectionRow[];
  total: number;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** the CSV file's name (the rows shown, in the table's order) */
  csvFileName: string;
}

interface ServerInspectionTableProps {
  /** one page of the proxy's rows, in its order */
  rows: readonly InspectionRow[];
  total: number;
  matched: number;
  sort: DataTableSort | undefined;
  onSortChange: (sort: DataTableSort | undefined) => void;
  pager: PagerProps | undefined;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}

function captionOf(matched: number, total: number): string {
  return matched === total
    ? `Inspections: ${formatCount(total)}`
    : `Inspections: ${formatCount(matched)} of ${formatCount(total)} match the filters`;
}

/**
 * A page of inspections as the proxy sorted and filtered them; a header click asks the proxy for
 * the new order (sorting the page alone would mislead). Not virtualised: a page is 100 rows.
 */
export function ServerInspectionTable(props: ServerInspectionTableProps) {
  const rows = useFirstRowsFirst(props.rows);
  return (
    <DataTable
      caption={captionOf(props.matched, props.total)}
      data={rows}
      columns={SERVER_COLUMNS}
      getRowId={(r) => r.id}
      sort={props.sort}
      onSortChange={props.onSortChange}
      pager={props.pager ? { ...props.pager, label: 'Inspection pages' } : undefined}
      virtualize={false}
      maxHeight={480}
      selectedId={props.selectedId}
      onSelect={props.onSelect}
      selectLabel={(r) => `Inspection of ${formatDate(r.inspection.insp_date)}: show on map`}
      renderDetail={(r) => <InspectionDetail inspection={r.inspection} />}
      expandLabel={(r) =>
        `Violations and units of the inspection of ${formatDate(r.inspection.insp_date)}`
      }
    />
  );
}

/** Every (filtered) inspection, newest first, virtualised for carriers with thousands. */
export function InspectionTable({
  rows,
  total,
  selectedId,
  onSelect,
  csvFileName,
}: InspectionTableProps) {
  return (
    <DataTable
      caption={captionOf(rows.length, total)}
      data={rows}
      columns={COLUMNS}
      getRowId={(r) => r.id}
      initialSort={{ id: 'date', desc: true }}
      maxHeight={480}
      selectedId={selectedId}
      onSelect={onSelect}
      selectLabel={(r) => `Inspection of ${formatDate(r.inspection.insp_date)}: show on map`}
      renderDetail={(r) => <InspectionDetail inspection={r.inspection} />}
      expandLabel={(r) =>
        `Violations and units of the inspection of ${formatDate(r.inspection.insp_date)}`
      }
      csv={{ columns: INSPECTION_CSV, fileName: csvFileName, noun: 'inspections' }}
    />
  );
}
