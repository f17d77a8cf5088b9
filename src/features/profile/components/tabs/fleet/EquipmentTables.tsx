import { useMemo, useState } from 'react';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { ExportCsvButton } from '../../../../../components/data-table/ExportCsvButton.tsx';
import { ErrorState } from '../../../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../../../components/Skeleton.tsx';
import { formatCount, formatDate, formatFlag, MISSING } from '../../../../../lib/format.ts';
import type { EquipmentSummary, Vehicle } from '../../../../../lib/service/index.ts';
import { useViewPage, type ViewRow } from '../../../api/profile-view.ts';
import { EQUIPMENT_CSV } from './model.ts';
import { Empty } from '../kit/parts.tsx';
import { ExportViewCsv } from '../kit/view-table.tsx';

const PAGE = 100;

const VEHICLE_COLUMNS: readonly DataTableColumn<Vehicle>[] = [
  {
    id: 'vin',
    header: 'VIN',
    rowHeader: true,
    className: 'font-mono text-xs',
    value: (v) => v.vin,
    cell: (v) => v.vin ?? MISSING,
  },
  { id: 'type', header: 'Type', value: (v) => v.unit_type_desc ?? v.type ?? MISSING },
  { id: 'make', header: 'Make / model / year', value: makeModelYear },
  { id: 'plate', header: 'Plate', value: plate },
  { id: 'unit', header: 'Unit', value: (v) => v.insp_unit_company ?? MISSING },
  {
    id: 'inspected',
    header: 'Last inspected',
    value: (v) => formatDate(v.last_inspection_date_vin_dot ?? v.last_inspection_date_vin),
  },
  { id: 'multi', header: 'Multi-DOT', value: multiDot },
];

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
      <DataTable
        caption={`Equipment history: ${formatCount(vehicles.length)} vehicles`}
        captionHidden
        sortable={false}
        // it shows 100 more at a time: every shown row stays in the page (find, print)
        virtualize={false}
        columns={VEHICLE_COLUMNS}
        data={rows}
        getRowId={(v) => v._id ?? v.vin ?? String(rows.indexOf(v))}
      />
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

/** The proxy's equipment view, most recently inspected first (the service's order is not kept). */
const EQUIPMENT_ORDER = { sort: 'last_inspection_date_vin', dir: 'desc' } as const;

const vehicleOf = (row: ViewRow<'equipment'>): Vehicle => row.item;

const MORE_BUTTON =
  'rounded-md border border-neutral-300 px-2 py-1 font-medium text-neutral-900 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800';

/**
 * `equipment_history` from the proxy's `equipment` view: the first 100 vehicles, 100 more on each
 * click (one request for the rows shown), and a CSV of every vehicle fetched on its click.
 */
export function ServerEquipmentHistoryTable({
  dot,
  csvFileName,
}: {
  dot: string;
  csvFileName: string;
}) {
  const [shown, setShown] = useState(PAGE);
  const result = useViewPage(dot, 'equipment', {
    ...EQUIPMENT_ORDER,
    offset: '0',
    limit: String(shown),
  });
  const page = result.data;
  const vehicles = useMemo(() => page?.rows.map(vehicleOf) ?? [], [page]);
  const ids = useMemo(() => new Map(page?.rows.map((row) => [row.item, row.id])), [page]);
  if (result.isError && !page) {
    return (
      <ErrorState
        key={result.errorUpdatedAt}
        error={result.error}
        what="the equipment history"
        onRetry={() => void result.refetch()}
        retrying={result.isFetching}
      />
    );
  }
  if (!page) return <LoadingBlock label="Loading the equipment history" />;
  if (!page.total) return <Empty>No equipment on record.</Empty>;
  return (
    <div className="space-y-2">
      <ExportViewCsv
        dot={dot}
        view="equipment"
        query={EQUIPMENT_ORDER}
        matched={page.matched}
        toRow={vehicleOf}
        columns={EQUIPMENT_CSV}
        fileName={csvFileName}
        noun="vehicles"
      />
      <DataTable
        caption={`Equipment history: ${formatCount(page.total)} vehicles`}
        captionHidden
        sortable={false}
        virtualize={false}
        columns={VEHICLE_COLUMNS}
        data={vehicles}
        getRowId={(v) => ids.get(v) ?? ''}
      />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Showing {formatCount(page.rows.length)} of {formatCount(page.total)} vehicles, most recently
        inspected first.{' '}
        {page.rows.length < page.total ? (
          <button
            type="button"
            className={MORE_BUTTON}
            disabled={result.isFetching}
            onClick={() => setShown((n) => n + PAGE)}
          >
            Show {formatCount(Math.min(PAGE, page.total - page.rows.length))} more
          </button>
        ) : null}
      </p>
    </div>
  );
}

type Category = NonNullable<EquipmentSummary['primary_category']>[number];

const CATEGORY_COLUMNS: readonly DataTableColumn<Category>[] = [
  { id: 'type', header: 'Unit type', value: (row) => row.type, cell: (row) => row.type ?? MISSING },
  {
    id: 'category',
    header: 'Category',
    rowHeader: true,
    value: (row) => row.category,
    cell: (row) => row.category ?? MISSING,
  },
  {
    id: 'count',
    header: 'Count',
    align: 'end',
    value: (row) => row.count,
    cell: (row) => formatCount(row.count),
  },
];

function CategoryTable({ caption, rows }: { caption: string; rows: readonly Category[] }) {
  return (
    <DataTable
      caption={caption}
      captionHidden
      sortable={false}
      columns={CATEGORY_COLUMNS}
      data={rows}
      getRowId={(row) => `${row.type ?? ''}-${row.category ?? ''}-${rows.indexOf(row)}`}
    />
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
