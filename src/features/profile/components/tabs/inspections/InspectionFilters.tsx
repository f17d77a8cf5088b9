import { levelLabel, NO_INSPECTION_FILTERS, type InspectionFilters } from './model.ts';

interface InspectionFilterFormProps {
  value: InspectionFilters;
  onChange: (next: InspectionFilters) => void;
  states: readonly string[];
  levels: readonly string[];
}

const FIELD = 'flex flex-col gap-1 text-sm text-neutral-700 dark:text-neutral-300';
const INPUT =
  'rounded border border-neutral-300 bg-white px-2 py-1 text-neutral-900 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100';

/** Date range, state, level and out-of-service filters of the inspection table and map. */
export function InspectionFilterForm({
  value,
  onChange,
  states,
  levels,
}: InspectionFilterFormProps) {
  const set = (patch: Partial<InspectionFilters>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="flex flex-wrap items-end gap-3 rounded-md border border-neutral-200 p-3 dark:border-neutral-800">
      <legend className="px-1 text-sm font-medium text-neutral-800 dark:text-neutral-200">
        Filter inspections
      </legend>
      <label className={FIELD}>
        From
        <input
          type="date"
          className={INPUT}
          value={value.from}
          max={value.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
        />
      </label>
      <label className={FIELD}>
        To
        <input
          type="date"
          className={INPUT}
          value={value.to}
          min={value.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </label>
      <label className={FIELD}>
        State
        <select
          className={INPUT}
          value={value.state}
          onChange={(e) => set({ state: e.target.value })}
        >
          <option value="">All states</option>
          {states.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
      </label>
      <label className={FIELD}>
        Level
        <select
          className={INPUT}
          value={value.level}
          onChange={(e) => set({ level: e.target.value })}
        >
          <option value="">All levels</option>
          {levels.map((level) => (
            <option key={level} value={level}>
              {levelLabel(level)}
            </option>
          ))}
        </select>
      </label>
      <label className="flex items-center gap-2 py-1 text-sm text-neutral-700 dark:text-neutral-300">
        <input
          type="checkbox"
          checked={value.oosOnly}
          onChange={(e) => set({ oosOnly: e.target.checked })}
        />
        Out-of-service only
      </label>
      <button
        type="button"
        onClick={() => onChange(NO_INSPECTION_FILTERS)}
        className="rounded border border-neutral-300 px-3 py-1 text-sm hover:bg-neutral-100 dark:border-neutral-700 dark:hover:bg-neutral-800"
      >
        Clear filters
      </button>
    </fieldset>
  );
}
