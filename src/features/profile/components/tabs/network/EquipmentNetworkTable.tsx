import { Link } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import { formatCount, formatFlag, MISSING } from '../../../../../lib/format.ts';
import type { NetworkEquipmentCarrier, Vehicle } from '../../../../../lib/service/index.ts';
import { normaliseDot } from './model.ts';
import { Empty } from '../kit/parts.tsx';

function SharedVins({ vins }: { vins: readonly Vehicle[] }) {
  if (!vins.length) return <Empty>No VIN detail sent.</Empty>;
  return (
    <ul className="grid gap-1 text-xs sm:grid-cols-2">
      {vins.map((v, i) => (
        <li key={v._id ?? v.vin ?? i}>
          <span className="font-mono">{v.vin ?? MISSING}</span> —{' '}
          {[v.unit_type_desc ?? v.type, v.make, v.model, v.model_year].filter(Boolean).join(' ')}
          {v.insp_unit_license
            ? `, plate ${v.insp_unit_license} ${v.insp_unit_license_state ?? ''}`
            : ''}
        </li>
      ))}
    </ul>
  );
}

function dotOf(carrier: NetworkEquipmentCarrier): string | undefined {
  return carrier.dot_number ? normaliseDot(carrier.dot_number) : undefined;
}

const COLUMNS: readonly DataTableColumn<NetworkEquipmentCarrier>[] = [
  {
    id: 'carrier',
    header: 'Carrier',
    rowHeader: true,
    value: (carrier) => carrier.legal_name,
    cell: (carrier) => {
      const dot = dotOf(carrier);
      return (
        <>
          {dot ? (
            <Link
              to={carrierPath(dot)}
              className="font-medium text-sky-800 underline underline-offset-2 dark:text-sky-300"
            >
              DOT {dot}
            </Link>
          ) : (
            MISSING
          )}
          <div>{carrier.legal_name ?? MISSING}</div>
          {carrier.dockets?.length ? (
            <div className="text-xs text-neutral-600 dark:text-neutral-400">
              {carrier.dockets.join(', ')}
            </div>
          ) : null}
        </>
      );
    },
  },
  { id: 'usdot', header: 'USDOT status', value: (carrier) => carrier.usdot_status ?? MISSING },
  {
    id: 'oos',
    header: 'Out of service',
    value: (carrier) => formatFlag(carrier.out_of_service_flag),
    cell: (carrier) =>
      carrier.out_of_service_flag === true ? (
        <span className="font-semibold text-red-700 dark:text-red-300">⚠ Yes</span>
      ) : (
        formatFlag(carrier.out_of_service_flag)
      ),
  },
  { id: 'hazmat', header: 'Hazmat', value: (c) => formatFlag(c.hazardous_material_flag) },
  {
    id: 'vins',
    header: 'Shared VINs',
    value: (carrier) => carrier.count_shared_vins ?? carrier.shared_vins?.length,
    cell: (carrier, detail) => (
      <button
        type="button"
        aria-expanded={detail.expanded}
        aria-controls={detail.id}
        onClick={detail.toggle}
        className="rounded-md border border-neutral-300 px-2 py-0.5 text-xs font-medium dark:border-neutral-700"
      >
        {formatCount(carrier.count_shared_vins ?? carrier.shared_vins?.length)} VINs{' '}
        <span className="sr-only">shared with DOT {dotOf(carrier)}</span>
        {detail.expanded ? '▴' : '▾'}
      </button>
    ),
  },
  { id: 'power', header: 'Power units', value: (c) => formatCount(c.count_shared_power_units) },
  { id: 'trailers', header: 'Trailers', value: (c) => formatCount(c.count_shared_trailers) },
];

/** `network_graph_equipment_ext`: carriers that ran the same VINs. */
export function EquipmentNetworkTable({
  carriers,
}: {
  carriers: readonly NetworkEquipmentCarrier[];
}) {
  if (!carriers.length) return <Empty>No carrier shares equipment with this one.</Empty>;
  return (
    <DataTable
      caption={`Carriers sharing VINs: ${formatCount(carriers.length)}`}
      captionHidden
      sortable={false}
      columns={COLUMNS}
      data={carriers}
      getRowId={(carrier) =>
        `shared-vins-${carrier._id ?? carrier.dot_number ?? carriers.indexOf(carrier)}`
      }
      renderDetail={(carrier) => <SharedVins vins={carrier.shared_vins ?? []} />}
      detailToggle="cell"
    />
  );
}
