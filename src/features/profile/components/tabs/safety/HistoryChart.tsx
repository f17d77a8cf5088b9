import { CartesianGrid, Legend, Line, LineChart, XAxis, YAxis } from 'recharts';
import { BASIC_LABELS, HISTORY_BASICS } from '../../../../../lib/service/index.ts';
import { formatDate } from '../../../../../lib/format.ts';
import type { HistoryPoint } from './model.ts';
import { ChartFrame } from './ChartFrame.tsx';
import { AXIS_TICK } from './chart-style.ts';

/** Each series differs in colour, dash pattern and dot shape, so colour is never the only cue. */
const SERIES_STYLE = {
  unsafe_driving: { color: '#0284c7', dash: undefined, dot: 'circle' },
  hours_of_service: { color: '#c2410c', dash: '6 3', dot: 'square' },
  driver_fitness: { color: '#15803d', dash: '2 3', dot: 'triangle' },
  controlled_substance: { color: '#7c3aed', dash: '8 3 2 3', dot: 'diamond' },
  vehicle_maintence: { color: '#be185d', dash: '12 4', dot: 'cross' },
} as const;

interface DotProps {
  cx?: number;
  cy?: number;
}

function dotOf(shape: (typeof SERIES_STYLE)[keyof typeof SERIES_STYLE]['dot'], color: string) {
  return function SeriesDot({ cx, cy }: DotProps) {
    if (cx === undefined || cy === undefined) return <g />;
    if (shape === 'circle') return <circle cx={cx} cy={cy} r={3.5} fill={color} />;
    if (shape === 'square')
      return <rect x={cx - 3.5} y={cy - 3.5} width={7} height={7} fill={color} />;
    if (shape === 'triangle')
      return (
        <path d={`M${cx} ${cy - 4} L${cx + 4} ${cy + 3.5} L${cx - 4} ${cy + 3.5} Z`} fill={color} />
      );
    if (shape === 'diamond')
      return (
        <path
          d={`M${cx} ${cy - 4.5} L${cx + 4.5} ${cy} L${cx} ${cy + 4.5} L${cx - 4.5} ${cy} Z`}
          fill={color}
        />
      );
    return (
      <path
        d={`M${cx - 4} ${cy - 4} L${cx + 4} ${cy + 4} M${cx + 4} ${cy - 4} L${cx - 4} ${cy + 4}`}
        stroke={color}
        strokeWidth={2}
      />
    );
  };
}

interface HistoryChartProps {
  points: readonly HistoryPoint[];
  width?: number | undefined;
}

/** BASIC measures over the `basic_history` snapshots, one line per BASIC. */
export function HistoryChart({ points, width }: HistoryChartProps) {
  return (
    <ChartFrame width={width} height={280}>
      <LineChart
        data={[...points]}
        margin={{ left: 0, right: 16, top: 8 }}
        accessibilityLayer={false}
      >
        <CartesianGrid strokeDasharray="3 3" strokeOpacity={0.4} />
        <XAxis dataKey="snapshot" tickFormatter={formatDate} tick={AXIS_TICK} minTickGap={24} />
        <YAxis tick={AXIS_TICK} width={44} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        {HISTORY_BASICS.map((category) => {
          const style = SERIES_STYLE[category];
          return (
            <Line
              key={category}
              dataKey={category}
              name={BASIC_LABELS[category]}
              stroke={style.color}
              strokeDasharray={style.dash}
              dot={dotOf(style.dot, style.color)}
              isAnimationActive={false}
              connectNulls
            />
          );
        })}
      </LineChart>
    </ChartFrame>
  );
}
