import { addDays, isoDay } from './dates.ts';
import type { FieldChange } from './store.ts';

/**
 * The scripted regulator events. Each watched carrier gets one event every EVENT_EVERY_DAYS sandbox
 * days; which one is fixed by the day number and the DOT, so the script is deterministic and every
 * kind comes round once per cycle of EVENT_EVERY_DAYS * EVENT_KINDS.length days.
 */

/** What an event sees: the carrier's current values (generated profile plus earlier events). */
export interface EventInput {
  dot: string;
  /** day number (days since 1970-01-01 UTC) */
  day: number;
  /** the cycle number of this carrier, for events that alternate (e.g. fleet up, then down) */
  cycle: number;
  date: Date;
  read(field: string): unknown;
}

/** What an event did: recorded changes, unrecorded side effects, history items added. */
export interface EventOutcome {
  kind: string;
  changes: FieldChange[];
  /** fields moved for coherence that belong to no channel (change counters) */
  effects: Map<string, unknown>;
  /** items to put in front of history arrays */
  added: Map<string, Record<string, unknown>[]>;
}

interface EventKind {
  name: string;
  /** Fill the outcome; return false when the event does not apply to this carrier. */
  apply(input: EventInput, out: OutcomeBuilder): boolean;
}

const num = (value: unknown): number => {
  const parsed = Number(typeof value === 'number' ? value : String(value ?? ''));
  return Number.isFinite(parsed) ? parsed : 0;
};
const plusOne = (value: unknown): string => String(num(value) + 1);
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Collects one event's changes; a set() to the value already there records nothing. */
class OutcomeBuilder {
  private readonly input: EventInput;
  readonly changes: FieldChange[] = [];
  readonly effects = new Map<string, unknown>();
  readonly added = new Map<string, Record<string, unknown>[]>();

  constructor(input: EventInput) {
    this.input = input;
  }

  set(field: string, current: unknown): void {
    const prior = this.input.read(field) ?? null;
    if (JSON.stringify(prior) === JSON.stringify(current)) return;
    this.changes.push({ field, prior, current });
  }

  effect(field: string, value: unknown): void {
    this.effects.set(field, value);
  }

  add(field: string, item: Record<string, unknown>): void {
    this.added.set(field, [item, ...(this.added.get(field) ?? [])]);
  }
}

const INSURERS = [
  'SANDBOX MUTUAL CASUALTY CO',
  'PRAIRIE STATE INSURANCE CO',
  'GULF COAST INDEMNITY',
];

function insurance(input: EventInput, out: OutcomeBuilder): boolean {
  const insured = input.read('indicator_insurance');
  if (insured !== true && insured !== false) return false;
  const today = isoDay(input.date);
  const carrier = INSURERS[input.cycle % INSURERS.length] ?? 'SANDBOX MUTUAL CASUALTY CO';
  const item = {
    _id: `sbx-ins-${input.dot}-${input.day}`,
    insurance_form_code: '91X',
    insurance_type_code: 'BIPD',
    insurance_carrier: carrier,
    policy_number: `SBX-${input.dot}-${input.day}`,
  };
  if (insured === false) {
    const required = num(input.read('insurance_bipd_required'));
    out.set('indicator_insurance', true);
    out.set('insurance_bipd_on_file', String(required > 0 ? required : 750_000));
    out.add('insurance_history', { ...item, insurance_status: 'A', effective_date: today });
  } else if (!input.read('insurance_pending_cancel_date')) {
    out.set('insurance_pending_cancel_date', isoDay(addDays(input.date, 30)));
  } else {
    out.set('indicator_insurance', false);
    out.set('insurance_bipd_on_file', '0');
    out.set('insurance_cancel_count', plusOne(input.read('insurance_cancel_count')));
    out.set('insurance_last_canceled', today);
    out.set('insurance_pending_cancel_date', null);
    out.add('insurance_history', {
      ...item,
      insurance_status: 'H',
      effective_date: isoDay(addDays(input.date, -365)),
      cancel_method: 'CANCELLATION NOTICE',
      cancel_effective_date: today,
    });
  }
  return true;
}

const AUTHORITY_TYPES = ['common', 'contract', 'broker'];

