import { formatCount, formatDecimal, formatFlag, MISSING } from '../../../../lib/format.ts';
import type { InspectedUnit, Inspection, Violation } from '../../../../lib/service/index.ts';

const SUB_TABLE = 'w-full border-collapse text-xs';
const SUB_CELL =
  'border-t border-neutral-200 px-2 py-1 text-left align-top dark:border-neutral-800';

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
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-4">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="text-neutral-600 dark:text-neutral-400">{term}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      <Violations violations={inspection.violations ?? []} />
      <Units units={inspection.vins ?? []} />
    </div>
  );
}

function Violations({ violations }: { violations: readonly Violation[] }) {
  if (!violations.length) return <p className="text-xs">No violations recorded.</p>;
  return (
    <table className={SUB_TABLE}>
      <caption className="text-left font-semibold">Violations ({violations.length})</caption>
      <thead>
        <tr>
          {['Code', 'Description', 'BASIC', 'Unit', 'Out of service', 'Severity'].map((h) => (
            <th key={h} scope="col" className={SUB_CELL}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {violations.map((v, index) => (
          <tr key={v._id ?? `${v.viol_code ?? 'violation'}-${index}`}>
            <td className={SUB_CELL}>{v.viol_code ?? MISSING}</td>
            <td className={SUB_CELL}>{v.viol_desc ?? v.viol_group_desc ?? MISSING}</td>
            <td className={SUB_CELL}>{v.basic_group_desc ?? v.viol_category_desc ?? MISSING}</td>
            <td className={SUB_CELL}>{v.viol_unit_desc ?? MISSING}</td>
            <td className={SUB_CELL}>{formatFlag(v.oos_indicator)}</td>
            <td className={SUB_CELL}>{formatDecimal(v.severity_weight)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Units({ units }: { units: readonly InspectedUnit[] }) {
  if (!units.length) return <p className="text-xs">No units recorded.</p>;
  return (
    <table className={SUB_TABLE}>
      <caption className="text-left font-semibold">Inspected units ({units.length})</caption>
      <thead>
        <tr>
          {['Unit', 'Type', 'Make', 'VIN', 'Plate', 'Company unit no.'].map((h) => (
            <th key={h} scope="col" className={SUB_CELL}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {units.map((u, index) => (
          <tr key={`${u.insp_unit_id ?? index}-${u.vin ?? ''}`}>
            <td className={SUB_CELL}>{u.insp_unit_id ?? MISSING}</td>
            <td className={SUB_CELL}>{u.insp_unit_type_desc ?? MISSING}</td>
            <td className={SUB_CELL}>{u.insp_unit_make ?? MISSING}</td>
            <td className={`${SUB_CELL} font-mono`}>{u.vin ?? MISSING}</td>
            <td className={SUB_CELL}>
              {[u.insp_unit_license, u.insp_unit_license_state].filter(Boolean).join(' · ') ||
                MISSING}
            </td>
            <td className={SUB_CELL}>{u.insp_unit_company ?? MISSING}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
