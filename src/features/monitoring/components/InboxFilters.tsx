import { useState, type FormEvent } from 'react';
import { CHANNELS, type Channel } from '../../../lib/service/index.ts';
import {
  dateRangeProblem,
  DATE_TYPES,
  PAGE_SIZES,
  SORT_KEYS,
  TRIAGE_FILTERS,
  type DateType,
  type InboxParams,
  type SortKey,
  type TriageFilter,
} from '../../../lib/monitoring/inbox-params.ts';
import { CHANNEL_LABELS } from './channel-labels.ts';
import { BUTTON, INPUT, LABEL } from './ui.ts';

const DATE_TYPE_LABELS: Record<DateType, string> = {
  last_changed_date: 'Change date',
  started_monitoring_at: 'Watched since',
  last_acknowledged_at: 'Last acknowledged',
  mcs150_date_current: 'MCS-150 date',
  safety_rating_date_current: 'Safety rating date',
  last_crash_date_current: 'Last crash date',
  insurance_pending_cancel_date_current: 'Pending insurance cancellation',
};

const SORT_LABELS: Record<SortKey, string> = { ...DATE_TYPE_LABELS, profile_id: 'Profile ID' };

const TRIAGE_FILTER_LABELS: Record<TriageFilter, string> = {
  all: 'All states',
  new: 'New',
  reviewed: 'Reviewed',
  escalated: 'Escalated',
};

interface InboxFiltersProps {
  params: InboxParams;
  onChange: (patch: Partial<InboxParams>) => void;
}

function toggle(channels: readonly Channel[], channel: Channel): Channel[] {
  return channels.includes(channel)
    ? channels.filter((c) => c !== channel)
    : CHANNELS.filter((c) => c === channel || channels.includes(c));
}

/** Every list filter of the service, plus the client-side triage filter. */
export function InboxFilters({ params, onChange }: InboxFiltersProps) {
  return (
    <form
      aria-label="Inbox filters"
      className="flex flex-wrap items-end gap-x-4 gap-y-3"
      onSubmit={(event) => event.preventDefault()}
    >
      <label className={LABEL}>
        Show
        <select
          className={INPUT}
          value={params.changedOnly ? 'changed' : 'all'}
          onChange={(event) => onChange({ changedOnly: event.target.value === 'changed' })}
        >
          <option value="changed">Changed only</option>
          <option value="all">All watched</option>
        </select>
      </label>
      <fieldset className="flex flex-col gap-1">
        <legend className="text-sm font-medium text-neutral-700 dark:text-neutral-300">
          Channels
        </legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {CHANNELS.map((channel) => (
            <label key={channel} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={params.channels.includes(channel)}
                onChange={() => onChange({ channels: toggle(params.channels, channel) })}
              />
              {CHANNEL_LABELS[channel]}
            </label>
          ))}
        </div>
      </fieldset>
      <DateRange params={params} onChange={onChange} />
      <label className={LABEL}>
        Sort by
        <select
          className={INPUT}
          value={params.sortBy}
          onChange={(event) => onChange({ sortBy: event.target.value as SortKey })}
        >
          {SORT_KEYS.map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        Order
        <select
          className={INPUT}
          value={params.sortOrder}
          onChange={(event) => onChange({ sortOrder: event.target.value as 'asc' | 'desc' })}
        >
          <option value="desc">Descending</option>
          <option value="asc">Ascending</option>
        </select>
      </label>
      <div className={LABEL}>
        <label htmlFor="inbox-triage-filter">Triage state</label>
        <select
          id="inbox-triage-filter"
          className={INPUT}
          value={params.triage}
          onChange={(event) => onChange({ triage: event.target.value as TriageFilter })}
          aria-describedby="triage-filter-note"
        >
          {TRIAGE_FILTERS.map((state) => (
            <option key={state} value={state}>
              {TRIAGE_FILTER_LABELS[state]}
            </option>
          ))}
        </select>
        <span id="triage-filter-note" className="text-xs font-normal">
          Filters the loaded page only
        </span>
      </div>
      <label className={LABEL}>
        Per page
        <select
          className={INPUT}
          value={params.pageSize}
          onChange={(event) => onChange({ pageSize: Number(event.target.value) })}
        >
          {[...new Set([...PAGE_SIZES, params.pageSize])].map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <ProfileFilter value={params.profileId} onChange={(profileId) => onChange({ profileId })} />
    </form>
  );
}

function DateRange({ params, onChange }: InboxFiltersProps) {
  const problem = dateRangeProblem(params);
  const invalid = problem ? { 'aria-invalid': true, 'aria-describedby': 'inbox-date-problem' } : {};
  return (
    <>
      <label className={LABEL}>
        Date applies to
        <select
          className={INPUT}
          value={params.dateType}
          onChange={(event) => onChange({ dateType: event.target.value as DateType })}
        >
          {DATE_TYPES.map((type) => (
            <option key={type} value={type}>
              {DATE_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        From
        <input
          type="date"
          className={INPUT}
          value={params.dateMin ?? ''}
          {...invalid}
          onChange={(event) => onChange({ dateMin: event.target.value || undefined })}
        />
      </label>
      <label className={LABEL}>
        To
        <input
          type="date"
          className={INPUT}
          value={params.dateMax ?? ''}
          {...invalid}
          onChange={(event) => onChange({ dateMax: event.target.value || undefined })}
        />
      </label>
      {problem ? (
        <p
          id="inbox-date-problem"
          role="alert"
          className="basis-full text-sm font-medium text-red-800 dark:text-red-300"
        >
          {problem}
        </p>
      ) : null}
    </>
  );
}

function ProfileFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  const [draft, setDraft] = useState(value ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft.trim() || undefined);
  };
  return (
    <div className="flex items-end gap-1">
      <label className={LABEL}>
        Profile ID
        <input
          className={`${INPUT} w-44`}
          value={draft}
          placeholder="568253-MC277621"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') submit(event);
          }}
        />
      </label>
      <button type="button" className={BUTTON} onClick={submit}>
        Apply
      </button>
    </div>
  );
}
