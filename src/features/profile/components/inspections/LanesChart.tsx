import { Bar, BarChart, CartesianGrid, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import { formatCount } from '../../../../lib/format.ts';
import type { Lane } from './inspection-data.ts';

const TICK = { fill: 'currentColor', fontSize: 12 } as const;

/** Inspections per state as bars, with the same numbers as a table for screen readers and print. */
export function LanesChart({ lanes, computed }: { lanes: readonly Lane[]; computed: boolean }) {
  const source = computed
    ? 'Counted from the inspection history (the service sent no preferred lanes).'
    : 'Preferred lanes as reported by the service.';
  return (
    <figure className="flex flex-col gap-2">
      <div aria-hidden="true" className="text-neutral-700 dark:text-neutral-300">
        <ResponsiveContainer
          width="100%"
          height={240}
          initialDimension={{ width: 600, height: 240 }}
        >
          <BarChart
            data={[...lanes]}
            margin={{ top: 8, right: 8, left: 0 }}
            accessibilityLayer={false}
          >
            <CartesianGrid vertical={false} strokeDasharray="3 3" strokeOpacity={0.4} />
            <XAxis dataKey="state" tick={TICK} />
            <YAxis tick={TICK} width={48} allowDecimals={false} />
            <Bar
              dataKey="inspections"
              name="Inspections"
              fill="#0284c7"
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-neutral-600 dark:text-neutral-400">{source}</figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer">Inspections per state as a table</summary>
        <table className="mt-2 border-collapse text-sm">
          <caption className="sr-only">Inspections per state</caption>
          <thead>
            <tr>
              <th scope="col" className="px-3 py-1 text-left">
                State
              </th>
              <th scope="col" className="px-3 py-1 text-right">
                Inspections
              </th>
            </tr>
          </thead>
          <tbody>
            {lanes.map((lane) => (
              <tr key={lane.state} className="border-t border-neutral-200 dark:border-neutral-800">
                <th scope="row" className="px-3 py-1 text-left font-normal">
                  {lane.state}
                </th>
                <td className="px-3 py-1 text-right">{formatCount(lane.inspections)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
