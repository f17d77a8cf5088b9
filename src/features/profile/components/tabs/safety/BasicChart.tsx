import {
  Bar,
  CartesianGrid,
  Cell,
  ComposedChart,
  LabelList,
  Scatter,
  XAxis,
  YAxis,
} from 'recharts';
import { useState } from 'react';
import { formatPercent } from '../../../../../lib/format.ts';
import { basicMarkers, type BasicRow } from './model.ts';
import { ChartFrame } from './ChartFrame.tsx';
import { AXIS_TICK, CHART_COLORS, percentTick } from './chart-style.ts';

interface BarDatum {
  label: string;
  value: number;
  threshold: number;
  alert: boolean;
  noData: boolean;
  text: string;
}

/**
 * The words drawn at the end of a bar: percentile and markers, or "Insufficient data". In the
 * compact (phone) layout only the percentile and a ⚠ fit beside the bar; the table under the chart
 * names the markers.
 */
export function barText(row: BasicRow, compact = false): string {
  if (row.insufficientData) return 'Insufficient data';
  const markers = basicMarkers(row);
  const percent = formatPercent(row.percentile);
  if (!markers.length) return percent;
  return compact ? `${percent} ⚠` : `${percent} ⚠ ${markers.join(', ')}`;
}

interface BasicChartLayout {
  compact: boolean;
  /** width of the BASIC names at the left (they wrap inside it) */
  yAxisWidth: number;
  fontSize: number;
}

/** Below this chart width the names and the bar texts no longer fit side by side in full. */
const COMPACT_BELOW = 600;

/**
 * The chart's layout for its width: wide, 210 px of names and the markers in words beside each bar;
 * compact (a phone), narrower wrapped names and short bar texts, so no text runs into the next
 * bar's or off the chart.
 */
function basicChartLayout(width: number): BasicChartLayout {
  return width < COMPACT_BELOW
    ? { compact: true, yAxisWidth: 124, fontSize: 11 }
    : { compact: false, yAxisWidth: 210, fontSize: 12 };
}

function toDatum(row: BasicRow, compact: boolean): BarDatum {
  return {
    label: row.serviceComputed ? `${row.label} *` : row.label,
    value: row.percentile ?? 0,
    threshold: row.threshold,
    alert: row.alert,
    noData: row.insufficientData,
    text: barText(row, compact),
  };
}

/** Alerts in red, others blue; "insufficient data" draws no bar, only its words. */
function barFill(datum: BarDatum): string {
  if (datum.noData) return 'transparent';
  return datum.alert ? CHART_COLORS.alert : CHART_COLORS.bar;
}

interface MarkerProps {
  cx?: number;
  cy?: number;
}

/** The threshold: a vertical tick with a diamond across the category's band. */
function ThresholdMarker({ cx, cy }: MarkerProps) {
  if (cx === undefined || cy === undefined) return null;
  return (
    <g>
      <line
        x1={cx}
        x2={cx}
        y1={cy - 13}
        y2={cy + 13}
        stroke={CHART_COLORS.threshold}
        strokeWidth={3}
      />
      <path
        d={`M${cx} ${cy - 5} L${cx + 5} ${cy} L${cx} ${cy + 5} L${cx - 5} ${cy} Z`}
        fill={CHART_COLORS.threshold}
      />
    </g>
  );
}

interface BasicChartProps {
  rows: readonly BasicRow[];
  width?: number | undefined;
}

/** Percentile per BASIC (bars) against its intervention threshold (markers). */
export function BasicChart({ rows, width }: BasicChartProps) {
  // the responsive frame reports its width; until then assume a wide chart
  const [measured, setMeasured] = useState<number | undefined>();
  const layout = basicChartLayout(width ?? measured ?? COMPACT_BELOW);
  const tick = { ...AXIS_TICK, fontSize: layout.fontSize };
  const data = rows.map((row) => toDatum(row, layout.compact));
  const alerts = rows.some((row) => basicMarkers(row).length > 0);
  return (
    <>
      <ChartFrame width={width} height={rows.length * 44 + 40} onWidth={setMeasured}>
        <ComposedChart
          data={data}
          layout="vertical"
          margin={{ left: 8, right: 24 }}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis
            type="number"
            domain={[0, 1.5]}
            ticks={[0, 0.25, 0.5, 0.75, 1]}
            tickFormatter={percentTick}
            tick={tick}
          />
          <YAxis type="category" dataKey="label" width={layout.yAxisWidth} tick={tick} />
          <Bar
            dataKey="value"
            name="Percentile"
            barSize={18}
            minPointSize={1}
            isAnimationActive={false}
          >
            {data.map((datum) => (
              <Cell key={datum.label} fill={barFill(datum)} />
            ))}
            <LabelList
              dataKey="text"
              position="right"
              fill="currentColor"
              fontSize={layout.fontSize}
            />
          </Bar>
          <Scatter
            dataKey="threshold"
            name="Intervention threshold"
            shape={ThresholdMarker}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ChartFrame>
      {layout.compact && alerts ? (
        <p className="mt-1 text-xs text-neutral-600 dark:text-neutral-400">
          ⚠ marks an alert; the table below names it.
        </p>
      ) : null}
    </>
  );
}
