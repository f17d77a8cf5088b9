/**
 * The vetting engine, shared by the SPA (verdict banner, Policy page) and the proxy
 * (`/api/local/verdict`, decision records): a policy of rules over the parsed `Profile`, and the
 * verdict it yields. Runtime-neutral: imports only `src/lib/service`. See docs/vetting.md.
 */
export { evaluate } from './evaluate.ts';
export {
  applyOptionsChange,
  applySettingsChange,
  defaultOptions,
  defaultSettings,
  describeChanges,
  describeOptionChanges,
  readStoredOptions,
  readStoredSettings,
} from './policy.ts';
export { CARGO_CLASS_LABELS, HAZMAT_MODE_LABELS, RULES, isBrokerOnly } from './rules.ts';
export { reevaluate } from './reevaluate.ts';
export {
  CARGO_CLASSES,
  HAZMAT_MODES,
  MAX_REVET_DAYS,
  OUTCOMES,
  RULE_IDS,
  type CargoClass,
  type Evidence,
  type Outcome,
  type Policy,
  type PolicyOptions,
  type PolicySettings,
  type RuleId,
  type RuleResult,
  type RuleSettings,
  type VerdictResult,
} from './types.ts';
