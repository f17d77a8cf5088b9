/**
 * The Tender check page (`/tender-check`, docs/tender-check.md): an offer (the carrier as claimed,
 * how the offer came, the load) checked in one call. The answer shows above the form, in one
 * screen; billed searches it could not run are listed with their cost and run only when the user
 * confirms. `?dot_number=` or `?docket_number=` pre-fills the carrier (the profile's "Tender check").
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BUTTON, INPUT, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { describeError } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCan, type Permission } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { CARGO_CLASS_LABELS } from '../../../lib/vetting/rules.ts';
import { CARGO_CLASSES } from '../../../lib/service/fields.ts';
import {
  STATE_CODES,
  TENDER_EQUIPMENT,
  TENDER_EQUIPMENT_LABELS,
  type TenderCheckAnswer,
  type TenderCheckInput,
  type TenderEquipment,
} from '../../../lib/tender/contract.ts';
import { useRunTenderCheck } from '../api/tender.ts';
import {
  bodyOf,
  formFromQuery,
  validate,
  type FormErrors,
  type FormField,
  type TenderForm,
} from '../model/form.ts';
import { TenderAnswerView } from './TenderAnswerView.tsx';

const ERROR_TEXT = 'text-sm font-medium text-red-800 dark:text-red-300';
const FIELD_INPUT = `${INPUT} min-h-9 w-full`;

/** The props that tie a control to its message. */
function invalidProps(errors: FormErrors, field: FormField, id: string) {
  return errors[field] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${field}` } : {};
}

function FieldError({ errors, field, id }: { errors: FormErrors; field: FormField; id: string }) {
  const message = errors[field];
  if (!message) return null;
  return (
    <span id={`${id}-${field}`} className={ERROR_TEXT}>
      {message}
    </span>
  );
}

/** A control with its label above it (a label element pointing at it, so its name is the label). */
function Field({
  label,
  htmlFor,
  children,
  className = '',
}: {
  label: string;
  htmlFor: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`${LABEL} ${className}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
    </div>
  );
}

function StateSelect({
  value,
  onChange,
  ...rest
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <select
      className={FIELD_INPUT}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      {...rest}
    >
      <option value="">Not given</option>
      {STATE_CODES.map((code) => (
        <option key={code} value={code}>
          {code}
        </option>
      ))}
    </select>
  );
}

interface FormProps {
  initial: TenderForm;
  running: boolean;
  /** whether the user's role may run a check (a viewer may only read them) */
  can: Permission;
  onSubmit: (form: TenderForm) => void;
}

