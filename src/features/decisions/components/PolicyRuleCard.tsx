/**
 * One rule of the Policy page as a card: on/off, the outcome when it fires, the outcome when the
 * profile lacks its data, and its own setting (a threshold in days, months, dollars, a count or a
 * factor; the cargo classes required and refused; hazmat required or refused). A list of cards at
 * every width: stacked on a phone, one row per rule on a wide screen. `settingProblem` says why a
 * value cannot be saved, in words, before the proxy is asked.
 */
import { useId, useState } from 'react';
import { INPUT, MUTED } from '../../../components/controls.ts';
import { formatCount, formatDollars } from '../../../lib/format.ts';
import type { RuleInfo } from '../../../entities/vetting/policy.ts';
import type { CargoClass, RuleSettings } from '../../../lib/vetting/index.ts';

const OUTCOME_LABEL = { pass: 'Pass', review: 'Review', fail: 'Fail' } as const;
const ERROR_TEXT = 'text-sm text-red-800 dark:text-red-300';
const FIELD_LABEL = 'flex min-w-0 max-w-full flex-col gap-1 text-sm font-medium';

type Threshold = NonNullable<RuleInfo['threshold']>;

function amountText(threshold: Threshold, value: number): string {
  if (threshold.unit === 'USD') return formatDollars(value);
  return `${Number.isInteger(value) ? formatCount(value) : String(value)} ${threshold.unit}`;
}

/** Why `value` cannot be saved as the rule's threshold, else undefined. */
export function settingProblem(rule: RuleInfo, value: RuleSettings): string | undefined {
  const { threshold } = rule;
  if (!threshold) return undefined;
  const n = value.threshold;
  const whole = threshold.step === 1;
  const range = `${amountText(threshold, threshold.min)} to ${amountText(threshold, threshold.max)}`;
  if (n === undefined || !Number.isFinite(n)) {
    return `Enter ${threshold.unit === 'USD' ? 'an amount in dollars' : 'a number'} from ${range}.`;
  }
  if (n < threshold.min || n > threshold.max) return `Must be from ${range}.`;
  if (whole && !Number.isInteger(n)) return `Must be a whole number (${threshold.unit}).`;
  return undefined;
}

/** The digits of a typed amount ("$1,000,000", "1000000"), else NaN. */
function parseAmount(text: string): number {
  const bare = text.replace(/[$,\s]/g, '');
  return /^\d+(\.\d+)?$/.test(bare) ? Number(bare) : Number.NaN;
}

function groupDigits(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '' : value.toLocaleString('en-US');
}

/** A dollar amount typed with or without "$" and commas, shown grouped once the field is left. */
function AmountInput({
  value,
  onChange,
  label,
  describedBy,
  invalid,
}: {
  value: number | undefined;
  onChange: (next: number | undefined) => void;
  label: string;
  describedBy: string;
  invalid: boolean;
}) {
  const [text, setText] = useState(groupDigits(value));
  // the draft changed from outside (Undo changes): show its value, not what was typed before
  const typed = parseAmount(text);
  const inStep = Number.isNaN(typed) ? value === undefined || Number.isNaN(value) : typed === value;
  const shown = inStep ? text : groupDigits(value);
  return (
    <span className="flex items-center gap-1">
      <span aria-hidden="true">$</span>
      <input
        type="text"
        inputMode="numeric"
        className={`${INPUT} w-36 tabular-nums`}
        aria-label={label}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        value={shown}
        onChange={(event) => {
          setText(event.target.value);
          const parsed = parseAmount(event.target.value);
          onChange(Number.isNaN(parsed) ? Number.NaN : parsed);
        }}
        onBlur={() => {
          const parsed = parseAmount(shown);
          setText(Number.isNaN(parsed) ? shown : groupDigits(parsed));
        }}
      />
    </span>
  );
}

function ThresholdField({
  rule,
  value,
  onChange,
  problem,
}: {
  rule: RuleInfo;
  value: RuleSettings;
  onChange: (next: RuleSettings) => void;
  problem: string | undefined;
}) {
  const id = useId();
  const threshold = rule.threshold;
  if (!threshold) return null;
  const label = `${rule.label}: ${threshold.label} (${threshold.unit})`;
  const set = (next: number | undefined) => onChange({ ...value, threshold: next });
  return (
    <div className={FIELD_LABEL}>
      <span aria-hidden="true">{threshold.label}</span>
      {threshold.unit === 'USD' ? (
        <AmountInput
          value={value.threshold}
          onChange={set}
          label={label}
          describedBy={`${id}-error`}
          invalid={problem !== undefined}
        />
      ) : (
        <span className="flex items-center gap-1 font-normal">
          <input
            type="number"
            className={`${INPUT} w-24`}
            min={threshold.min}
            max={threshold.max}
            step={threshold.step ?? 'any'}
            aria-label={label}
            aria-describedby={`${id}-error`}
            aria-invalid={problem !== undefined || undefined}
            value={
              value.threshold === undefined || Number.isNaN(value.threshold) ? '' : value.threshold
            }
            onChange={(event) =>
              set(event.target.value === '' ? undefined : Number(event.target.value))
            }
          />
          <span aria-hidden="true">{threshold.unit}</span>
        </span>
      )}
      <span id={`${id}-error`} className={ERROR_TEXT}>
        {problem ?? ''}
      </span>
    </div>
  );
}