function authority(input: EventInput, out: OutcomeBuilder): boolean {
  const type = AUTHORITY_TYPES.find((t) =>
    ['Active', 'Inactive'].includes(String(input.read(`authority_${t}`))),
  );
  if (type === undefined) return false;
  const today = isoDay(input.date);
  const revoke = input.read(`authority_${type}`) === 'Active';
  out.set(`authority_${type}`, revoke ? 'Inactive' : 'Active');
  out.set('indicator_authority', !revoke);
  if (revoke) {
    out.set('total_revocations', plusOne(input.read('total_revocations')));
    out.set('last_revocation_date', today);
    out.set(`authority_${type}_last_revocation_date`, today);
  }
  out.add('authority_history', {
    _id: `sbx-auth-${input.dot}-${input.day}`,
    authority_type_desc: type.toUpperCase(),
    original_action_desc: revoke ? 'INVOLUNTARY REVOCATION' : 'REINSTATED',
    original_served_date: today,
  });
  return true;
}

const NEXT_RATING: Record<string, string> = {
  Satisfactory: 'Conditional',
  Conditional: 'Satisfactory',
  Unsatisfactory: 'Conditional',
};

function safetyRating(input: EventInput, out: OutcomeBuilder): boolean {
  const today = isoDay(input.date);
  out.set(
    'safety_rating_desc',
    NEXT_RATING[String(input.read('safety_rating_desc'))] ?? 'Satisfactory',
  );
  out.set('safety_rating_date', today);
  out.set('latest_review_type_desc', 'Compliance Review');
  out.set('latest_review_date', today);
  return true;
}

function basicAlert(input: EventInput, out: OutcomeBuilder): boolean {
  const threshold = num(input.read('intervention_threshold_unsafe_driving')) || 0.65;
  const alerting = input.read('basic_alert_unsafe_driving') === true;
  out.set('basic_alert_unsafe_driving', !alerting);
  out.set(
    'basic_percentile_unsafe_driving',
    round2(alerting ? threshold - 0.12 : threshold + 0.08),
  );
  if (!alerting && input.read('indicator_carrier_safety') === true) {
    out.set('indicator_carrier_safety', false);
  }
  return true;
}

function newCrash(input: EventInput, out: OutcomeBuilder): boolean {
  const today = isoDay(input.date);
  const injuries = input.cycle % 2;
  out.set('crashes_total', plusOne(input.read('crashes_total')));
  out.set('crashes_tow_away', plusOne(input.read('crashes_tow_away')));
  if (injuries > 0) out.set('crash_injuries', plusOne(input.read('crash_injuries')));
  out.set('last_crash_date', today);
  out.add('crash_history', {
    _id: `sbx-crash-${input.dot}-${input.day}`,
    dot_number: input.dot,
    report_number: `SBX${input.dot}${input.day}`,
    report_date: today,
    report_state: String(input.read('physical_address_state') ?? 'TX'),
    fatalities: '0',
    injuries: String(injuries),
    tow_away: '1',
    federal_recordable: 'Y',
  });
  return true;
}

function powerUnits(input: EventInput, out: OutcomeBuilder): boolean {
  const delta = input.cycle % 2 === 0 ? 4 : -3;
  out.set('total_power_units', String(Math.max(1, num(input.read('total_power_units')) + delta)));
  out.set('total_drivers', String(Math.max(1, num(input.read('total_drivers')) + delta)));
  return true;
}

function mcs150Update(input: EventInput, out: OutcomeBuilder): boolean {
  out.set('mcs150_date', isoDay(input.date));
  out.set('mcs150_year', String(input.date.getUTCFullYear()));
  out.set('mcs150_mileage', String(num(input.read('mcs150_mileage')) + 25_000));
  return true;
}

/** Replace the last four digits of a phone number, keeping its formatting. */
export function rotatePhone(current: unknown, seed: number): string {
  const text =
    typeof current === 'string' && /\d(?:\D*\d){3}\D*$/.test(current) ? current : '5550100000';
  for (let shift = 0; ; shift += 1) {
    const digits = String((seed + shift) % 10_000).padStart(4, '0');
    const chars = [...text];
    let next = 3;
    for (let i = chars.length - 1; i >= 0 && next >= 0; i -= 1) {
      if (/\d/.test(chars[i] ?? '')) chars[i] = digits[next--] ?? '0';
    }
    const rotated = chars.join('');
    if (rotated !== current) return rotated;
  }
}

