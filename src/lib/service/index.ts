/**
 * The one definition of the carrier data service's shapes, shared by the SPA, the proxy and the
 * sandbox. Runtime-neutral: zod and its own files only. See docs/service-shapes.md.
 */
export { CHANNELS, channelOfField, type Channel } from './channels.ts';
export { readKind, type Kind } from './kinds.ts';
export {
  BASIC_CATEGORIES,
  BASIC_LABELS,
  HISTORY_BASICS,
  SERVICE_COMPUTED_BASICS,
  VIOLATION_CATEGORIES,
  interventionThreshold,
  type BasicCategory,
  type CarrierClass,
} from './basics.ts';
// The search keys are imported from './params.ts' itself (it has no zod): the search page's
// initial bundle needs them, and importing this index would bring every parser and zod with it.
export { DATE_TYPES, SORT_KEYS, type DateType, type SortKey } from './params.ts';
export type { FieldDef, Parsed, ParseIssue } from './record.ts';
export { CARGO_CLASSES, PROFILE_ALIASES, PROFILE_FIELDS, PROFILE_SPEC } from './fields.ts';
export {
  auditProfileParse,
  parseProfile,
  parseProfileResponse,
  type AuthorityEntry,
  type ContactEntry,
  type Crash,
  type CrashAggregate,
  type EquipmentSummary,
  type InspectedUnit,
  type Inspection,
  type InsuranceEntry,
  type NetworkEquipmentCarrier,
  type Profile,
  type RiskFactors,
  type Vehicle,
  type Violation,
} from './profile.ts';
export {
  LITE_PROFILE_FIELDS,
  parseLiteProfile,
  parseLiteResponse,
  type LiteProfile,
} from './lite.ts';
export {
  FMCSA_PROFILE_FIELDS,
  FMCSA_SPEC,
  parseFmcsaProfile,
  type FmcsaField,
  type FmcsaProfile,
} from './fmcsa.ts';
export { parseAutocomplete, type AutocompleteItem } from './autocomplete.ts';
export {
  parseMonitoringList,
  parseMonitoringMutation,
  type ChangeRecord,
  type ChangeValue,
  type MonitoredProfile,
  type MonitoringList,
  type MonitoringMutation,
} from './monitoring.ts';
export { UNKNOWN_ERROR, parseErrorBody, type ServiceError } from './errors.ts';