function CargoList({
  rule,
  which,
  value,
  onChange,
}: {
  rule: RuleInfo;
  which: 'cargo_required' | 'cargo_refused';
  value: RuleSettings;
  onChange: (next: RuleSettings) => void;
}) {
  const chosen = value[which] ?? [];
  const other = value[which === 'cargo_required' ? 'cargo_refused' : 'cargo_required'] ?? [];
  const title = which === 'cargo_required' ? 'Required cargo classes' : 'Refused cargo classes';
  const otherWord = which === 'cargo_required' ? 'refused' : 'required';
  const classes = rule.cargo_classes ?? [];
  const toggle = (id: CargoClass, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((c) => c !== id);
    onChange({ ...value, [which]: classes.map((c) => c.id).filter((c) => next.includes(c)) });
  };
  const names = classes.filter((c) => chosen.includes(c.id)).map((c) => c.label);
  return (
    <details className="rounded-md border border-neutral-300 p-2 text-sm dark:border-neutral-700">
      <summary className="cursor-pointer font-medium">
        {title}: {names.length ? names.join(', ') : 'none'}
      </summary>
      <fieldset className="mt-2">
        <legend className="sr-only">{`${rule.label}: ${title.toLowerCase()}`}</legend>
        <ul className="grid gap-1 sm:grid-cols-2">
          {classes.map((c) => {
            const taken = other.includes(c.id);
            return (
              <li key={c.id}>
                <label className={`flex items-center gap-2 ${taken ? 'opacity-60' : ''}`}>
                  <input
                    type="checkbox"
                    checked={chosen.includes(c.id)}
                    disabled={taken}
                    onChange={(event) => toggle(c.id, event.target.checked)}
                  />
                  {c.label}
                  {taken ? ` (${otherWord})` : ''}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </details>
  );
}

export function PolicyRuleCard({
  rule,
  value,
  onChange,
}: {
  rule: RuleInfo;
  value: RuleSettings;
  onChange: (next: RuleSettings) => void;
}) {
  const base = `rule-${rule.id}`;
  const problem = settingProblem(rule, value);
  return (
    <li
      className="rounded-md border border-neutral-300 p-3 dark:border-neutral-700"
      data-rule={rule.id}
    >
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="flex min-w-0 items-start gap-2">
          <input
            id={`${base}-on`}
            type="checkbox"
            className="mt-1"
            aria-label={`${rule.label}: on`}
            checked={value.enabled}
            onChange={(event) => onChange({ ...value, enabled: event.target.checked })}
          />
          <div className="min-w-0">
            <label htmlFor={`${base}-on`} id={`${base}-label`} className="font-semibold">
              {rule.label}
            </label>
            <span className={`ml-2 ${MUTED}`}>{value.enabled ? 'on' : 'off'}</span>
            <p className={MUTED}>{rule.description}</p>
          </div>
        </div>
        <div className="flex min-w-0 flex-wrap items-start gap-3">
          <label className={FIELD_LABEL}>
            <span aria-hidden="true">When it fires</span>
            <select
              className={INPUT}
              aria-label={`${rule.label}: outcome when it fires`}
              value={value.outcome}
              onChange={(event) =>
                onChange({ ...value, outcome: event.target.value as RuleSettings['outcome'] })
              }
            >
              {rule.outcomes.map((outcome) => (
                <option key={outcome} value={outcome}>
                  {OUTCOME_LABEL[outcome]}
                </option>
              ))}
            </select>
          </label>
          <label className={FIELD_LABEL}>
            <span aria-hidden="true">Not enough data</span>
            <select
              className={INPUT}
              aria-label={`${rule.label}: outcome when there is not enough data`}
              value={value.no_data}
              onChange={(event) =>
                onChange({ ...value, no_data: event.target.value as RuleSettings['no_data'] })
              }
            >
              <option value="pass">Pass</option>
              <option value="review">Review</option>
            </select>
          </label>
          <ThresholdField rule={rule} value={value} onChange={onChange} problem={problem} />
          {rule.hazmat_modes ? (
            <label className={FIELD_LABEL}>
              <span aria-hidden="true">Hazardous materials</span>
              <select
                className={`${INPUT} max-w-full`}
                aria-label={`${rule.label}: required or refused`}
                value={value.hazmat ?? 'required'}
                onChange={(event) =>
                  onChange({ ...value, hazmat: event.target.value as RuleSettings['hazmat'] })
                }
              >
                {rule.hazmat_modes.map((mode) => (
                  <option key={mode.id} value={mode.id}>
                    {mode.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {rule.cargo_classes ? (
            <div className="flex w-full flex-col gap-2">
              <CargoList rule={rule} which="cargo_required" value={value} onChange={onChange} />
              <CargoList rule={rule} which="cargo_refused" value={value} onChange={onChange} />
            </div>
          ) : null}
        </div>
      </div>
    </li>
  );
}