function countChange(input: EventInput, out: OutcomeBuilder, kind: string): void {
  out.effect(`${kind}_change_count`, plusOne(input.read(`${kind}_change_count`)));
  out.effect(`${kind}_last_changed`, isoDay(input.date));
}

function phone(input: EventInput, out: OutcomeBuilder): boolean {
  const current = input.read('telephone_number');
  out.set('telephone_number', rotatePhone(current, input.day * 7 + num(input.dot)));
  countChange(input, out, 'phone');
  return true;
}

const MAILBOXES = ['dispatch', 'safety', 'ops', 'billing'];

function email(input: EventInput, out: OutcomeBuilder): boolean {
  const current = input.read('email_address');
  const domain =
    (typeof input.read('email_domain') === 'string' && String(input.read('email_domain'))) ||
    (typeof current === 'string' && current.split('@')[1]) ||
    `carrier${input.dot}.example`;
  const mailbox = MAILBOXES[input.cycle % MAILBOXES.length] ?? 'dispatch';
  out.set('email_address', `${mailbox}${input.day % 1000}@${domain}`);
  countChange(input, out, 'email');
  return true;
}

const STREETS = ['INDUSTRIAL PKWY', 'COMMERCE DR', 'FREIGHT WAY', 'DEPOT RD', 'LOGISTICS BLVD'];

function address(input: EventInput, out: OutcomeBuilder): boolean {
  const street = `${100 + (input.day % 9000)} ${STREETS[input.cycle % STREETS.length] ?? 'DEPOT RD'}`;
  const oldStreet = input.read('physical_address_street');
  const combined = input.read('physical_address');
  out.set('physical_address_street', street);
  if (
    typeof combined === 'string' &&
    typeof oldStreet === 'string' &&
    combined.startsWith(oldStreet)
  ) {
    out.set('physical_address', street + combined.slice(oldStreet.length));
  }
  countChange(input, out, 'address');
  return true;
}

const NEXT_RISK: Record<string, [string, number]> = {
  Low: ['Medium', 0.38],
  Medium: ['High', 0.71],
  High: ['Low', 0.12],
  'Very High': ['High', 0.74],
};

function riskScore(input: EventInput, out: OutcomeBuilder): boolean {
  const next = NEXT_RISK[String(input.read('risk_score'))];
  if (!next) return false;
  out.set('risk_score', next[0]);
  out.set('risk_score_probability', round2(next[1] + (input.day % 5) / 100));
  return true;
}

const EVENT_KINDS: readonly EventKind[] = [
  { name: 'insurance', apply: insurance },
  { name: 'power_units', apply: powerUnits },
  { name: 'phone', apply: phone },
  { name: 'safety_rating', apply: safetyRating },
  { name: 'risk_score', apply: riskScore },
  { name: 'authority', apply: authority },
  { name: 'basic_alert', apply: basicAlert },
  { name: 'email', apply: email },
  { name: 'crash', apply: newCrash },
  { name: 'address', apply: address },
  { name: 'mcs150', apply: mcs150Update },
];

const EVENT_EVERY_DAYS = 2;
/** Days in which every carrier meets every kind of event once. */
export const EVENT_CYCLE_DAYS = EVENT_EVERY_DAYS * EVENT_KINDS.length;

function shifted(dot: string, day: number): number {
  return day + (Number(dot) % EVENT_CYCLE_DAYS);
}

/** The event the script holds for this carrier on this day, or undefined. */
function scheduledEvent(dot: string, day: number): EventKind | undefined {
  const position = shifted(dot, day);
  if (position % EVENT_EVERY_DAYS !== 0) return undefined;
  return EVENT_KINDS[(position / EVENT_EVERY_DAYS) % EVENT_KINDS.length];
}

/** Run the scheduled event of a carrier for one day; undefined when none is due or applies. */
export function runScheduledEvent(input: Omit<EventInput, 'cycle'>): EventOutcome | undefined {
  const kind = scheduledEvent(input.dot, input.day);
  if (!kind) return undefined;
  const full: EventInput = {
    ...input,
    cycle: Math.floor(shifted(input.dot, input.day) / EVENT_CYCLE_DAYS),
  };
  const out = new OutcomeBuilder(full);
  if (!kind.apply(full, out)) return undefined;
  return { kind: kind.name, changes: out.changes, effects: out.effects, added: out.added };
}
