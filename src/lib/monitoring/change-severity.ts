/**
 * How bad a monitoring change is, for reading the worst first (alert messages, docs/alerts.md):
 * authority lost, then out of service, then insurance lost or short, then safety (rating, BASIC
 * alerts, out-of-service rates, crashes and inspections), then contact details, then the rest.
 * The direction counts: authority coming back or insurance filed again is news, not an alarm, and
 * reads with the rest. Pure functions over a changed field and its prior and current values.
 */
import { fieldLabel } from '../field-labels.ts';
import { channelOfField } from '../service/channels.ts';
import type { PolicySettings } from '../vetting/index.ts';

/** Worst first; the rank is the position in this list. */
const SEVERITY_TIERS = [
  'authority',
  'out_of_service',
  'insurance',
  'safety',
  'contact',
  'other',
] as const;
type SeverityTier = (typeof SEVERITY_TIERS)[number];

export interface ChangeLike {
  field: string;
  prior: unknown;
  current: unknown;
}

/** What the team's policy asks of a carrier's insurance, in USD (enabled rules only). */
export interface SeverityContext {
  minimums?: Partial<Record<'bipd' | 'cargo' | 'bond', number>>;
}

const MINIMUM_RULES = {
  bipd: 'bipd_minimum',
  cargo: 'cargo_insurance',
  bond: 'surety_bond',
} as const;

/** The insurance minimums of a policy's enabled rules (none for a policy without those rules). */
export function severityContext(settings: PolicySettings | undefined): SeverityContext {
  const minimums: NonNullable<SeverityContext['minimums']> = {};
  for (const [cover, rule] of Object.entries(MINIMUM_RULES) as [
    keyof typeof MINIMUM_RULES,
    string,
  ][]) {
    const setting = (
      settings as Record<string, { enabled?: boolean; threshold?: number }> | undefined
    )?.[rule];
    if (setting?.enabled && typeof setting.threshold === 'number')
      minimums[cover] = setting.threshold;
  }
  return { minimums };
}

export interface ChangeSeverity {
  tier: SeverityTier;
  /** ordering inside the tier (lower first): e.g. a rating before a crash count */
  sub: number;
  /** what happened, in a few words: "Authority revoked", "Insurance cancelled" */
  headline: string;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

function number(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return undefined;
}

/** true / false from a flag as the service writes it (boolean, "Y"/"N", "true"/"false"). */
function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const t = text(value);
  if (t === 'y' || t === 'yes' || t === 'true') return true;
  if (t === 'n' || t === 'no' || t === 'false') return false;
  return undefined;
}

function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

function increased(change: ChangeLike): boolean {
  const prior = number(change.prior) ?? 0;
  const current = number(change.current);
  return current !== undefined && current > prior;
}

function decreased(change: ChangeLike): boolean {
  const prior = number(change.prior);
  const current = number(change.current);
  return prior !== undefined && current !== undefined && current < prior;
}

const AUTHORITY_STATUS = /^authority_(common|contract|broker)$/;
const AUTHORITY_REVOCATION = /^authority_(common|contract|broker)_last_revocation_date$/;
const INACTIVE = /inactive|revoked|suspended|none|^n$/;
const AUTHORITY_NAMES: Record<string, string> = {
  common: 'Common authority',
  contract: 'Contract authority',
  broker: 'Broker authority',
};

function authorityLost(change: ChangeLike): string | undefined {
  const { field } = change;
  const status = AUTHORITY_STATUS.exec(field);
  if (status?.[1]) {
    const current = text(change.current);
    if (current !== '' && INACTIVE.test(current)) {
      return `${AUTHORITY_NAMES[status[1]] ?? 'Authority'} ${current === 'revoked' ? 'revoked' : 'inactive'}`;
    }
    return undefined;
  }
  if (field === 'indicator_authority' && flag(change.current) === false) return 'Authority revoked';
  if (
    (field === 'last_revocation_date' || AUTHORITY_REVOCATION.test(field)) &&
    present(change.current)
  ) {
    return 'Authority revoked';
  }
  if (field === 'total_revocations' && increased(change)) return 'Authority revoked';
  if (field === 'usdot_status') {
    const current = text(change.current);
    if (current !== '' && current !== 'active' && !current.includes('out')) {
      return 'USDOT status inactive';
    }
  }
  return undefined;
}

function outOfService(change: ChangeLike): string | undefined {
  if (change.field === 'out_of_service_flag' && flag(change.current) === true) {
    return 'Out of service';
  }
  if (change.field === 'usdot_status' && text(change.current).includes('out')) {
    return 'Out of service';
  }
  if (change.field === 'out_of_service_date' && present(change.current)) return 'Out of service';
  return undefined;
}

const ON_FILE = /^insurance_(bipd|cargo|bond)_on_file$/;
const COVER_NAMES: Record<string, string> = { bipd: 'Liability', cargo: 'Cargo', bond: 'Bond' };

