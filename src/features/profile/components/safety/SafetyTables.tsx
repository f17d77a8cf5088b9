import { BASIC_LABELS, HISTORY_BASICS } from '../../../../lib/service/index.ts';
import { formatCount, formatDate, formatDecimal, formatPercent } from '../../../../lib/format.ts';
import type { BenchmarkRow, HistoryPoint, OosRow, ViolationRow } from './basic-data.ts';
import { CAPTION_CLASS, NUM_CLASS, TABLE_CLASS, TD_CLASS, TH_CLASS, Warning } from './ui.tsx';

function HeadCell({ children, numeric = false }: { children: string; numeric?: boolean }) {
  return (
    <th scope="col" className={numeric ? `${TH_CLASS} text-right` : TH_CLASS}>
      {children}
    </th>
  );
}

export function OosTable({ rows }: { rows: readonly OosRow[] }) {
  return (
    <table className={TABLE_CLASS}>
      <caption className={CAPTION_CLASS}>Out-of-service rates against national averages</caption>
      <thead>
        <tr>
          <HeadCell>Inspection type</HeadCell>
          <HeadCell numeric>Inspections</HeadCell>
          <HeadCell numeric>Out of service</HeadCell>
          <HeadCell numeric>Carrier rate</HeadCell>
          <HeadCell numeric>National average</HeadCell>
          <HeadCell>Status</HeadCell>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.kind}>
            <th scope="row" className={`${TD_CLASS} font-medium`}>
              {row.label}
            </th>
            <td className={NUM_CLASS}>{formatCount(row.inspections)}</td>
            <td className={NUM_CLASS}>{formatCount(row.outOfService)}</td>
            <td className={NUM_CLASS}>{formatPercent(row.carrierRate)}</td>
            <td className={NUM_CLASS}>{formatPercent(row.nationalRate)}</td>
            <td className={TD_CLASS}>{row.alert ? <Warning>OOS alert</Warning> : 'No alert'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ViolationsTable({
  rows,
  total,
}: {
  rows: readonly ViolationRow[];
  total?: number;
}) {
  return (
    <table className={TABLE_CLASS}>
      <caption className={CAPTION_CLASS}>Violations per BASIC (last 24 months)</caption>
      <thead>
        <tr>
          <HeadCell>BASIC</HeadCell>
          <HeadCell numeric>Total</HeadCell>
          <HeadCell numeric>Severe</HeadCell>
          <HeadCell numeric>Out of service</HeadCell>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.category}>
            <th scope="row" className={`${TD_CLASS} font-medium`}>
              {row.label}
            </th>
            <td className={NUM_CLASS}>{formatCount(row.total)}</td>
            <td className={NUM_CLASS}>{formatCount(row.severe)}</td>
            <td className={NUM_CLASS}>{formatCount(row.outOfService)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" className={`${TD_CLASS} font-semibold`}>
            All violations
          </th>
          <td className={`${NUM_CLASS} font-semibold`}>{formatCount(total)}</td>
          <td className={TD_CLASS} colSpan={2} />
        </tr>
      </tfoot>
    </table>
  );
}

const POSITION_TEXT: Record<BenchmarkRow['position'], string> = {
  below: 'Below the expected range',
  within: 'Within the expected range',
  above: 'Above the expected range',
  unknown: 'No range',
};

function IndicatorCell({ value }: { value: boolean | undefined }) {
  if (value === true) return <Warning>Flagged</Warning>;
  return value === false ? 'Not flagged' : '—';
}

export function BenchmarksTable({ rows }: { rows: readonly BenchmarkRow[] }) {
  return (
    <table className={TABLE_CLASS}>
      <caption className={CAPTION_CLASS}>
        Industry benchmarks: observed against expected range
      </caption>
      <thead>
        <tr>
          <HeadCell>Benchmark</HeadCell>
          <HeadCell numeric>Observed</HeadCell>
          <HeadCell numeric>Expected range</HeadCell>
          <HeadCell>Position</HeadCell>
          <HeadCell>Indicator</HeadCell>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.code}>
            <th scope="row" className={`${TD_CLASS} font-medium`}>
              {row.label} ({row.code})
            </th>
            <td className={NUM_CLASS}>{formatDecimal(row.observed)}</td>
            <td className={NUM_CLASS}>
              {formatDecimal(row.lower)} – {formatDecimal(row.upper)}
            </td>
            <td className={TD_CLASS}>{POSITION_TEXT[row.position]}</td>
            <td className={TD_CLASS}>
              <IndicatorCell value={row.indicator} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The history chart's numbers, behind a disclosure. */
export function HistoryTable({ points }: { points: readonly HistoryPoint[] }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer rounded text-neutral-700 dark:text-neutral-300">
        Show the history as a table
      </summary>
      <div className="relative mt-2 overflow-x-auto">
        <table className={TABLE_CLASS}>
          <caption className={CAPTION_CLASS}>BASIC measures per snapshot</caption>
          <thead>
            <tr>
              <HeadCell>Snapshot</HeadCell>
              {HISTORY_BASICS.map((category) => (
                <HeadCell key={category} numeric>
                  {BASIC_LABELS[category]}
                </HeadCell>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.snapshot}>
                <th scope="row" className={`${TD_CLASS} font-medium whitespace-nowrap`}>
                  {formatDate(point.snapshot)}
                </th>
                {HISTORY_BASICS.map((category) => (
                  <td key={category} className={NUM_CLASS}>
                    {formatDecimal(point[category])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
