import {
  VirtualTable,
  type VirtualColumn,
} from '../../../../components/virtual-table/VirtualTable.tsx';
import { formatCount, formatDate, formatFlag, MISSING } from '../../../../lib/format.ts';
import type { Crash } from '../../../../lib/service/index.ts';
import { dateSortKey } from '../sort-keys.ts';
import { CRASH_CSV, type CrashRow } from './crash-data.ts';

const COLUMNS: readonly VirtualColumn<CrashRow>[] = [
  {
    id: 'date',
    header: 'Date',
    cell: (r) => formatDate(r.crash.report_date),
    sortValue: (r) => dateSortKey(r.crash.report_date),
    firstDirection: 'desc',
    className: 'whitespace-nowrap',
  },
  {
    id: 'place',
    header: 'Place',
    cell: (r) => [r.crash.city, r.crash.state].filter(Boolean).join(', ') || MISSING,
    sortValue: (r) => r.crash.state,
  },
  { id: 'location', header: 'Location', cell: (r) => r.crash.location ?? MISSING },
  {
    id: 'fatalities',
    header: 'Fatalities',
    cell: (r) => formatCount(r.crash.fatalities),
    sortValue: (r) => r.crash.fatalities,
    firstDirection: 'desc',
    className: 'text-right',
  },
  {
    id: 'injuries',
    header: 'Injuries',
    cell: (r) => formatCount(r.crash.injuries),
    sortValue: (r) => r.crash.injuries,
    firstDirection: 'desc',
    className: 'text-right',
  },
  {
    id: 'tow',
    header: 'Tow-away',
    cell: (r) => formatFlag(r.crash.tow_away),
    sortValue: (r) => r.crash.tow_away,
  },
  {
    id: 'vehicles',
    header: 'Vehicles',
    cell: (r) => formatCount(r.crash.vehicles_in_accident),
    sortValue: (r) => r.crash.vehicles_in_accident,
    className: 'text-right',
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
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-4">
      {facts.map(([term, value]) => (
        <div key={term} className="min-w-0">
          <dt className="text-neutral-600 dark:text-neutral-400">{term}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
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
    <VirtualTable
      caption={`Crashes: ${formatCount(rows.length)}`}
      rows={rows}
      columns={COLUMNS}
      rowId={(r) => r.id}
      initialSort={{ columnId: 'date', direction: 'desc' }}
      selectedId={selectedId}
      onSelect={onSelect}
      selectLabel={(r) => `Crash of ${formatDate(r.crash.report_date)}: show on map`}
      renderDetail={(r) => <CrashDetail crash={r.crash} />}
      expandLabel={(r) => `Details of the crash of ${formatDate(r.crash.report_date)}`}
      csv={{ columns: CRASH_CSV, fileName: csvFileName, noun: 'crashes' }}
    />
  );
}
