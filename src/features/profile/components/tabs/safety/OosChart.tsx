import { Bar, BarChart, CartesianGrid, LabelList, Legend, XAxis, YAxis } from 'recharts';
import { formatPercent } from '../../../../../lib/format.ts';
import type { OosRow } from './model.ts';
import { ChartFrame } from './ChartFrame.tsx';
import { AXIS_TICK, CHART_COLORS, percentTick } from './chart-style.ts';

interface OosChartProps {
  rows: readonly OosRow[];
  width?: number | undefined;
}

function carrierText(row: OosRow): string {
  const rate = formatPercent(row.carrierRate);
  return row.alert ? `${rate} ⚠ Alert` : rate;
}

/** Carrier out-of-service rate next to the national average, per inspection type. */
export function OosChart({ rows, width }: OosChartProps) {
  const data = rows.map((row) => ({
    label: row.label,
    carrier: row.carrierRate ?? 0,
    national: row.nationalRate ?? 0,
    carrierText: carrierText(row),
    nationalText: formatPercent(row.nationalRate),
  }));
  return (
    <ChartFrame width={width} height={240}>
      <BarChart data={data} margin={{ top: 24, right: 8, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis dataKey="label" tick={AXIS_TICK} />
        <YAxis tickFormatter={percentTick} tick={AXIS_TICK} width={44} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar
          dataKey="carrier"
          name="This carrier"
          fill={CHART_COLORS.bar}
          isAnimationActive={false}
        >
          <LabelList dataKey="carrierText" position="top" fill="currentColor" fontSize={12} />
        </Bar>
        <Bar
          dataKey="national"
          name="National average"
          fill={CHART_COLORS.national}
          isAnimationActive={false}
        >
          <LabelList dataKey="nationalText" position="top" fill="currentColor" fontSize={12} />
        </Bar>
      </BarChart>
    </ChartFrame>
  );
}