function insuranceLost(change: ChangeLike, context: SeverityContext): string | undefined {
  const { field } = change;
  if (field === 'indicator_insurance' && flag(change.current) === false) {
    return 'Insurance cancelled';
  }
  if (field === 'insurance_last_canceled' && present(change.current)) return 'Insurance cancelled';
  if (field === 'insurance_cancel_count' && increased(change)) return 'Insurance cancelled';
  if (field === 'insurance_pending_cancel_date' && present(change.current)) {
    return 'Insurance cancellation pending';
  }
  const cover = ON_FILE.exec(field);
  const minimum = cover?.[1]
    ? context.minimums?.[cover[1] as 'bipd' | 'cargo' | 'bond']
    : undefined;
  const current = number(change.current);
  if (cover?.[1] && minimum !== undefined && current !== undefined && current < minimum) {
    return `${COVER_NAMES[cover[1]] ?? 'Insurance'} insurance below the policy minimum`;
  }
  if (cover?.[1] && decreased(change)) {
    const name = COVER_NAMES[cover[1]] ?? 'Insurance';
    return number(change.current) === 0
      ? `${name} insurance cancelled`
      : `${name} insurance reduced`;
  }
  if (/^insurance_(bipd|cargo|bond)_required$/.test(field) && increased(change)) {
    return 'Insurance requirement raised';
  }
  return undefined;
}

/** Safety changes: rating first, then BASIC alerts, out-of-service rates, then the rest. */
function safety(change: ChangeLike): { sub: number; headline: string } | undefined {
  const { field } = change;
  if (field === 'safety_rating_desc') {
    const current = text(change.current);
    const rating = typeof change.current === 'string' ? change.current.trim() : '';
    if (current.startsWith('unsat')) return { sub: 0, headline: 'Safety rating Unsatisfactory' };
    if (current.startsWith('cond')) return { sub: 1, headline: 'Safety rating Conditional' };
    return { sub: 2, headline: rating ? `Safety rating ${rating}` : 'Safety rating changed' };
  }
  if (field.startsWith('basic_alert_') || field.startsWith('oos_alert_')) {
    return flag(change.current) === true
      ? { sub: 3, headline: fieldLabel(field) }
      : { sub: 9, headline: `${fieldLabel(field)} cleared` };
  }
  if (field === 'indicator_carrier_safety' && flag(change.current) === false) {
    return { sub: 4, headline: 'Safety indicator raised' };
  }
  if (/out_of_service_pct$|^natl_avg_oos_|^violations_oos_/.test(field)) {
    return { sub: 5, headline: `${fieldLabel(field)} changed` };
  }
  if (field.startsWith('crash')) {
    return increased(change)
      ? { sub: 6, headline: 'Crash reported' }
      : { sub: 8, headline: `${fieldLabel(field)} changed` };
  }
  if (channelOfField(field) === 'safety')
    return { sub: 7, headline: `${fieldLabel(field)} changed` };
  return undefined;
}

const CONTACT_HEADLINES: Record<string, string> = {
  telephone_number: 'Phone changed',
  cellphone_number: 'Phone changed',
  email_address: 'E-mail changed',
  physical_address: 'Address changed',
  physical_address_street: 'Address changed',
  legal_name: 'Legal name changed',
  dba_name: 'DBA name changed',
};

/** The tier, order within it and headline of one change. */
export function changeSeverity(change: ChangeLike, context: SeverityContext = {}): ChangeSeverity {
  const authority = authorityLost(change);
  if (authority) return { tier: 'authority', sub: 0, headline: authority };
  const oos = outOfService(change);
  if (oos) return { tier: 'out_of_service', sub: 0, headline: oos };
  const insurance = insuranceLost(change, context);
  if (insurance) {
    const sub = insurance.includes('pending') || insurance.includes('requirement') ? 1 : 0;
    return { tier: 'insurance', sub, headline: insurance };
  }
  const hit = safety(change);
  if (hit) return { tier: 'safety', ...hit };
  const channel = channelOfField(change.field);
  if (channel === 'contact') {
    return {
      tier: 'contact',
      sub: 0,
      headline: CONTACT_HEADLINES[change.field] ?? `${fieldLabel(change.field)} changed`,
    };
  }
  return { tier: 'other', sub: 0, headline: `${fieldLabel(change.field)} changed` };
}

/** Negative when `a` is worse than `b`. */
export function compareSeverity(a: ChangeSeverity, b: ChangeSeverity): number {
  return SEVERITY_TIERS.indexOf(a.tier) - SEVERITY_TIERS.indexOf(b.tier) || a.sub - b.sub;
}

/** The changes worst first; changes equally bad keep their order (stable). */
export function worstFirst<T extends ChangeLike>(
  changes: readonly T[],
  context: SeverityContext = {},
): T[] {
  return changes
    .map((change, index) => ({ change, index, severity: changeSeverity(change, context) }))
    .sort((a, b) => compareSeverity(a.severity, b.severity) || a.index - b.index)
    .map(({ change }) => change);
}

/** The worst change's severity, or undefined for none. */
export function worstSeverity(
  changes: readonly ChangeLike[],
  context: SeverityContext = {},
): ChangeSeverity | undefined {
  const [worst] = worstFirst(changes, context);
  return worst ? changeSeverity(worst, context) : undefined;
}
