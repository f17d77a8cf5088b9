/**
 * Policy settings: the defaults, reading a settings change from untrusted input (the Policy page's
 * PUT body, a stored version), and describing what changed between two versions.
 */
import { RULES, type RuleDef } from './rules.ts';
import {
  CARGO_CLASSES,
  HAZMAT_MODES,
  MAX_REVET_DAYS,
  RULE_IDS,
  type CargoClass,
  type PolicyOptions,
  type PolicySettings,
  type RuleId,
  type RuleSettings,
} from './types.ts';

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

/** A list of distinct known cargo classes, else an error message. */
function cargoList(id: RuleId, key: string, value: unknown): CargoClass[] | string {
  const message = `"${id}.${key}" must be a list of distinct cargo classes (${CARGO_CLASSES.join(', ')})`;
  if (!Array.isArray(value) || value.length > CARGO_CLASSES.length) return message;
  const known = CARGO_CLASSES as readonly unknown[];
  if (!value.every((item) => known.includes(item))) return message;
  if (new Set(value).size !== value.length) return message;
  // kept in the catalogue's order, so the same choice is the same setting
  return CARGO_CLASSES.filter((c) => value.includes(c));
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
          value > range.max ||
          (range.step === 1 && !Number.isInteger(value))
        ) {
          const whole = range.step === 1 ? 'a whole number' : 'a number';
          return `"${def.id}.threshold" must be ${whole} from ${range.min} to ${range.max} (${range.unit})`;
        }
        next.threshold = value;
        break;
      }
      case 'cargo_required':
      case 'cargo_refused': {
        if (!def.cargoLists) return `"${def.id}" has no cargo class lists`;
        const list = cargoList(def.id, key, value);
        if (typeof list === 'string') return list;
        next[key] = list;
        break;
      }
      case 'hazmat':
        if (!def.hazmatMode) return `"${def.id}" has no hazmat setting`;
        if (typeof value !== 'string' || !(HAZMAT_MODES as readonly string[]).includes(value)) {
          return `"${def.id}.hazmat" must be one of ${HAZMAT_MODES.join(', ')}`;
        }
        next.hazmat = value as RuleSettings['hazmat'];
        break;
      default:
        return `Unknown setting "${def.id}.${key.slice(0, 40)}"`;
    }
  }
  const both = (next.cargo_required ?? []).filter((c) => next.cargo_refused?.includes(c));
  if (both.length > 0) {
    return `"${def.id}": ${both.join(', ')} cannot be both required and refused`;
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

const SETTING_KEYS = [
  'enabled',
  'outcome',
  'no_data',
  'threshold',
  'cargo_required',
  'cargo_refused',
  'hazmat',
] as const satisfies readonly (keyof RuleSettings)[];

const SETTING_NAMES: Partial<Record<keyof RuleSettings, string>> = {
  no_data: 'when not enough data',
  cargo_required: 'required cargo',
  cargo_refused: 'refused cargo',
};

function describeValue(
  def: RuleDef,
  key: keyof RuleSettings,
  value: RuleSettings[keyof RuleSettings],
): string {
  if (key === 'enabled') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  if (key === 'threshold' && typeof value === 'number' && def.threshold?.unit === 'USD') {
    return `$${value.toLocaleString('en-US')}`;
  }
  return String(value ?? '—');
}

function sameValue(a: RuleSettings[keyof RuleSettings], b: RuleSettings[keyof RuleSettings]) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return (a as unknown[] | undefined)?.join() === (b as unknown[] | undefined)?.join();
  }
  return a === b;
}

/** One line per changed setting: "New entrant: threshold 540 → 365". */
export function describeChanges(before: PolicySettings, after: PolicySettings): string[] {
  const lines: string[] = [];
  for (const rule of RULES) {
    const a = before[rule.id];
    const b = after[rule.id];
    for (const key of SETTING_KEYS) {
      if (!sameValue(a[key], b[key])) {
        const name = SETTING_NAMES[key] ?? key;
        lines.push(
          `${rule.label}: ${name} ${describeValue(rule, key, a[key])} → ${describeValue(rule, key, b[key])}`,
        );
      }
    }
  }
  return lines;
}

/** The options a policy has when none were set (and a version stored before options existed). */
export function defaultOptions(): PolicyOptions {
  return { max_revet_days: MAX_REVET_DAYS.default };
}

export type OptionsCheck =
  { ok: true; value: PolicyOptions } | { ok: false; code: string; error: string };

/** `change` (`{max_revet_days?}`) applied onto `current`; checked whole, nothing partial. */
export function applyOptionsChange(current: PolicyOptions, change: unknown): OptionsCheck {
  if (change === undefined) return { ok: true, value: { ...current } };
  if (!isRecord(change)) {
    return { ok: false, code: 'invalid_options', error: '"options" must be an object' };
  }
  const next: PolicyOptions = { ...current };
  for (const [key, value] of Object.entries(change)) {
    if (key !== 'max_revet_days') {
      return { ok: false, code: 'invalid_options', error: `Unknown option "${key.slice(0, 40)}"` };
    }
    if (
      typeof value !== 'number' ||
      !Number.isInteger(value) ||
      value < MAX_REVET_DAYS.min ||
      value > MAX_REVET_DAYS.max
    ) {
      return {
        ok: false,
        code: 'invalid_options',
        error: `"options.max_revet_days" must be a whole number of days from ${MAX_REVET_DAYS.min} to ${MAX_REVET_DAYS.max}`,
      };
    }
    next.max_revet_days = value;
  }
  return { ok: true, value: next };
}

/** Stored options read back: what is missing or not allowed reads as the default. */
export function readStoredOptions(stored: unknown): PolicyOptions {
  const defaults = defaultOptions();
  if (!isRecord(stored)) return defaults;
  const value = stored.max_revet_days;
  const checked = applyOptionsChange(defaults, { max_revet_days: value });
  return checked.ok ? checked.value : defaults;
}

/** One line per changed option: "Longest re-vet period: 365 → 180 days". */
export function describeOptionChanges(before: PolicyOptions, after: PolicyOptions): string[] {
  return before.max_revet_days === after.max_revet_days
    ? []
    : [`Longest re-vet period: ${before.max_revet_days} → ${after.max_revet_days} days`];
}
