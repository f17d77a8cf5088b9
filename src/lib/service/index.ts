/**
 * The one definition of the carrier data service's shapes, shared by the SPA, the proxy and the
 * sandbox. Runtime-neutral: zod and its own files only. See docs/service-shapes.md.
 */
export { CHANNELS, channelOfField, isChannel, type Channel } from './channels.ts';
export {
  KIND_SCHEMAS,
  hasContent,
  normaliseDate,
  readKind,
  type Kind,
  type KindValue,
} from './kinds.ts';
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
export {
  DATE_TYPES,
  SEARCH_KEYS,
  SORT_KEYS,
  type DateType,
  type SearchKey,
  type SortKey,
} from './params.ts';
export type { Extra, FieldDef, Parsed, ParseIssue, Shape, Spec } from './record.ts';
export {
  AUTHORITY_FIELDS,
  BASIC_FIELDS,
  BENCHMARK_FIELDS,
  CARGO_FIELDS,
  CHANGE_COUNTER_FIELDS,
  CONTACT_FIELDS,
  CRASH_FIELDS,
  DERIVED_FIELDS,
  FLEET_FIELDS,
  HISTORY_FIELDS,
  IDENTITY_FIELDS,
  INSPECTION_FIELDS,
  INSURANCE_FIELDS,
  LOAD_FIELDS,
  NETWORK_FIELDS,
  OPERATION_CLASS_FIELDS,
  PROFILE_ALIASES,
  PROFILE_FIELDS,
  PROFILE_SPEC,
  SCORE_FIELDS,
  VIOLATION_FIELDS,
  type ProfileField,
} from './fields.ts';
export {
  auditProfileParse,
  parseProfile,
  parseProfileResponse,
  type AuthorityEntry,
  type BasicSnapshot,
  type ContactEntry,
  type Crash,
  type CrashAggregate,
  type EquipmentSummary,
  type GeoPoints,
  type InspectedUnit,
  type Inspection,
  type InsuranceEntry,
  type ItemsPage,
  type NetworkEquipmentCarrier,
  type PreferredLane,
  type Profile,
  type ProfileAudit,
  type RadiusOfOperation,
  type RiskFactors,
  type Vehicle,
  type Violation,
} from './profile.ts';
export {
  LITE_PROFILE_FIELDS,
  LITE_SPEC,
  parseLiteProfile,
  parseLiteResponse,
  type LiteField,
  type LiteProfile,
} from './lite.ts';
export {
  FMCSA_PROFILE_FIELDS,
  FMCSA_SPEC,
  parseFmcsaProfile,
  type FmcsaField,
  type FmcsaProfile,
} from './fmcsa.ts';
export { AUTOCOMPLETE_SPEC, parseAutocomplete, type AutocompleteItem } from './autocomplete.ts';
export {
  parseChangeRecord,
  parseMonitoringList,
  parseMonitoringMutation,
  type ChangeRecord,
  type ChangeValue,
  type FailedProfile,
  type FieldChange,
  type MonitoredProfile,
  type MonitoringList,
  type MonitoringMutation,
} from './monitoring.ts';
export { UNKNOWN_ERROR, parseErrorBody, type ServiceError } from './errors.ts';
