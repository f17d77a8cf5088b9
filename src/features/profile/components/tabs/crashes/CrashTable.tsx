import { Facts } from '../../../../../components/Facts.tsx';
import {
  DataTable,
  type DataTableColumn,
  type DataTableSort,
} from '../../../../../components/data-table/DataTable.tsx';
import type { PagerProps } from '../../../../../components/data-table/Pager.tsx';
import { formatCount, formatDate, formatFlag, MISSING } from '../../../../../lib/format.ts';
import type { Crash } from '../../../../../lib/service/index.ts';
import { dateSortKey } from '../kit/sort-keys.ts';
import { withServerSort } from '../kit/view-table.tsx';
import { CRASH_CSV, CRASH_SORT_FIELDS, type CrashRow } from './model.ts';

const COLUMNS: readonly DataTableColumn<CrashRow>[] = [
  {
    id: 'date',
    header: 'Date',
    rowHeader: true,
    cell: (r) => formatDate(r.crash.report_date),
    value: (r) => dateSortKey(r.crash.report_date),
    firstDirection: 'desc',
    className: 'whitespace-nowrap',
  },
  {
    id: 'place',
    header: 'Place',
    cell: (r) => [r.crash.city, r.crash.state].filter(Boolean).join(', ') || MISSING,
    value: (r) => r.crash.state,
  },
  {
    id: 'location',
    header: 'Location',
    value: () => undefined,
    sortable: false,
    cell: (r) => r.crash.location ?? MISSING,
  },
  {
    id: 'fatalities',
    header: 'Fatalities',
    cell: (r) => formatCount(r.crash.fatalities),
    value: (r) => r.crash.fatalities,
    firstDirection: 'desc',
    align: 'end',
  },
  {
    id: 'injuries',
    header: 'Injuries',
    cell: (r) => formatCount(r.crash.injuries),
    value: (r) => r.crash.injuries,
    firstDirection: 'desc',
    align: 'end',
  },
  {
    id: 'tow',
    header: 'Tow-away',
    cell: (r) => formatFlag(r.crash.tow_away),
    value: (r) => r.crash.tow_away,
  },
  {
    id: 'vehicles',
    header: 'Vehicles',
    cell: (r) => formatCount(r.crash.vehicles_in_accident),
    value: (r) => r.crash.vehicles_in_accident,
    align: 'end',
  },
];

function CrashDetail({ crash }: { crash: Crash }) {
  const facts: Array<[string, string]> = [
    ['Report', crash.report_number ?? MISSING],
    ['Time', crash.report_time ?? MISSING],
    ['County', crash.county_name ?? MISSING],
    ['Agency', crash.agency ?? MISSING],
    ['Event', crash.crash_event_seq_id_desc ?? MISSING],
    ['Trafficway', crash.trafficway_desc ?? MISSING],
    ['Access control', crash.access_control_desc ?? MISSING],
    ['Road surface', crash.road_surface_condition_desc ?? MISSING],
    ['Weather', crash.weather_condition_desc ?? MISSING],
    ['Light', crash.light_condition_desc ?? MISSING],
    ['Vehicle configuration', crash.vehicle_configuration_desc ?? MISSING],
    ['Cargo body', crash.cargo_body_type_desc ?? MISSING],
    ['VIN', crash.vehicle_identification_number ?? MISSING],
    [
      'Plate',
      [crash.vehicle_license_number, crash.vehicle_license_state].filter(Boolean).join(' · ') ||
        MISSING,
    ],
    ['Hazmat placard', formatFlag(crash.vehicle_hazmat_placard)],
    ['Hazmat released', formatFlag(crash.hazmat_released)],
    ['Federal recordable', formatFlag(crash.federal_recordable)],
    ['State recordable', formatFlag(crash.state_recordable)],
    ['Counted in SMS', formatFlag(crash.included_in_sms_flag)],
  ];
  return <Facts items={facts.map(([term, value]) => ({ term, value }))} columns={4} dense />;
}

interface CrashTableProps {
  rows: readonly CrashRow[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** the CSV file's name (every crash, in the table's order) */
  csvFileName: string;
}

export function CrashTable({ rows, selectedId, onSelect, csvFileName }: CrashTableProps) {
  return (
    <DataTable
      caption={`Crashes: ${formatCount(rows.length)}`}
      data={rows}
      columns={COLUMNS}
      getRowId={(r) => r.id}
      initialSort={{ id: 'date', desc: true }}
      maxHeight={480}
      selectedId={selectedId}
      onSelect={onSelect}
      selectLabel={(r) => `Crash of ${formatDate(r.crash.report_date)}: show on map`}
      renderDetail={(r) => <CrashDetail crash={r.crash} />}
      expandLabel={(r) => `Details of the crash of ${formatDate(r.crash.report_date)}`}
      csv={{ columns: CRASH_CSV, fileName: csvFileName, noun: 'crashes' }}
    />
  );
}

const SERVER_COLUMNS = withServerSort(COLUMNS, CRASH_SORT_FIELDS);

interface ServerCrashTableProps {
  /** one page of the proxy's rows, in its order */
  rows: readonly CrashRow[];
  total: number;
  sort: DataTableSort | undefined;
  onSortChange: (sort: DataTableSort | undefined) => void;
  pager: PagerProps | undefined;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}

/** A page of crashes as the proxy sorted them; a header click asks the proxy for the new order. */
export function ServerCrashTable(props: ServerCrashTableProps) {
  return (
    <DataTable
      caption={`Crashes: ${formatCount(props.total)}`}
      data={props.rows}
      columns={SERVER_COLUMNS}
      getRowId={(r) => r.id}
      sort={props.sort}
      onSortChange={props.onSortChange}
      pager={props.pager ? { ...props.pager, label: 'Crash pages' } : undefined}
      virtualize={false}
      maxHeight={480}
      selectedId={props.selectedId}
      onSelect={props.onSelect}
      selectLabel={(r) => `Crash of ${formatDate(r.crash.report_date)}: show on map`}
      renderDetail={(r) => <CrashDetail crash={r.crash} />}
      expandLabel={(r) => `Details of the crash of ${formatDate(r.crash.report_date)}`}
    />
  );
}
