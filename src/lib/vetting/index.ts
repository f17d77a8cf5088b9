/**
 * The vetting engine, shared by the SPA (verdict banner, Policy page) and the proxy
 * (`/api/local/verdict`, decision records): a policy of rules over the parsed `Profile`, and the
 * verdict it yields. Runtime-neutral: imports only `src/lib/service`. See docs/vetting.md.
 */
export { evaluate } from './evaluate.ts';
export {
  applySettingsChange,
  defaultSettings,
  describeChanges,
  readStoredSettings,
} from './policy.ts';
export { RULES, isBrokerOnly } from './rules.ts';
export { reevaluate } from './reevaluate.ts';
export {
  OUTCOMES,
  RULE_IDS,
  type Evidence,
  type Outcome,
  type Policy,
  type PolicySettings,
  type RuleId,
  type RuleResult,
  type RuleSettings,
  type VerdictResult,
} from './types.ts';
