/**
 * The names a decision record keeps for its evidence and key fields are the service's field names
 * (`insurance_bipd_on_file`) or the rules' own (`network: DOT 3187452`,
 * `risk_factors.pending_insurance_cancellation`, `basic_percentile_crash_indicator (computed by the
 * service)`). The record stores them as they are (they are hashed); the page shows them as words.
 */
import { fieldLabel, formatFieldValue, humaniseFieldName } from '../../../lib/field-labels.ts';

type Value = string | number | boolean | null;

const COMPUTED = ' (computed by the service)';
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

interface Parsed {
  /** the service field the name stands for, when it is one */
  field?: string;
  label: string;
}

function parse(name: string): Parsed {
  if (name.endsWith(COMPUTED)) {
    const inner = parse(name.slice(0, -COMPUTED.length));
    return { ...inner, label: `${inner.label}${COMPUTED}` };
  }
  if (FIELD_NAME.test(name)) return { field: name, label: fieldLabel(name) };
  const risk = /^risk_factors\.([a-z0-9_]+)$/.exec(name);
  if (risk?.[1]) return { label: `${humaniseFieldName(risk[1])} (risk factor)` };
  const policy = /^insurance_history\.(.+)\.cancel_effective_date$/.exec(name);
  if (policy?.[1])
    return { field: 'insurance_pending_cancel_date', label: `${policy[1]} cancels on` };
  const network = /^network: (.+)$/.exec(name);
  if (network?.[1]) return { label: `Shared with ${network[1]}` };
  return { label: humaniseFieldName(name) };
}

/** "BIPD insurance on file" for `insurance_bipd_on_file`; other names made readable. */
export function evidenceLabel(name: string): string {
  return parse(name).label;
}

/** The value as the analyst reads it: dollars, dates, percentages, Yes/No; a dash when missing. */
export function evidenceValue(name: string, value: Value): string {
  const { field } = parse(name);
  if (field !== undefined) return formatFieldValue(field, value);
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}
