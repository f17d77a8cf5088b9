/**
 * The advanced search form: all ten keys, a plate's optional state and a unit number's optional
 * TRUCK/TRAILER. Submitting changes the URL; the page reads the search from there. A value the
 * service would refuse is caught here, with the service's own rules, before anything is sent
 * (`validate-search.ts`); it, or a 400 from the proxy (its `hint`), is shown next to the field it
 * concerns, linked with aria-describedby.
 */
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import {
  SEARCH_KEYS,
  SEARCH_KEY_LABELS,
  isSearchKey,
  normaliseSearchValue,
  type SearchKey,
} from '../lib/search-keys.ts';
import { usePricing } from '../api/get-prices.ts';
import { searchCostLabel } from '../lib/search-cost.ts';
import { UNIT_TYPES, type SearchRequest, type UnitType } from '../lib/search-params.ts';
import { searchProblem, type SearchProblem } from '../lib/validate-search.ts';

type Field = 'value' | 'plateState' | 'unitType';

const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  invalid_plate_state: 'plateState',
  invalid_unit_type: 'unitType',
};

const PLACEHOLDERS: Record<SearchKey, string> = {
  dot_number: '568253',
  docket_number: 'MC277621',
  company: 'Hansen',
  ein: '12-3456789',
  email: 'dispatch@example.com or example.com',
  phone: '(555) 123-4567',
  address: '1200 Main St',
  vin: '17 characters',
  plate_number: 'ABC1234',
  unit_number: '101',
};

/** The field a 400 concerns: its value by default, the plate state or unit type when named. */
function fieldOfError(error: unknown): Field | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  return FIELD_OF_CODE[error.code ?? ''] ?? 'value';
}

interface SearchFormProps {
  initial: SearchRequest | undefined;
  /** What is wrong with the URL's search (it was not sent). */
  problem: SearchProblem | undefined;
  error: unknown;
  onSearch: (request: SearchRequest) => void;
}

const INPUT =
  'h-10 w-full rounded-md border bg-white px-3 text-sm text-neutral-950 dark:bg-neutral-950 dark:text-neutral-50';
const LABEL = 'mb-1 block text-sm font-medium text-neutral-800 dark:text-neutral-200';

function borderFor(invalid: boolean): string {
  return invalid
    ? 'border-red-600 dark:border-red-400'
    : 'border-neutral-300 dark:border-neutral-700';
}

