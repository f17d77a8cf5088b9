import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCount, formatDecimal } from '../../../../../lib/format.ts';
import type { AggregatePoint } from './model.ts';

const TICK = { fill: 'currentColor', fontSize: 12 } as const;

/**
 * Crashes, injuries and fatalities per month as bars, the crash rate as a line on its own axis;
 * the same numbers follow as a table.
 */
export function CrashTrendChart({ series }: { series: readonly AggregatePoint[] }) {
  const hasRate = series.some((p) => p.rate !== undefined);
  return (
    <figure className="flex flex-col gap-2">
      <div aria-hidden="true" className="text-neutral-700 dark:text-neutral-300">
        <ResponsiveContainer
          width="100%"
          height={260}
          initialDimension={{ width: 600, height: 260 }}
        >
          <ComposedChart
            data={[...series]}
            margin={{ top: 8, right: 8, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} strokeDasharray="3 3" strokeOpacity={0.4} />
            <XAxis dataKey="month" tick={TICK} />
            <YAxis yAxisId="count" tick={TICK} width={40} allowDecimals={false} />
            {hasRate && <YAxis yAxisId="rate" orientation="right" tick={TICK} width={44} />}
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar
              yAxisId="count"
              dataKey="crashes"
              name="Crashes"
              fill="#0284c7"
              isAnimationActive={false}
            />
            <Bar
              yAxisId="count"
              dataKey="injuries"
              name="Injuries"
              fill="#d97706"
              isAnimationActive={false}
            />
            <Bar
              yAxisId="count"
              dataKey="fatalities"
              name="Fatalities"
              fill="#dc2626"
              isAnimationActive={false}
            />
            {hasRate && (
              <Line
                yAxisId="rate"
                dataKey="rate"
                name="Crash rate"
                stroke="#7c3aed"
                strokeDasharray="5 3"
                isAnimationActive={false}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer">Crashes per month as a table</summary>
        <table className="mt-2 border-collapse text-sm">
          <caption className="sr-only">Crashes per month</caption>
          <thead>
            <tr>
              {['Month', 'Crashes', 'Injuries', 'Fatalities', 'Tow-away', 'Crash rate'].map((h) => (
                <th key={h} scope="col" className="px-3 py-1 text-right first:text-left">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.month} className="border-t border-neutral-200 dark:border-neutral-800">
                <th scope="row" className="px-3 py-1 text-left font-normal">
                  {p.month}
                </th>
                <td className="px-3 py-1 text-right">{formatCount(p.crashes)}</td>
                <td className="px-3 py-1 text-right">{formatCount(p.injuries)}</td>
                <td className="px-3 py-1 text-right">{formatCount(p.fatalities)}</td>
                <td className="px-3 py-1 text-right">{formatCount(p.towAway)}</td>
                <td className="px-3 py-1 text-right">{formatDecimal(p.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
