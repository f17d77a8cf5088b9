/** A VIN search's vehicle: the decoded vehicle and that vehicle's own inspection history. */
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { MISSING, formatCount, formatDate } from '../../../lib/format.ts';
import type { Inspection } from '../../../lib/service/index.ts';
import type { VinDetails as VinDetailsData } from '../api/read-results.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';

/** A text value of an inspection's extra keys (`dot_number`, `legal_name`), string or number. */
function extraText(inspection: Inspection, key: string): string | undefined {
  const value = inspection.extra[key];
  if (typeof value === 'string' && value.trim() !== '') return value;
  return typeof value === 'number' ? String(value) : undefined;
}

const INSPECTION_COLUMNS: DataTableColumn<Inspection>[] = [
  { id: 'date', header: 'Date', value: (i) => i.insp_date, cell: (i) => formatDate(i.insp_date) },
  { id: 'report', header: 'Report', value: (i) => i.report_number },
  { id: 'state', header: 'State', value: (i) => i.report_state },
  { id: 'level', header: 'Level', value: (i) => i.insp_level_id },
  {
    id: 'carrier',
    header: 'Carrier',
    value: (i) => extraText(i, 'legal_name') ?? extraText(i, 'dot_number'),
    cell: (i) => {
      const dot = extraText(i, 'dot_number');
      const name = extraText(i, 'legal_name') ?? (dot ? `DOT ${dot}` : MISSING);
      return dot ? (
        <Link
          to={carrierPath(dot)}
          className="text-sky-800 underline underline-offset-2 dark:text-sky-300"
        >
          {name}
        </Link>
      ) : (
        name
      );
    },
  },
  {
    id: 'violations',
    header: 'Violations',
    align: 'end',
    value: (i) => i.viol_total,
    cell: (i) => formatCount(i.viol_total),
  },
  {
    id: 'oos',
    header: 'Out of service',
    align: 'end',
    value: (i) => i.oos_total,
    cell: (i) => formatCount(i.oos_total),
  },
];

export function VinDetails({ vin, details }: { vin: string; details: VinDetailsData }) {
  const vehicle = details.vehicle;
  const facts: [string, string | number | undefined][] = [
    ['VIN', vehicle?.vin ?? vin],
    ['Make / model', [vehicle?.make, vehicle?.model].filter(Boolean).join(' ') || undefined],
    ['Model year', vehicle?.model_year],
    ['Type', vehicle?.vehicle_type ?? vehicle?.type],
    ['Body class', vehicle?.body_class],
    ['GVWR', vehicle?.gvwr],
    ['Fuel', vehicle?.fuel_type_primary],
    ['Trailer type', vehicle?.trailer_type],
  ];
  return (
    <section aria-labelledby="vin-heading" className="space-y-3">
      <h2 id="vin-heading" className="text-lg font-semibold text-neutral-950 dark:text-neutral-50">
        Vehicle {vin}
      </h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="text-neutral-600 dark:text-neutral-400">{term}</dt>
            <dd className="font-medium break-all text-neutral-950 dark:text-neutral-50">
              {value ?? MISSING}
            </dd>
          </div>
        ))}
      </dl>
      <DataTable
        caption={`Inspections of this vehicle (${details.inspections.length})`}
        columns={INSPECTION_COLUMNS}
        data={details.inspections}
        getRowId={(i) => i._id ?? i.report_number ?? JSON.stringify(i)}
        initialSort={{ id: 'date', desc: true }}
        pageSize={10}
        empty="No inspection of this vehicle on record."
      />
    </section>
  );
}
