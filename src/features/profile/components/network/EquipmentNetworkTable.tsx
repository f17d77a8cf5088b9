import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { formatCount, formatFlag, MISSING } from '../../../../lib/format.ts';
import type { NetworkEquipmentCarrier, Vehicle } from '../../../../lib/service/index.ts';
import { Empty, TableFrame, TD, TH } from '../fleet/ui.tsx';
import { normaliseDot } from './network-model.ts';

const HEADERS = [
  'Carrier',
  'USDOT status',
  'Out of service',
  'Hazmat',
  'Shared VINs',
  'Power units',
  'Trailers',
];

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

function CarrierRow({ carrier, index }: { carrier: NetworkEquipmentCarrier; index: number }) {
  const [open, setOpen] = useState(false);
  const dot = carrier.dot_number ? normaliseDot(carrier.dot_number) : undefined;
  const detailId = `shared-vins-${index}`;
  const oos = carrier.out_of_service_flag === true;
  return (
    <Fragment>
      <tr>
        <th scope="row" className={`${TD} font-normal`}>
          {dot ? (
            <Link
              to={`/carriers/${dot}/overview`}
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
        </th>
        <td className={TD}>{carrier.usdot_status ?? MISSING}</td>
        <td className={oos ? `${TD} font-semibold text-red-700 dark:text-red-300` : TD}>
          {oos ? '⚠ Yes' : formatFlag(carrier.out_of_service_flag)}
        </td>
        <td className={TD}>{formatFlag(carrier.hazardous_material_flag)}</td>
        <td className={TD}>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailId}
            onClick={() => setOpen((o) => !o)}
            className="rounded-md border border-neutral-300 px-2 py-0.5 text-xs font-medium dark:border-neutral-700"
          >
            {formatCount(carrier.count_shared_vins ?? carrier.shared_vins?.length)} VINs{' '}
            <span className="sr-only">shared with DOT {dot}</span>
            {open ? '▴' : '▾'}
          </button>
        </td>
        <td className={TD}>{formatCount(carrier.count_shared_power_units)}</td>
        <td className={TD}>{formatCount(carrier.count_shared_trailers)}</td>
      </tr>
      {open ? (
        <tr id={detailId}>
          <td colSpan={HEADERS.length} className={`${TD} bg-neutral-50 dark:bg-neutral-950`}>
            <SharedVins vins={carrier.shared_vins ?? []} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

/** `network_graph_equipment_ext`: carriers that ran the same VINs. */
export function EquipmentNetworkTable({
  carriers,
}: {
  carriers: readonly NetworkEquipmentCarrier[];
}) {
  if (!carriers.length) return <Empty>No carrier shares equipment with this one.</Empty>;
  return (
    <TableFrame caption={`Carriers sharing VINs: ${formatCount(carriers.length)}`}>
      <thead>
        <tr>
          {HEADERS.map((h) => (
            <th key={h} scope="col" className={TH}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {carriers.map((carrier, i) => (
          <CarrierRow key={carrier._id ?? carrier.dot_number ?? i} carrier={carrier} index={i} />
        ))}
      </tbody>
    </TableFrame>
  );
}
