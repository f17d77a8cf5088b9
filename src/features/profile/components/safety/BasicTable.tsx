import { formatDecimal, formatPercent } from '../../../../lib/format.ts';
import { basicMarkers, type BasicRow } from './basic-data.ts';
import { CAPTION_CLASS, NUM_CLASS, TABLE_CLASS, TD_CLASS, TH_CLASS, Warning } from './ui.tsx';

function StatusCell({ row }: { row: BasicRow }) {
  const markers = basicMarkers(row);
  if (markers.length === 0) {
    return <span className="text-neutral-600 dark:text-neutral-400">No alert</span>;
  }
  return (
    <ul className="flex flex-col gap-0.5">
      {markers.map((marker) => (
        <li key={marker}>
          <Warning>{marker}</Warning>
        </li>
      ))}
    </ul>
  );
}

function thresholdText(row: BasicRow): string {
  const value = formatPercent(row.threshold);
  return row.thresholdSource === 'default' ? `${value} (default)` : value;
}

/** The precise numbers behind the BASIC chart, one row per BASIC. */
export function BasicTable({ rows }: { rows: readonly BasicRow[] }) {
  return (
    <div className="relative overflow-x-auto">
      <table className={TABLE_CLASS}>
        <caption className={CAPTION_CLASS}>
          BASIC percentiles against intervention thresholds
        </caption>
        <thead>
          <tr>
            <th scope="col" className={TH_CLASS}>
              BASIC
            </th>
            <th scope="col" className={`${TH_CLASS} text-right`}>
              Percentile
            </th>
            <th scope="col" className={`${TH_CLASS} text-right`}>
              Threshold
            </th>
            <th scope="col" className={`${TH_CLASS} text-right`}>
              Measure
            </th>
            <th scope="col" className={TH_CLASS}>
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.category} data-basic={row.category}>
              <th scope="row" className={`${TD_CLASS} font-medium`}>
                {row.label}
                {row.serviceComputed && (
                  <span className="block text-xs font-normal text-neutral-600 dark:text-neutral-400">
                    computed by the service
                  </span>
                )}
              </th>
              <td className={NUM_CLASS}>
                {row.insufficientData ? 'Insufficient data' : formatPercent(row.percentile)}
              </td>
              <td className={NUM_CLASS}>{thresholdText(row)}</td>
              <td className={NUM_CLASS}>{formatDecimal(row.measure)}</td>
              <td className={TD_CLASS}>
                <StatusCell row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
