/**
 * Recording a decision from the verdict summary under the carrier's name: Approved, Approved with
 * conditions, Rejected or Do not use, a note, conditions, a re-vet date and, when the carrier has
 * some, the tender check made before it. An approval of a Fail
 * or Review verdict asks why (the override reason), and the re-vet date lies between today and the
 * policy's maximum ahead (decision-form.ts). The proxy stores what was seen (verdict, evidence,
 * policy version, snapshot) in its hash-chained record; nothing here is billed.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import {
  DECISIONS,
  DECISION_LABELS,
  type Decision,
} from '../../../../lib/vetting/decision-record.ts';
import { usePolicy } from '../../../../entities/vetting/policy.ts';
import { TenderCheckPicker } from '../../../../entities/tender-check/components/TenderCheckPicker.tsx';
import type { useRecordDecision } from '../../api/verdict.ts';
import { MAX_REVET_DAYS, type Outcome } from '../../../../lib/vetting/index.ts';
import {
  MAX_OVERRIDE,
  decisionBody,
  formProblem,
  needsOverride,
  overridePrompt,
  refusalCode,
  refusedField,
  revetBounds,
  type FormProblem,
} from './decision-form.ts';

const MAX_NOTE = 4000;

const INPUT_CLASS =
  'mt-1 block w-full rounded-md border border-neutral-400 bg-white px-2 py-1.5 text-sm text-neutral-950 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-50';
export const BUTTON_CLASS =
  'rounded-md border border-neutral-400 bg-white px-3 py-1.5 text-sm font-medium text-neutral-950 hover:bg-neutral-50 dark:border-neutral-600 dark:bg-neutral-900 dark:text-neutral-50 dark:hover:bg-neutral-800';

type RecordMutation = ReturnType<typeof useRecordDecision>;

interface DecisionFormProps {
  dot: string;
  verdict: Outcome;
  /** the policy version the verdict is of */
  policyVersion: number;
  /** how many rules decided it (its non-pass reasons) */
  reasons: number;
  /** the form's id: the Record button's aria-controls */
  id: string;
  /** the parent's mutation: its success message outlives the form */
  record: RecordMutation;
  /** saved (after the record was stored) or cancelled */
  onClose: () => void;
}

/** The form itself, opened by the summary's "Record a decision" button. */
export function DecisionForm({
  dot,
  verdict,
  policyVersion,
  reasons,
  id: formId,
  record,
  onClose,
}: DecisionFormProps) {
  const [decision, setDecision] = useState<Decision | undefined>(undefined);
  const [note, setNote] = useState('');
  const [conditions, setConditions] = useState('');
  const [expires, setExpires] = useState('');
  const [overrideReason, setOverrideReason] = useState('');
  const [tenderCheck, setTenderCheck] = useState('');
  const [problem, setProblem] = useState<FormProblem | undefined>(undefined);
  const overrideRef = useRef<HTMLTextAreaElement>(null);
  const expiresRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const maxDays = usePolicy().data?.options.max_revet_days ?? MAX_REVET_DAYS.default;
  const bounds = revetBounds(new Date(), maxDays);
  // the proxy may judge on fresher data than the page: its 409 asks for the reason too
  const refused = record.isError ? refusedField(record.error) : undefined;
  const serverAsked = refusalCode(record.error) === 'override_reason_required';
  const overrideAsked = needsOverride(decision, verdict) || (serverAsked && decision !== undefined);
  const approval = decision === 'approved' || decision === 'approved_with_conditions';
  const showOverride = approval && overrideAsked;

  const check = () =>
    formProblem({ decision, overrideAsked, overrideReason, expires, bounds, maxDays });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!decision) return;
    const found = check();
    setProblem(found);
    if (found) {
      (found.field === 'override' ? overrideRef : expiresRef).current?.focus();
      return;
    }
    const fields = { note, conditions, expires, overrideReason };
    const body = decisionBody(dot, decision, fields, overrideAsked);
    record.mutate(tenderCheck ? { ...body, tender_check_id: Number(tenderCheck) } : body, {
      onSuccess: onClose,
    });
  };

  /** The browser refused a field (required, min, max): say why in words, not in its bubble. */
  const refuse = (event: FormEvent<HTMLElement>) => {
    const found = check();
    if (!found) return;
    event.preventDefault();
    setProblem(found);
    (found.field === 'override' ? overrideRef : expiresRef).current?.focus();
  };

  const needsConditions = decision === 'approved_with_conditions';
  const overrideError = problem?.field === 'override' || refused === 'override';
  const expiresError = problem?.field === 'expires' || refused === 'expires';
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
      {showOverride ? (
        <div className="rounded-md border-2 border-amber-700 bg-amber-50 p-2 dark:border-amber-400 dark:bg-amber-950">
          <p id={`${id}-override-why`} className="text-sm text-neutral-950 dark:text-neutral-50">
            {overridePrompt(verdict, policyVersion, reasons)}
          </p>
          <label className="mt-1 block text-sm font-medium">
            Override reason (required)
            <textarea
              ref={overrideRef}
              className={INPUT_CLASS}
              rows={3}
              maxLength={MAX_OVERRIDE}
              required
              onInvalid={refuse}
              aria-invalid={overrideError || undefined}
              aria-describedby={`${id}-override-why`}
              value={overrideReason}
              onChange={(event) => {
                setOverrideReason(event.target.value);
                setProblem(undefined);
              }}
            />
          </label>
        </div>
      ) : null}
      <TenderCheckPicker
        dot={dot}
        value={tenderCheck}
        onChange={setTenderCheck}
        selectClassName={INPUT_CLASS}
      />
      <label className="text-sm font-medium">
        Re-vet by (optional)
        <input
          ref={expiresRef}
          type="date"
          className={INPUT_CLASS}
          min={bounds.min}
          max={bounds.max}
          aria-invalid={expiresError || undefined}
          aria-describedby={`${id}-expires-range`}
          value={expires}
          onInvalid={refuse}
          onChange={(event) => {
            setExpires(event.target.value);
            setProblem(undefined);
          }}
        />
      </label>
      <p
        id={`${id}-expires-range`}
        className="-mt-2 text-xs text-neutral-700 dark:text-neutral-300"
      >
        From today ({bounds.min}, UTC) to {bounds.max}: the policy allows up to {maxDays} days
        ahead.
      </p>
      {problem ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          {problem.message}
        </p>
      ) : record.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          The decision was not recorded: {record.error.message}
          {serverAsked ? ' Say why you approve it anyway in the override reason.' : ''}
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
