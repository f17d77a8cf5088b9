import { useDeferredValue, useId, useState } from 'react';
import { filterFmcsaRows, type FmcsaRow } from './fmcsa-rows.ts';

const TH =
  'border-b border-neutral-200 px-2 py-1.5 font-medium text-neutral-600 dark:border-neutral-700 dark:text-neutral-400';
const TD = 'border-b border-neutral-100 px-2 py-1 align-top dark:border-neutral-800';

/** The FMCSA keys as a filterable key/value table. */
export function FmcsaRecordTable({ rows }: { rows: readonly FmcsaRow[] }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const shown = filterFmcsaRows(rows, deferred);
  const inputId = useId();
  const countId = useId();
  return (
    <div>
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <label htmlFor={inputId} className="text-sm font-medium">
          Filter fields
        </label>
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          aria-describedby={countId}
          placeholder="key or value, e.g. insurance"
          className="w-72 max-w-full rounded-md border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-950"
        />
        <span id={countId} role="status" className="text-sm text-neutral-600 dark:text-neutral-400">
          {shown.length} of {rows.length} fields
        </span>
      </div>
      <div className="relative overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">FMCSA record fields and values</caption>
          <thead>
            <tr>
              <th scope="col" className={TH}>
                Field
              </th>
              <th scope="col" className={TH}>
                Value
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.key}>
                <th scope="row" className={`${TD} font-mono text-xs font-normal break-all`}>
                  {row.key}
                </th>
                <td className={`${TD} break-words`}>{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
