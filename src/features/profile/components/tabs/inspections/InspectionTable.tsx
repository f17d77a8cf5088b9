import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { formatCount, formatDate, MISSING } from '../../../../../lib/format.ts';
import { dateSortKey, idSortKey } from '../kit/sort-keys.ts';
import { InspectionDetail } from './InspectionDetail.tsx';
import { INSPECTION_CSV, isOutOfService, levelLabel, type InspectionRow } from './model.ts';

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

interface InspectionTableProps {
  rows: readonly InspectionRow[];
  total: number;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** the CSV file's name (the rows shown, in the table's order) */
  csvFileName: string;
}

/** Every (filtered) inspection, newest first, virtualised for carriers with thousands. */
export function InspectionTable({
  rows,
  total,
  selectedId,
  onSelect,
  csvFileName,
}: InspectionTableProps) {
  const caption =
    rows.length === total
      ? `Inspections: ${formatCount(total)}`
      : `Inspections: ${formatCount(rows.length)} of ${formatCount(total)} match the filters`;
  return (
    <DataTable
      caption={caption}
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