export function SearchForm({ initial, problem, error, onSearch }: SearchFormProps) {
  const ids = useId();
  const pricing = usePricing();
  /** The problem of the last submit that was not sent; cleared by the next change. */
  const [submitted, setSubmitted] = useState<SearchProblem | undefined>(undefined);
  /** Once the user edits, what the URL's search got wrong no longer describes the fields. */
  const [edited, setEdited] = useState(false);
  const [key, setKey] = useState<SearchKey>(initial?.key ?? 'company');
  const [value, setValue] = useState(initial?.value ?? '');
  const [plateState, setPlateState] = useState(initial?.plateState ?? '');
  const [unitType, setUnitType] = useState<UnitType | ''>(initial?.unitType ?? '');
  const shown = submitted ?? (edited ? undefined : problem);
  const errorField = shown ? shown.field : edited ? undefined : fieldOfError(error);
  const hint = shown
    ? shown.message
    : error instanceof ApiError
      ? (error.hint ?? error.message)
      : 'Check the value you entered.';
  const hintId = `${ids}-hint`;

  const describe = (field: Field) => (errorField === field ? hintId : undefined);
  const fieldError = (field: Field) =>
    errorField === field ? (
      <p id={hintId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
        <span aria-hidden="true">✕ </span>
        {hint}
      </p>
    ) : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = normaliseSearchValue(key, value);
    if (trimmed === '') return;
    const next: SearchRequest = {
      key,
      value: trimmed,
      plateState:
        key === 'plate_number' && plateState.trim() ? plateState.trim().toUpperCase() : undefined,
      unitType: key === 'unit_number' && unitType !== '' ? unitType : undefined,
      page: 1,
    };
    const found = searchProblem(next);
    setSubmitted(found);
    if (found) {
      document
        .getElementById(found.field === 'value' ? `${ids}-value` : `${ids}-plate-state`)
        ?.focus();
      return;
    }
    onSearch(next);
  };

  return (
    <form
      aria-label="Advanced search"
      onSubmit={onSubmit}
      className="grid gap-4 rounded-lg border border-neutral-200 bg-white p-4 sm:grid-cols-[12rem_1fr_auto] sm:items-start dark:border-neutral-800 dark:bg-neutral-900"
    >
      <div>
        <label htmlFor={`${ids}-key`} className={LABEL}>
          Search by
        </label>
        <select
          id={`${ids}-key`}
          value={key}
          onChange={(event) => {
            if (!isSearchKey(event.target.value)) return;
            setKey(event.target.value);
            setSubmitted(undefined);
            setEdited(true);
          }}
          className={`${INPUT} ${borderFor(false)}`}
        >
          {SEARCH_KEYS.map((name) => (
            <option key={name} value={name}>
              {SEARCH_KEY_LABELS[name]}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
        <div>
          <label htmlFor={`${ids}-value`} className={LABEL}>
            {SEARCH_KEY_LABELS[key]}
          </label>
          <input
            id={`${ids}-value`}
            type="text"
            value={value}
            required
            placeholder={PLACEHOLDERS[key]}
            autoComplete="off"
            onChange={(event) => {
              setValue(event.target.value);
              setSubmitted(undefined);
              setEdited(true);
            }}
            aria-invalid={errorField === 'value' || undefined}
            aria-describedby={describe('value')}
            className={`${INPUT} ${borderFor(errorField === 'value')}`}
          />
          {fieldError('value')}
        </div>
        {key === 'plate_number' ? (
          <div>
            <label htmlFor={`${ids}-plate-state`} className={LABEL}>
              Plate state (optional)
            </label>
            <input
              id={`${ids}-plate-state`}
              type="text"
              value={plateState}
              maxLength={2}
              placeholder="TX"
              onChange={(event) => {
                setPlateState(event.target.value);
                setSubmitted(undefined);
                setEdited(true);
              }}
              aria-invalid={errorField === 'plateState' || undefined}
              aria-describedby={describe('plateState')}
              className={`${INPUT} w-24 uppercase ${borderFor(errorField === 'plateState')}`}
            />
            {fieldError('plateState')}
          </div>
        ) : null}
        {key === 'unit_number' ? (
          <div>
            <label htmlFor={`${ids}-unit-type`} className={LABEL}>
              Unit type (optional)
            </label>
            <select
              id={`${ids}-unit-type`}
              value={unitType}
              onChange={(event) =>
                setUnitType(UNIT_TYPES.find((type) => type === event.target.value) ?? '')
              }
              aria-invalid={errorField === 'unitType' || undefined}
              aria-describedby={describe('unitType')}
              className={`${INPUT} ${borderFor(errorField === 'unitType')}`}
            >
              <option value="">Any</option>
              <option value="TRUCK">Truck (power unit)</option>
              <option value="TRAILER">Trailer</option>
            </select>
            {fieldError('unitType')}
          </div>
        ) : null}
      </div>
      <button
        type="submit"
        className="h-10 rounded-md bg-neutral-900 px-4 text-sm font-medium text-white hover:bg-neutral-700 sm:mt-6 dark:bg-neutral-100 dark:text-neutral-900 dark:hover:bg-neutral-300"
      >
        Search
      </button>
      <p className="text-xs text-neutral-600 sm:col-span-3 dark:text-neutral-400">
        {searchCostLabel(pricing.data, key)}
      </p>
    </form>
  );
}
