/**
 * Recording a decision from the verdict summary under the carrier's name: Approved, Approved with
 * conditions, Rejected or Do not use, a note, conditions and a re-vet date. The proxy stores what
 * was seen (verdict, evidence, policy version, snapshot) in its hash-chained record; nothing here is
 * billed.
 */
import { useId, useState, type FormEvent } from 'react';
import {
  DECISIONS,
  DECISION_LABELS,
  type useRecordDecision,
  type Decision,
} from '../../../../lib/vetting-api.ts';
import type { Outcome } from '../../../../lib/vetting/index.ts';

const MAX_NOTE = 4000;

const INPUT_CLASS =
  'mt-1 block w-full rounded-md border border-neutral-400 bg-white px-2 py-1.5 text-sm text-neutral-950 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-50';
export const BUTTON_CLASS =
  'rounded-md border border-neutral-400 bg-white px-3 py-1.5 text-sm font-medium text-neutral-950 hover:bg-neutral-50 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-50 dark:hover:bg-neutral-800';

type RecordMutation = ReturnType<typeof useRecordDecision>;

interface DecisionFormProps {
  dot: string;
  verdict: Outcome;
  /** the form's id: the Record button's aria-controls */
  id: string;
  /** the parent's mutation: its success message outlives the form */
  record: RecordMutation;
  /** saved (after the record was stored) or cancelled */
  onClose: () => void;
}

/** The form itself, opened by the summary's "Record a decision" button. */
export function DecisionForm({ dot, verdict, id: formId, record, onClose }: DecisionFormProps) {
  const [decision, setDecision] = useState<Decision | undefined>(undefined);
  const [note, setNote] = useState('');
  const [conditions, setConditions] = useState('');
  const [expires, setExpires] = useState('');
  const id = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!decision) return;
    record.mutate(
      {
        dot_number: dot,
        decision,
        ...(note.trim() ? { note } : {}),
        ...(conditions.trim() ? { conditions } : {}),
        ...(expires ? { expires_on: expires } : {}),
      },
      { onSuccess: onClose },
    );
  };

  const needsConditions = decision === 'approved_with_conditions';
  return (
    <form
      id={formId}
      onSubmit={submit}
      className="mt-3 grid max-w-xl gap-3"
      aria-label="Record a decision"
    >
      <p className="text-sm text-neutral-800 dark:text-neutral-200">
        The record keeps this {verdict} verdict with its evidence, the policy version and the
        profile's snapshot date.
      </p>
      <fieldset>
        <legend className="text-sm font-medium">Decision</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {DECISIONS.map((value) => (
            <label key={value} className="flex items-center gap-1.5 text-sm">
              <input
                type="radio"
                name={`${id}-decision`}
                value={value}
                checked={decision === value}
                onChange={() => setDecision(value)}
                required
              />
              {DECISION_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="text-sm font-medium">
        Note
        <textarea
          className={INPUT_CLASS}
          rows={3}
          maxLength={MAX_NOTE}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </label>
      <label className="text-sm font-medium">
        Conditions{needsConditions ? ' (required)' : ' (optional)'}
        <textarea
          className={INPUT_CLASS}
          rows={2}
          maxLength={MAX_NOTE}
          required={needsConditions}
          value={conditions}
          onChange={(event) => setConditions(event.target.value)}
        />
      </label>
      <label className="text-sm font-medium">
        Re-vet by (optional)
        <input
          type="date"
          className={INPUT_CLASS}
          value={expires}
          onChange={(event) => setExpires(event.target.value)}
        />
      </label>
      {record.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          The decision was not recorded: {record.error.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className={BUTTON_CLASS} disabled={record.isPending}>
          {record.isPending ? 'Saving…' : 'Save decision'}
        </button>
        <button type="button" className={BUTTON_CLASS} onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
