/** The vetting engine's vocabulary: outcomes, evidence, rule results, verdicts and policy settings. */
import { CARGO_CLASSES } from '../service/index.ts';

/** What a rule, and a verdict, can say; ordered from best to worst. */
export const OUTCOMES = ['pass', 'review', 'fail'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What a rule that fires may yield (a rule that passes yields `pass`). */
export type HitOutcome = Exclude<Outcome, 'pass'>;

/** What a rule yields when the profile lacks the data it reads: never a failure. */
export type NoDataOutcome = Exclude<Outcome, 'fail'>;

/** The profile tabs that show a rule's evidence (the profile feature's tab ids). */
export type EvidenceTab =
  | 'overview'
  | 'authority'
  | 'safety'
  | 'inspections'
  | 'crashes'
  | 'fleet'
  | 'contact'
  | 'network'
  | 'fmcsa';

export type EvidenceValue = string | number | boolean | null;

/** One value a rule read: the normalised field name and what the profile says (null: absent). */
export interface Evidence {
  name: string;
  value: EvidenceValue;
}

export const RULE_IDS = [
  'usdot_status',
  'operating_authority',
  'bipd_insurance',
  'pending_cancellation',
  'rating_unsatisfactory',
  'rating_conditional',
  'basic_alerts',
  'oos_rates',
  'new_entrant',
  'authority_age',
  'contact_changes',
  'shared_identifiers',
  'virtual_address',
  'vendor_risk_score',
  // added with issue 29: off in the default policy and in every version stored before them
  'cargo_insurance',
  'bipd_minimum',
  'surety_bond',
  'cargo_classes',
  'hazmat',
  'power_units',
  'time_in_business',
  'crash_count',
  'fatal_crashes',
  'oos_factor',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

/** One rule's result, with the evidence and where a person can check it. */
export interface RuleResult {
  rule: RuleId;
  /** the rule's short name */
  label: string;
  outcome: Outcome;
  /** what the rule saw, in plain language */
  message: string;
  fields: Evidence[];
  tab: EvidenceTab;
  /** the element id of the section (or row) of the tab that shows the evidence */
  anchor?: string;
  /** the rule lacked the data it reads ("not enough data"); never a failure */
  not_enough_data?: true;
  /** the rule does not apply to this kind of carrier (e.g. intrastate, broker only) */
  not_applicable?: true;
  /** the evidence includes values computed by the data vendor rather than published by FMCSA */
  vendor_derived?: true;
}

export interface VerdictResult {
  verdict: Outcome;
  policy_version: number;
  /** the profile's snapshot date, when it has one */
  snapshot_date: string | null;
  /** the day "N days ago" is counted from: the snapshot date, else the evaluation day */
  reference_date: string;
  /** every enabled rule's result, worst first (the rules' order within an outcome) */
  reasons: RuleResult[];
}

/** The profile's cargo flags (MCS-150 cargo classification), which `cargo_classes` reads. */
export { CARGO_CLASSES };
export type CargoClass = (typeof CARGO_CLASSES)[number];

/** Whether a team needs carriers that haul hazardous materials, or refuses them. */
export const HAZMAT_MODES = ['required', 'refused'] as const;
export type HazmatMode = (typeof HAZMAT_MODES)[number];

/** One rule's team settings. */
export interface RuleSettings {
  enabled: boolean;
  /** what the rule yields when it fires */
  outcome: HitOutcome;
  /** what the rule yields when the profile lacks its data */
  no_data: NoDataOutcome;
  /** the rule's threshold (days, percentage points, USD, ...), for rules that have one */
  threshold?: number;
  /** `cargo_classes`: classes the carrier must haul (every one flagged) */
  cargo_required?: CargoClass[];
  /** `cargo_classes`: classes the carrier must not haul */
  cargo_refused?: CargoClass[];
  /** `hazmat`: the carrier must haul hazardous materials, or must not */
  hazmat?: HazmatMode;
}

export type PolicySettings = Record<RuleId, RuleSettings>;

/** Team options that are not rules. */
export interface PolicyOptions {
  /** how far ahead a decision's re-vet date (`expires_on`) may be set, in days */
  max_revet_days: number;
}

/** The allowed range of `max_revet_days`, and its default. */
export const MAX_REVET_DAYS = { min: 1, max: 730, default: 365 } as const;

export interface Policy {
  version: number;
  settings: PolicySettings;
  /** absent: the defaults (a stored version saved before options existed reads them too) */
  options?: PolicyOptions;
}
