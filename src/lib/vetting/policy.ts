/**
 * Policy settings: the defaults, reading a settings change from untrusted input (the Policy page's
 * PUT body, a stored version), and describing what changed between two versions.
 */
import { RULES, type RuleDef } from './rules.ts';
import { RULE_IDS, type PolicySettings, type RuleId, type RuleSettings } from './types.ts';

function ruleDef(id: RuleId): RuleDef {
  const def = RULES.find((rule) => rule.id === id);
  if (!def) throw new Error(`unknown rule ${id}`);
  return def;
}

/** The default policy's settings (version 1). */
export function defaultSettings(): PolicySettings {
  return Object.fromEntries(RULES.map((rule) => [rule.id, { ...rule.defaults }])) as PolicySettings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRuleId(value: string): value is RuleId {
  return (RULE_IDS as readonly string[]).includes(value);
}

export type SettingsCheck =
  { ok: true; value: PolicySettings } | { ok: false; code: string; error: string };

function bad(code: string, error: string): SettingsCheck {
  return { ok: false, code, error };
}

/** Apply one rule's changes onto its current settings; an error message when a value is not allowed. */
function applyRule(
  def: RuleDef,
  current: RuleSettings,
  change: Record<string, unknown>,
): RuleSettings | string {
  const next: RuleSettings = { ...current };
  for (const [key, value] of Object.entries(change)) {
    switch (key) {
      case 'enabled':
        if (typeof value !== 'boolean') return `"${def.id}.enabled" must be true or false`;
        next.enabled = value;
        break;
      case 'outcome':
        if (typeof value !== 'string' || !(def.outcomes as readonly string[]).includes(value)) {
          return `"${def.id}.outcome" must be one of ${def.outcomes.join(', ')}`;
        }
        next.outcome = value as RuleSettings['outcome'];
        break;
      case 'no_data':
        if (value !== 'pass' && value !== 'review') {
          return `"${def.id}.no_data" must be pass or review (lack of data is never a failure)`;
        }
        next.no_data = value;
        break;
      case 'threshold': {
        const range = def.threshold;
        if (!range) return `"${def.id}" has no threshold`;
        if (
          typeof value !== 'number' ||
          !Number.isFinite(value) ||
          value < range.min ||
          value > range.max
        ) {
          return `"${def.id}.threshold" must be a number from ${range.min} to ${range.max} (${range.unit})`;
        }
        next.threshold = value;
        break;
      }
      default:
        return `Unknown setting "${def.id}.${key.slice(0, 40)}"`;
    }
  }
  return next;
}

/**
 * `changes` (`{<rule id>: {enabled?, outcome?, no_data?, threshold?}}`) applied onto `current`.
 * Every rule and setting is checked; nothing partial is returned.
 */
export function applySettingsChange(current: PolicySettings, changes: unknown): SettingsCheck {
  if (!isRecord(changes)) return bad('invalid_rules', '"rules" must be an object keyed by rule id');
  const next: PolicySettings = { ...current };
  for (const [id, change] of Object.entries(changes)) {
    if (!isRuleId(id)) return bad('unknown_rule', `Unknown rule "${id.slice(0, 40)}"`);
    if (!isRecord(change)) return bad('invalid_rule', `"${id}" must be an object of settings`);
    const applied = applyRule(ruleDef(id), current[id], change);
    if (typeof applied === 'string') return bad('invalid_setting', applied);
    next[id] = applied;
  }
  return { ok: true, value: next };
}

/** Stored settings read back: unknown rules dropped, missing ones at their defaults. */
export function readStoredSettings(stored: unknown): PolicySettings {
  const defaults = defaultSettings();
  if (!isRecord(stored)) return defaults;
  const known = Object.fromEntries(Object.entries(stored).filter(([id]) => isRuleId(id)));
  const applied = applySettingsChange(defaults, known);
  return applied.ok ? applied.value : defaults;
}

function describeValue(key: keyof RuleSettings, value: RuleSettings[keyof RuleSettings]): string {
  if (key === 'enabled') return value ? 'on' : 'off';
  return String(value ?? '—');
}

/** One line per changed setting: "New entrant: threshold 540 → 365". */
export function describeChanges(before: PolicySettings, after: PolicySettings): string[] {
  const lines: string[] = [];
  for (const rule of RULES) {
    const a = before[rule.id];
    const b = after[rule.id];
    for (const key of ['enabled', 'outcome', 'no_data', 'threshold'] as const) {
      if (a[key] !== b[key]) {
        const name = key === 'no_data' ? 'when not enough data' : key;
        lines.push(
          `${rule.label}: ${name} ${describeValue(key, a[key])} → ${describeValue(key, b[key])}`,
        );
      }
    }
  }
  return lines;
}
