import {
  VirtualTable,
  type VirtualColumn,
} from '../../../../components/virtual-table/VirtualTable.tsx';
import { formatCount, formatDate, MISSING } from '../../../../lib/format.ts';
import { dateSortKey, idSortKey } from '../sort-keys.ts';
import { InspectionDetail } from './InspectionDetail.tsx';
import {
  INSPECTION_CSV,
  isOutOfService,
  levelLabel,
  type InspectionRow,
} from './inspection-data.ts';

const COLUMNS: readonly VirtualColumn<InspectionRow>[] = [
  {
    id: 'date',
    header: 'Date',
    cell: (r) => formatDate(r.inspection.insp_date),
    sortValue: (r) => dateSortKey(r.inspection.insp_date),
    firstDirection: 'desc',
    className: 'whitespace-nowrap',
  },
  {
    id: 'state',
    header: 'State',
    cell: (r) => r.inspection.report_state ?? MISSING,
    sortValue: (r) => r.inspection.report_state,
  },
  {
    id: 'location',
    header: 'Location',
    cell: (r) => r.inspection.location_desc ?? r.inspection.county_name ?? MISSING,
    sortValue: (r) => r.inspection.location_desc ?? r.inspection.county_name,
  },
  {
    id: 'level',
    header: 'Level',
    cell: (r) => levelLabel(r.inspection.insp_level_id),
    sortValue: (r) => idSortKey(r.inspection.insp_level_id),
  },
  {
    id: 'violations',
    header: 'Violations',
    cell: (r) => formatCount(r.inspection.viol_total),
    sortValue: (r) => r.inspection.viol_total,
    firstDirection: 'desc',
    className: 'text-right',
  },
  {
    id: 'oos',
    header: 'Out of service',
    cell: (r) =>
      isOutOfService(r.inspection) ? `Yes (${formatCount(r.inspection.oos_total)})` : 'No',
    sortValue: (r) => r.inspection.oos_total,
    firstDirection: 'desc',
  },
  {
    id: 'units',
    header: 'Units',
    cell: (r) => formatCount(r.inspection.vins?.length ?? 0),
    className: 'text-right',
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
    <VirtualTable
      caption={caption}
      rows={rows}
      columns={COLUMNS}
      rowId={(r) => r.id}
      initialSort={{ columnId: 'date', direction: 'desc' }}
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
