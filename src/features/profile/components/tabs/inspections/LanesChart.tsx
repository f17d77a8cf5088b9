import { formatCount } from '../../../../../lib/format.ts';
import type { Lane } from './model.ts';

/**
 * The bars themselves: plain boxes sized in percent of the busiest state. A chart library would add
 * ~110 kB (gzip) of code to load and compile when the Inspections tab opens, for one bar series.
 */
function LaneBars({ lanes }: { lanes: readonly Lane[] }) {
  const most = Math.max(1, ...lanes.map((lane) => lane.inspections));
  return (
    <div
      aria-hidden="true"
      className="flex h-60 items-end gap-1 border-b border-neutral-300 pt-2 dark:border-neutral-700"
    >
      {lanes.map((lane) => (
        <div
          key={lane.state}
          className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1"
        >
          <span className="text-[10px] text-neutral-600 tabular-nums dark:text-neutral-400">
            {formatCount(lane.inspections)}
          </span>
          <div
            className="w-full max-w-10 rounded-t-sm bg-sky-600"
            style={{ height: `${(lane.inspections / most) * 80}%` }}
            data-testid="lane-bar"
          />
          <span className="text-xs text-neutral-700 dark:text-neutral-300">{lane.state}</span>
        </div>
      ))}
    </div>
  );
}

/** Inspections per state as bars, with the same numbers as a table for screen readers and print. */
export function LanesChart({ lanes, computed }: { lanes: readonly Lane[]; computed: boolean }) {
  const source = computed
    ? 'Counted from the inspection history (the service sent no preferred lanes).'
    : 'Preferred lanes as reported by the service.';
  return (
    <figure className="flex flex-col gap-2">
      <LaneBars lanes={lanes} />
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
