import { useState } from 'react';
import { ExportCsvButton } from '../../../../components/data-table/ExportCsvButton.tsx';
import { formatCount, formatDate, formatFlag, MISSING } from '../../../../lib/format.ts';
import type { EquipmentSummary, Vehicle } from '../../../../lib/service/index.ts';
import { EQUIPMENT_CSV } from './fleet-model.ts';
import { Empty, TableFrame, TD, TH } from './ui.tsx';

const PAGE = 100;

function makeModelYear(v: Vehicle): string {
  const parts = [v.make, v.model, v.model_year === undefined ? undefined : String(v.model_year)];
  const text = parts.filter(Boolean).join(' ');
  return text || MISSING;
}

function plate(v: Vehicle): string {
  if (!v.insp_unit_license) return MISSING;
  return v.insp_unit_license_state
    ? `${v.insp_unit_license} (${v.insp_unit_license_state})`
    : v.insp_unit_license;
}

function multiDot(v: Vehicle): string {
  if (v.multi_dot_flag !== true) return formatFlag(v.multi_dot_flag);
  return v.countd_dots_vin === undefined ? 'Yes' : `Yes, ${formatCount(v.countd_dots_vin)} DOTs`;
}

/** `equipment_history`: one row per VIN, 100 rows at a time; the CSV export has every vehicle. */
export function EquipmentHistoryTable({
  vehicles,
  csvFileName,
}: {
  vehicles: readonly Vehicle[];
  csvFileName: string;
}) {
  const [shown, setShown] = useState(PAGE);
  if (!vehicles.length) return <Empty>No equipment on record.</Empty>;
  const rows = vehicles.slice(0, shown);
  return (
    <div className="space-y-2">
      <div className="flex justify-end">
        <ExportCsvButton
          rows={vehicles}
          columns={EQUIPMENT_CSV}
          fileName={csvFileName}
          noun="vehicles"
        />
      </div>
      <TableFrame caption={`Equipment history: ${formatCount(vehicles.length)} vehicles`}>
        <thead>
          <tr>
            {[
              'VIN',
              'Type',
              'Make / model / year',
              'Plate',
              'Unit',
              'Last inspected',
              'Multi-DOT',
            ].map((h) => (
              <th key={h} scope="col" className={TH}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((v, i) => (
            <tr key={v._id ?? v.vin ?? i}>
              <th scope="row" className={`${TD} font-mono text-xs font-normal`}>
                {v.vin ?? MISSING}
              </th>
              <td className={TD}>{v.unit_type_desc ?? v.type ?? MISSING}</td>
              <td className={TD}>{makeModelYear(v)}</td>
              <td className={TD}>{plate(v)}</td>
              <td className={TD}>{v.insp_unit_company ?? MISSING}</td>
              <td className={TD}>
                {formatDate(v.last_inspection_date_vin_dot ?? v.last_inspection_date_vin)}
              </td>
              <td className={TD}>{multiDot(v)}</td>
            </tr>
          ))}
        </tbody>
      </TableFrame>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Showing {formatCount(rows.length)} of {formatCount(vehicles.length)} vehicles.{' '}
        {rows.length < vehicles.length ? (
          <button
            type="button"
            className="rounded-md border border-neutral-300 px-2 py-1 font-medium text-neutral-900 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800"
            onClick={() => setShown((n) => n + PAGE)}
          >
            Show {formatCount(Math.min(PAGE, vehicles.length - rows.length))} more
          </button>
        ) : null}
      </p>
    </div>
  );
}

type Category = NonNullable<EquipmentSummary['primary_category']>[number];

function CategoryTable({ caption, rows }: { caption: string; rows: readonly Category[] }) {
  return (
    <TableFrame caption={caption}>
      <thead>
        <tr>
          <th scope="col" className={TH}>
            Unit type
          </th>
          <th scope="col" className={TH}>
            Category
          </th>
          <th scope="col" className={`${TH} text-right`}>
            Count
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={`${row.type ?? ''}-${row.category ?? ''}-${i}`}>
            <td className={TD}>{row.type ?? MISSING}</td>
            <th scope="row" className={`${TD} font-normal`}>
              {row.category ?? MISSING}
            </th>
            <td className={`${TD} text-right`}>{formatCount(row.count)}</td>
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

/** `equipment_summary`: counts per primary and per secondary category. */
export function EquipmentSummaryTables({ summary }: { summary: EquipmentSummary | undefined }) {
  const primary = summary?.primary_category ?? [];
  const secondary = summary?.secondary_category ?? [];
  if (!primary.length && !secondary.length) return <Empty>No equipment summary.</Empty>;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div>
        <h4 className="mb-2 text-sm font-semibold">Primary categories</h4>
        <CategoryTable caption="Equipment by primary category" rows={primary} />
      </div>
      <div>
        <h4 className="mb-2 text-sm font-semibold">Secondary categories</h4>
        <CategoryTable caption="Equipment by secondary category" rows={secondary} />
      </div>
    </div>
  );
}