function OfferForm({ initial, running, can, onSubmit }: FormProps) {
  const id = useId();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const set = <K extends keyof TenderForm>(key: K, value: TenderForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors({});
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // the summary is announced (role=alert); focus goes to it so a keyboard user reads it first
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    onSubmit(form);
  };
  const count = Object.keys(errors).length;
  const toggleClass = (value: string, checked: boolean) =>
    set(
      'cargoClasses',
      CARGO_CLASSES.filter((c) => (c === value ? checked : form.cargoClasses.includes(c))),
    );
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="The offer"
      className="space-y-5 rounded-md border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900"
    >
      {count > 0 ? (
        <p ref={summaryRef} tabIndex={-1} role="alert" className={ERROR_TEXT}>
          {count === 1 ? 'One field needs' : `${count} fields need`} correcting before the check can
          run: {Object.values(errors).join('; ')}.
        </p>
      ) : null}
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-base font-semibold">The carrier, as the offer names it</legend>
        <Field label="Identified by" htmlFor={`${id}-kind`}>
          <select
            id={`${id}-kind`}
            className={FIELD_INPUT}
            value={form.kind}
            onChange={(e) => set('kind', e.target.value === 'docket' ? 'docket' : 'dot')}
          >
            <option value="dot">USDOT number</option>
            <option value="docket">MC / MX / FF docket</option>
          </select>
        </Field>
        <Field
          label={form.kind === 'dot' ? 'USDOT number' : 'Docket, e.g. MC277621'}
          htmlFor={`${id}-carrier`}
        >
          <input
            id={`${id}-carrier`}
            className={FIELD_INPUT}
            name="carrier"
            inputMode={form.kind === 'dot' ? 'numeric' : 'text'}
            autoComplete="off"
            value={form.carrier}
            onChange={(e) => set('carrier', e.target.value)}
            {...invalidProps(errors, 'carrier', id)}
          />
          <FieldError errors={errors} field="carrier" id={id} />
        </Field>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-base font-semibold">How the offer came</legend>
        <Field label="Phone" htmlFor={`${id}-phone`}>
          <input
            id={`${id}-phone`}
            type="tel"
            className={FIELD_INPUT}
            name="phone"
            autoComplete="off"
            value={form.phone}
            onChange={(e) => set('phone', e.target.value)}
            {...invalidProps(errors, 'phone', id)}
          />
          <FieldError errors={errors} field="phone" id={id} />
        </Field>
        <Field label="E-mail" htmlFor={`${id}-email`}>
          <input
            id={`${id}-email`}
            type="email"
            className={FIELD_INPUT}
            name="email"
            autoComplete="off"
            value={form.email}
            onChange={(e) => set('email', e.target.value)}
            {...invalidProps(errors, 'email', id)}
          />
          <FieldError errors={errors} field="email" id={id} />
        </Field>
        <Field label="Contact name (optional)" htmlFor={`${id}-contact`}>
          <input
            id={`${id}-contact`}
            className={FIELD_INPUT}
            name="contact_name"
            autoComplete="off"
            value={form.contactName}
            onChange={(e) => set('contactName', e.target.value)}
            {...invalidProps(errors, 'contactName', id)}
          />
          <FieldError errors={errors} field="contactName" id={id} />
        </Field>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-2 text-base font-semibold">The load (optional)</legend>
        <Field label="Cargo value (USD)" htmlFor={`${id}-value`}>
          <input
            id={`${id}-value`}
            className={FIELD_INPUT}
            name="cargo_value"
            inputMode="decimal"
            autoComplete="off"
            value={form.cargoValue}
            onChange={(e) => set('cargoValue', e.target.value)}
            {...invalidProps(errors, 'cargoValue', id)}
          />
          <FieldError errors={errors} field="cargoValue" id={id} />
        </Field>
        <Field label="Equipment" htmlFor={`${id}-equipment`}>
          <select
            id={`${id}-equipment`}
            className={FIELD_INPUT}
            value={form.equipment}
            onChange={(e) => set('equipment', e.target.value as TenderEquipment | '')}
          >
            <option value="">Not given</option>
            {TENDER_EQUIPMENT.map((value) => (
              <option key={value} value={value}>
                {TENDER_EQUIPMENT_LABELS[value]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Pickup date" htmlFor={`${id}-pickup`}>
          <input
            id={`${id}-pickup`}
            type="date"
            className={FIELD_INPUT}
            value={form.pickupDate}
            onChange={(e) => set('pickupDate', e.target.value)}
            {...invalidProps(errors, 'pickupDate', id)}
          />
          <FieldError errors={errors} field="pickupDate" id={id} />
        </Field>
        <Field label="Origin state" htmlFor={`${id}-origin`}>
          <StateSelect
            id={`${id}-origin`}
            value={form.originState}
            onChange={(value) => set('originState', value)}
            {...invalidProps(errors, 'originState', id)}
          />
          <FieldError errors={errors} field="originState" id={id} />
        </Field>
        <Field label="Destination state" htmlFor={`${id}-destination`}>
          <StateSelect
            id={`${id}-destination`}
            value={form.destinationState}
            onChange={(value) => set('destinationState', value)}
            {...invalidProps(errors, 'destinationState', id)}
          />
          <FieldError errors={errors} field="destinationState" id={id} />
        </Field>
        <label className="flex min-h-11 items-center gap-2 self-end text-sm font-medium text-neutral-700 dark:text-neutral-300">
          <input
            type="checkbox"
            className="size-4"
            checked={form.hazmat}
            onChange={(e) => set('hazmat', e.target.checked)}
          />
          Hazardous materials
        </label>
        <fieldset className="sm:col-span-3">
          <legend className="text-sm font-medium text-neutral-700 dark:text-neutral-300">
            Cargo classes (as the carrier’s profile lists them)
          </legend>
          <div className="mt-1 grid max-h-56 grid-cols-1 gap-x-4 overflow-y-auto rounded-md border border-neutral-200 p-2 sm:grid-cols-2 lg:grid-cols-3 dark:border-neutral-700">
            {CARGO_CLASSES.map((value) => (
              <label key={value} className="flex min-h-9 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={form.cargoClasses.includes(value)}
                  onChange={(e) => toggleClass(value, e.target.checked)}
                />
                {CARGO_CLASS_LABELS[value]}
              </label>
            ))}
          </div>
          <FieldError errors={errors} field="cargoClasses" id={id} />
        </fieldset>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          className={`${PRIMARY_BUTTON} min-h-11 px-4`}
          disabled={running || !can.allowed}
          aria-describedby={can.allowed ? undefined : `${id}-role`}
        >
          {running ? 'Checking…' : 'Check this offer'}
        </button>
        <RoleNote id={`${id}-role`} permission={can} />
        <span className={MUTED}>
          Only data already held or free is used; a billed search asks first.
        </span>
      </div>
    </form>
  );
}

export function TenderCheckPage() {
  const [params] = useSearchParams();
  const initial = formFromQuery(params);
  const run = useRunTenderCheck();
  const can = useCan('run tender checks');
  const [answer, setAnswer] = useState<TenderCheckAnswer | undefined>(undefined);
  // the body the answer shown came from: confirming reruns it, whatever the form says since
  const [lastBody, setLastBody] = useState<TenderCheckInput | undefined>(undefined);
  const answerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (answer) answerRef.current?.focus();
  }, [answer]);

  const send = (body: TenderCheckInput) => {
    run.mutate(body, {
      onSuccess: (result) => {
        setAnswer(result);
        setLastBody(body);
      },
    });
  };
  const error = run.error ? describeError(run.error) : undefined;
  return (
    <div>
      <PageHeader
        title="Tender check"
        description="Is this offer really from that carrier, and may it take this load? The answer, its reasons and their evidence, before you tender."
      />
      <p className="-mt-6 mb-6 text-sm">
        <Link to="/tender-checks" className="text-sky-800 underline dark:text-sky-300">
          Earlier tender checks
        </Link>
      </p>
      {answer ? (
        <div ref={answerRef} tabIndex={-1} className="mb-8 outline-none">
          <TenderAnswerView
            answer={answer}
            confirming={run.isPending}
            onConfirm={
              lastBody ? (maxCostUsd) => send({ ...lastBody, max_cost_usd: maxCostUsd }) : undefined
            }
          />
          <p className="mt-3 flex flex-wrap gap-3 text-sm">
            <Link
              to={`/tender-checks/${answer.id}`}
              className="text-sky-800 underline dark:text-sky-300"
            >
              Stored as check #{answer.id}
            </Link>
            <button type="button" className={BUTTON} onClick={() => setAnswer(undefined)}>
              Clear the answer
            </button>
          </p>
        </div>
      ) : null}
      {error ? (
        <div
          role="alert"
          className="mb-4 rounded-md border border-red-400 bg-red-50 p-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100"
        >
          <p className="font-semibold">{error.title}</p>
          <p>{error.detail}</p>
          {error.advice ? <p>{error.advice}</p> : null}
        </div>
      ) : null}
      <OfferForm
        key={params.toString()}
        initial={initial}
        running={run.isPending}
        can={can}
        onSubmit={(form) => {
          setAnswer(undefined);
          send(bodyOf(form));
        }}
      />
    </div>
  );
}
