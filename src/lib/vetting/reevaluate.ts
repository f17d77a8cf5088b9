/**
 * A recorded verdict re-evaluated on a carrier's changed fields (monitoring), without fetching the
 * profile again: the values the decision record kept (every rule's evidence) with the changes laid
 * over them, evaluated by the current policy. Only the rules a change touches are re-evaluated; the
 * others keep their recorded outcome, and a touched rule that now lacks data (the record keeps only
 * what the rules read) keeps its recorded outcome too, so a change never worsens a verdict by itself
 * being incomplete.
 */
import { parseProfile } from '../service/index.ts';
import { evaluate, worstOutcome } from './evaluate.ts';
import { CARGO_CLASSES, type Outcome, type Policy, type RuleId, type RuleResult } from './types.ts';

export interface RecordedVerdict {
  verdict: Outcome;
  snapshot_date: string | null;
  /** `rule` is a string: a record may name a rule this version no longer has */
  reasons: readonly (Pick<RuleResult, 'outcome' | 'fields'> & { rule: string })[];
}

export interface FieldChangeInput {
  field: string;
  current: unknown;
  /** YYYY-MM-DD the change was seen */
  date?: string | undefined;
}

/** Field prefixes each rule reads, beyond the evidence it recorded. */
const READS: Record<RuleId, readonly string[]> = {
  usdot_status: ['usdot_status', 'out_of_service'],
  operating_authority: [
    'authority_',
    'indicator_authority',
    'carrier_operation',
    'operation_class',
    'entity_type',
  ],
  bipd_insurance: ['insurance_bipd', 'indicator_insurance'],
  pending_cancellation: ['insurance_history', 'insurance_pending', 'risk_factors'],
  rating_unsatisfactory: ['safety_rating'],
  rating_conditional: ['safety_rating'],
  basic_alerts: ['basic_', 'intervention_threshold_'],
  oos_rates: ['inspections_', 'natl_avg_oos_'],
  new_entrant: ['dot_age', 'added_date'],
  authority_age: ['authority_'],
  contact_changes: [
    'telephone_number',
    'email_address',
    'physical_address',
    'phone_last_changed',
    'email_last_changed',
    'address_last_changed',
  ],
  shared_identifiers: ['network_graph_'],
  virtual_address: ['physical_address', 'risk_factors'],
  vendor_risk_score: ['risk_score'],
  cargo_insurance: ['insurance_cargo', 'operation_class', 'entity_type'],
  bipd_minimum: ['insurance_bipd', 'entity_type'],
  surety_bond: ['insurance_bond', 'authority_broker', 'entity_type'],
  cargo_classes: [...CARGO_CLASSES, 'entity_type'],
  hazmat: ['hazardous_material', 'phmsa_flag', 'entity_type'],
  power_units: ['total_power_units', 'entity_type'],
  time_in_business: ['added_date', 'dot_age', 'authority_'],
  crash_count: ['crash', 'entity_type'],
  fatal_crashes: ['crash', 'entity_type'],
  oos_factor: ['inspections_', 'natl_avg_oos_', 'entity_type'],
};

/** A contact change dates its `*_last_changed` counter. */
const LAST_CHANGED: Record<string, string> = {
  telephone_number: 'phone_last_changed',
  email_address: 'email_last_changed',
  physical_address: 'address_last_changed',
  physical_address_street: 'address_last_changed',
};

const PLAIN_FIELD = /^[a-z][a-z0-9_]*$/i;

export function isRuleId(value: string): value is RuleId {
  return Object.hasOwn(READS, value);
}

/** Does a change of one of `changed` concern `rule` (it recorded one of them, or reads it)? */
export function touches(
  rule: RuleId,
  recordedFields: readonly string[],
  changed: readonly string[],
): boolean {
  return changed.some(
    (field) =>
      recordedFields.includes(field) || READS[rule].some((prefix) => field.startsWith(prefix)),
  );
}

export interface Reevaluation {
  verdict: Outcome;
  /** the rules the changes touched */
  touched: RuleId[];
}

/**
 * The raw fields a record kept (every rule's evidence) with `changes` laid over them, and the
 * names of the fields the changes set (a contact change also dates its `*_last_changed` counter).
 */
export function layOver(
  recorded: Pick<RecordedVerdict, 'snapshot_date' | 'reasons'>,
  changes: readonly FieldChangeInput[],
): { raw: Record<string, unknown>; changed: string[] } {
  const raw: Record<string, unknown> = {};
  for (const reason of recorded.reasons) {
    for (const { name, value } of reason.fields) {
      if (PLAIN_FIELD.test(name) && value !== null) raw[name] = value;
    }
  }
  const changed: string[] = [];
  const dates = changes
    .map((change) => change.date)
    .filter((d): d is string => Boolean(d))
    .sort();
  for (const change of changes) {
    raw[change.field] = change.current;
    changed.push(change.field);
    const counter = LAST_CHANGED[change.field];
    if (counter && change.date) {
      raw[counter] = change.date;
      changed.push(counter);
    }
  }
  raw.snapshot_date = dates.at(-1) ?? recorded.snapshot_date ?? undefined;
  return { raw, changed };
}

export function reevaluate(
  recorded: RecordedVerdict,
  changes: readonly FieldChangeInput[],
  policy: Policy,
): Reevaluation {
  const { raw, changed } = layOver(recorded, changes);
  const fresh = evaluate(parseProfile(raw).value, policy);
  const touched: RuleId[] = [];
  const outcomes = recorded.reasons.map((reason) => {
    if (!isRuleId(reason.rule)) return reason.outcome;
    const rule = reason.rule;
    const fields = reason.fields.map((field) => field.name);
    if (!touches(rule, fields, changed)) return reason.outcome;
    touched.push(rule);
    const now = fresh.reasons.find((result) => result.rule === rule);
    if (!now || now.not_enough_data) return reason.outcome;
    return now.outcome;
  });
  return { verdict: worstOutcome(outcomes), touched };
}
