import { useDeferredValue, useId, useState } from 'react';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { filterFmcsaRows, type FmcsaRow } from './model.ts';

const COLUMNS: readonly DataTableColumn<FmcsaRow>[] = [
  {
    id: 'key',
    header: 'Field',
    rowHeader: true,
    className: 'font-mono text-xs break-all',
    value: (row) => row.key,
  },
  { id: 'value', header: 'Value', className: 'break-words', value: (row) => row.value },
];

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
      <DataTable
        caption="FMCSA record fields and values"
        captionHidden
        sortable={false}
        columns={COLUMNS}
        data={shown}
        getRowId={(row) => row.key}
      />
    </div>
  );
}
