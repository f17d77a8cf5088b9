import { Bar, BarChart, CartesianGrid, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatUsd } from '../../../lib/format.ts';

interface SpendChartProps {
  /** one bar per line, in this order */
  lines: readonly { label: string; usd: number }[];
}

const TICK = { fill: 'currentColor', fontSize: 12 } as const;
const BAR_HEIGHT = 36;

/**
 * Spend per endpoint as horizontal bars (labels stay readable on a phone). Hidden from assistive
 * technology: the table next to it carries the same numbers.
 */
export function SpendChart({ lines }: SpendChartProps) {
  const height = Math.max(120, lines.length * BAR_HEIGHT + 40);
  return (
    <div
      aria-hidden="true"
      className="text-neutral-700 dark:text-neutral-300"
      data-testid="spend-chart"
    >
      <ResponsiveContainer width="100%" height={height} initialDimension={{ width: 600, height }}>
        <BarChart
          data={[...lines]}
          layout="vertical"
          margin={{ top: 4, right: 16, left: 0, bottom: 4 }}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} strokeDasharray="3 3" strokeOpacity={0.4} />
          <XAxis type="number" tick={TICK} tickFormatter={(value: number) => formatUsd(value)} />
          <YAxis type="category" dataKey="label" tick={TICK} width={120} />
          <Bar dataKey="usd" name="Spend (USD)" fill="#0284c7" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
