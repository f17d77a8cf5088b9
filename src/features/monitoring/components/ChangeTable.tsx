import { useState } from 'react';
import { Badge } from '../../../components/Badge.tsx';
import { fieldLabel, formatFieldValue } from '../../../lib/field-labels.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import {
  isNewSince,
  stateOf,
  TRIAGE_LABELS,
  TRIAGE_STATES,
  type InboxChange,
  type TriageEntry,
  type TriageState,
} from '../../../lib/monitoring/inbox.ts';
import { CHANNEL_LABELS } from './channel-labels.ts';
import { BUTTON, INPUT } from './ui.ts';

export interface TriageAction {
  (changes: readonly InboxChange[], state: TriageState, note?: string): void;
}

interface ChangeTableProps {
  profileId: string;
  changes: readonly InboxChange[];
  triage: ReadonlyMap<string, TriageEntry>;
  lastVisit: string | undefined;
  onTriage: TriageAction;
  saving: boolean;
  /** the user's role cannot triage: the state is shown, not changeable (the page says why) */
  readOnly?: boolean;
}

const CELL = 'px-2 py-1.5 align-top max-md:px-1 max-md:py-0.5';

/** A profile's field changes: what changed, from what to what, and its triage. */
export function ChangeTable({
  profileId,
  changes,
  triage,
  lastVisit,
  onTriage,
  saving,
  readOnly = false,
}: ChangeTableProps) {
  return (
    <table className="w-full text-sm max-md:block">
      <caption className="sr-only">Changes of {profileId}</caption>
      <thead className="max-md:sr-only">
        <tr className="text-left text-neutral-600 dark:text-neutral-400">
          <th scope="col" className={CELL}>
            Date
          </th>
          <th scope="col" className={CELL}>
            Field
          </th>
          <th scope="col" className={CELL}>
            Prior → current
          </th>
          <th scope="col" className={CELL}>
            Channel
          </th>
          <th scope="col" className={CELL}>
            Triage
          </th>
        </tr>
      </thead>
      <tbody className="max-md:block">
        {changes.map((change) => (
          <tr
            key={change.id}
            className="border-t border-neutral-200 max-md:flex max-md:flex-wrap max-md:items-baseline max-md:gap-x-2 max-md:py-2 dark:border-neutral-800"
          >
            <td className={`${CELL} whitespace-nowrap`}>
              {formatDate(change.date)}
              {isNewSince(change, lastVisit) ? (
                <span className="ml-1">
                  <Badge tone="info">New since last visit</Badge>
                </span>
              ) : null}
            </td>
            <th scope="row" className={`${CELL} text-left font-medium`}>
              {fieldLabel(change.field)}
            </th>
            <td className={`${CELL} max-md:basis-full`}>
              <span className="text-neutral-600 dark:text-neutral-400">
                {formatFieldValue(change.field, change.prior)}
              </span>
              <span aria-label="changed to"> → </span>
              <span className="font-medium">{formatFieldValue(change.field, change.current)}</span>
            </td>
            <td className={CELL}>{change.channel ? CHANNEL_LABELS[change.channel] : 'Other'}</td>
            <td className={`${CELL} max-md:basis-full`}>
              <TriageControl
                change={change}
                entry={triage.get(change.id)}
                state={stateOf(change, triage)}
                onTriage={onTriage}
                saving={saving}
                readOnly={readOnly}
              />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface TriageControlProps {
  change: InboxChange;
  entry: TriageEntry | undefined;
  state: TriageState;
  onTriage: TriageAction;
  saving: boolean;
  readOnly: boolean;
}

function TriageControl({ change, entry, state, onTriage, saving, readOnly }: TriageControlProps) {
  const [note, setNote] = useState(entry?.note ?? '');
  const allowed = !readOnly;
  const label = `${fieldLabel(change.field)} on ${formatDate(change.date)}`;
  const unchanged = saving || !allowed || note === (entry?.note ?? '');
  return (
    <div className="flex flex-wrap items-center gap-1">
      <select
        aria-label={`Triage state of ${label}`}
        className={INPUT}
        value={state}
        disabled={!allowed}
        onChange={(event) => onTriage([change], event.target.value as TriageState, note)}
      >
        {TRIAGE_STATES.map((option) => (
          <option key={option} value={option}>
            {TRIAGE_LABELS[option]}
          </option>
        ))}
      </select>
      <input
        aria-label={`Note on ${label}`}
        className={`${INPUT} w-36`}
        value={note}
        maxLength={500}
        placeholder="Note"
        readOnly={!allowed}
        onChange={(event) => setNote(event.target.value)}
      />
      {/* aria-disabled, not disabled: a disabled button loses the focus once the note is saved */}
      <button
        type="button"
        className={`${BUTTON} aria-disabled:opacity-50`}
        aria-disabled={unchanged}
        onClick={() => {
          if (!unchanged) onTriage([change], state, note);
        }}
      >
        Save note<span className="sr-only"> on {label}</span>
      </button>
      {entry?.by || entry?.at ? (
        <span className="w-full text-xs text-neutral-600 dark:text-neutral-400">
          {TRIAGE_LABELS[entry.state]} by {entry.by ?? 'someone'} · {formatDateTime(entry.at)}
        </span>
      ) : null}
    </div>
  );
}
