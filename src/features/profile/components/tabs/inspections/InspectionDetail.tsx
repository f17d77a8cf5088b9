import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { Facts } from '../../../../../components/Facts.tsx';
import { formatCount, formatDecimal, formatFlag, MISSING } from '../../../../../lib/format.ts';
import type { InspectedUnit, Inspection, Violation } from '../../../../../lib/service/index.ts';

function timeOf(hhmm: string | undefined): string {
  return hhmm && /^\d{4}$/.test(hhmm) ? `${hhmm.slice(0, 2)}:${hhmm.slice(2)}` : (hhmm ?? MISSING);
}

/** The expanded part of an inspection row: its facts, violations and inspected units. */
export function InspectionDetail({ inspection }: { inspection: Inspection }) {
  const facts: Array<[string, string]> = [
    ['Report', inspection.report_number ?? MISSING],
    ['Time', `${timeOf(inspection.insp_start_time)}–${timeOf(inspection.insp_end_time)}`],
    ['Facility', inspection.insp_facility ?? MISSING],
    ['County', inspection.county_name ?? MISSING],
    ['Gross weight (lb)', formatCount(inspection.gross_comb_veh_wt)],
    ['Hazmat placard required', formatFlag(inspection.hazmat_placard_req)],
    ['Counted in SMS', formatFlag(inspection.included_in_sms_flag)],
  ];
  return (
    <div className="flex flex-col gap-3">
      <Facts items={facts.map(([term, value]) => ({ term, value }))} columns={4} dense />
      <Violations violations={inspection.violations ?? []} />
      <Units units={inspection.vins ?? []} />
    </div>
  );
}

const VIOLATION_COLUMNS: readonly DataTableColumn<Violation>[] = [
  { id: 'code', header: 'Code', value: (v) => v.viol_code ?? MISSING },
  {
    id: 'description',
    header: 'Description',
    value: (v) => v.viol_desc ?? v.viol_group_desc ?? MISSING,
  },
  {
    id: 'basic',
    header: 'BASIC',
    value: (v) => v.basic_group_desc ?? v.viol_category_desc ?? MISSING,
  },
  { id: 'unit', header: 'Unit', value: (v) => v.viol_unit_desc ?? MISSING },
  { id: 'oos', header: 'Out of service', value: (v) => formatFlag(v.oos_indicator) },
  { id: 'severity', header: 'Severity', value: (v) => formatDecimal(v.severity_weight) },
];

function Violations({ violations }: { violations: readonly Violation[] }) {
  if (!violations.length) return <p className="text-xs">No violations recorded.</p>;
  return (
    <DataTable
      caption={`Violations (${violations.length})`}
      sortable={false}
      columns={VIOLATION_COLUMNS}
      data={violations}
      getRowId={(v) => v._id ?? `${v.viol_code ?? 'violation'}-${violations.indexOf(v)}`}
    />
  );
}

const UNIT_COLUMNS: readonly DataTableColumn<InspectedUnit>[] = [
  { id: 'unit', header: 'Unit', value: (u) => u.insp_unit_id ?? MISSING },
  { id: 'type', header: 'Type', value: (u) => u.insp_unit_type_desc ?? MISSING },
  { id: 'make', header: 'Make', value: (u) => u.insp_unit_make ?? MISSING },
  { id: 'vin', header: 'VIN', className: 'font-mono', value: (u) => u.vin ?? MISSING },
  {
    id: 'plate',
    header: 'Plate',
    value: (u) =>
      [u.insp_unit_license, u.insp_unit_license_state].filter(Boolean).join(' · ') || MISSING,
  },
  { id: 'company', header: 'Company unit no.', value: (u) => u.insp_unit_company ?? MISSING },
];

function Units({ units }: { units: readonly InspectedUnit[] }) {
  if (!units.length) return <p className="text-xs">No units recorded.</p>;
  return (
    <DataTable
      caption={`Inspected units (${units.length})`}
      sortable={false}
      columns={UNIT_COLUMNS}
      data={units}
      getRowId={(u) => `${u.insp_unit_id ?? units.indexOf(u)}-${u.vin ?? ''}`}
    />
  );
}
