import { formatDate, formatPhone } from '../../../../../lib/format.ts';
import type { ContactEntry } from '../../../../../lib/service/index.ts';
import { isRecent, type Timeline } from './model.ts';
import { Empty } from '../kit/parts.tsx';

const PHONE_KEYS = new Set(['telephone_number', 'cellphone_number', 'fax_number']);

function entryValue(key: string, entry: ContactEntry): string {
  const value = entry.value ?? '—';
  return PHONE_KEYS.has(key) ? formatPhone(value) : value;
}

function period(entry: ContactEntry): string {
  const end = entry.current_flag ? 'now' : formatDate(entry.end_date);
  return `${formatDate(entry.start_date)} – ${end}`;
}

function EntryItem({
  timeline,
  entry,
  reference,
  hasPredecessor,
}: {
  timeline: Timeline;
  entry: ContactEntry;
  reference: string;
  hasPredecessor: boolean;
}) {
  const recent = hasPredecessor && isRecent(entry.start_date, reference);
  return (
    <li className="relative border-l-2 border-neutral-300 pb-3 pl-4 last:pb-0 dark:border-neutral-700">
      <span
        aria-hidden="true"
        className={`absolute top-1.5 -left-[5px] size-2 rounded-full ${entry.current_flag ? 'bg-sky-600' : 'bg-neutral-400'}`}
      />
      <p className="text-sm font-medium break-words text-neutral-950 dark:text-neutral-50">
        {entryValue(timeline.key, entry)}
      </p>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        {period(entry)}
        {entry.current_flag ? ' · current' : ' · former'}
        {recent ? (
          <strong className="ml-1 font-semibold text-amber-800 dark:text-amber-300">
            · changed recently
          </strong>
        ) : null}
      </p>
    </li>
  );
}

/** `contact_history` (or `address_ids`) as one timeline per key, newest first. */
export function ContactTimelines({
  groups,
  reference,
  empty,
}: {
  groups: readonly Timeline[];
  reference: string;
  empty: string;
}) {
  if (!groups.length) return <Empty>{empty}</Empty>;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {groups.map((timeline) => (
        <div key={timeline.key}>
          <h4 className="mb-2 text-sm font-semibold">
            {timeline.label}{' '}
            <span className="font-normal text-neutral-600 dark:text-neutral-400">
              ({timeline.entries.length} {timeline.entries.length === 1 ? 'value' : 'values'})
            </span>
          </h4>
          <ol aria-label={`${timeline.label} history`}>
            {timeline.entries.map((entry, i) => (
              <EntryItem
                key={entry._id ?? i}
                timeline={timeline}
                entry={entry}
                reference={reference}
                hasPredecessor={timeline.entries
                  .slice(i + 1)
                  .some((e) => (e.start_date ?? '') < (entry.start_date ?? ''))}
              />
            ))}
          </ol>
        </div>
      ))}
    </div>
  );
}
