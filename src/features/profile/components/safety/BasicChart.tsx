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
import { formatPercent } from '../../../../lib/format.ts';
import { basicMarkers, type BasicRow } from './basic-data.ts';
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

/** The words drawn at the end of a bar: percentile and markers, or "Insufficient data". */
export function barText(row: BasicRow): string {
  if (row.insufficientData) return 'Insufficient data';
  const markers = basicMarkers(row);
  const percent = formatPercent(row.percentile);
  return markers.length ? `${percent} ⚠ ${markers.join(', ')}` : percent;
}

function toDatum(row: BasicRow): BarDatum {
  return {
    label: row.serviceComputed ? `${row.label} *` : row.label,
    value: row.percentile ?? 0,
    threshold: row.threshold,
    alert: row.alert,
    noData: row.insufficientData,
    text: barText(row),
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
  const data = rows.map(toDatum);
  return (
    <ChartFrame width={width} height={rows.length * 44 + 40}>
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
          tick={AXIS_TICK}
        />
        <YAxis type="category" dataKey="label" width={210} tick={AXIS_TICK} />
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
          <LabelList dataKey="text" position="right" fill="currentColor" fontSize={12} />
        </Bar>
        <Scatter
          dataKey="threshold"
          name="Intervention threshold"
          shape={ThresholdMarker}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ChartFrame>
  );
}
