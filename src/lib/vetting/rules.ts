/**
 * The rules of the vetting policy. Each reads the normalised `Profile` (never the wire shape) and
 * answers whether it fires, with the evidence it read. Lack of data is reported as such (the
 * policy's `no_data` outcome, at most review), never as a failure; carriers a rule does not concern
 * (intrastate, broker only) pass it as "not applicable".
 */
import {
  BASIC_CATEGORIES,
  BASIC_LABELS,
  SERVICE_COMPUTED_BASICS,
  interventionThreshold,
  type BasicCategory,
  type CarrierClass,
  type Profile,
} from '../service/index.ts';
import {
  CARGO_CLASSES,
  type CargoClass,
  type Evidence,
  type EvidenceTab,
  type EvidenceValue,
  type HazmatMode,
  type HitOutcome,
  type NoDataOutcome,
  type RuleId,
  type RuleSettings,
} from './types.ts';

/** National average out-of-service rates seen in live data, used when the profile has none. */
const NATIONAL_OOS = { vehicle: 0.2226, driver: 0.0667 } as const;
const MS_PER_DAY = 86_400_000;

interface RuleContext {
  profile: Profile;
  /** YYYY-MM-DD that ages and "changed N days ago" are counted from */
  reference: string;
}

/** What a rule found, before the policy turns it into an outcome. */
export type Finding =
  | { kind: 'pass'; message: string; fields: Evidence[]; anchor?: string; vendor?: boolean }
  | { kind: 'hit'; message: string; fields: Evidence[]; anchor?: string; vendor?: boolean }
  | { kind: 'no-data'; message: string; fields: Evidence[]; anchor?: string }
  | { kind: 'not-applicable'; message: string; fields: Evidence[]; anchor?: string };

interface Threshold {
  label: string;
  unit:
    | 'days'
    | 'percentage points'
    | 'USD'
    | 'months'
    | 'power units'
    | 'crashes'
    | 'fatal crashes'
    | 'times the national average';
  min: number;
  max: number;
  /** the smallest change (1: whole numbers only) */
  step: number;
}

/** The cargo classes with the profile page's labels (fleet tab, "Cargo carried"). */
export const CARGO_CLASS_LABELS: Record<CargoClass, string> = {
  general_freight: 'General freight',
  household: 'Household goods',
  metal_sheet_coils_rolls: 'Metal: sheets, coils, rolls',
  motor_vehicles: 'Motor vehicles',
  driveaway_towaway: 'Drive-away / tow-away',
  logs_poles_beams_lumber: 'Logs, poles, beams, lumber',
  building_materials: 'Building materials',
  mobile_homes: 'Mobile homes',
  machinery_large_objects: 'Machinery, large objects',
  fresh_produce: 'Fresh produce',
  liquids_gases: 'Liquids / gases',
  intermodal_containers: 'Intermodal containers',
  passengers: 'Passengers',
  oilfield_equipment: 'Oilfield equipment',
  livestock: 'Livestock',
  grain_feed_hay: 'Grain, feed, hay',
  coal_coke: 'Coal / coke',
  meat: 'Meat',
  garbage_refuse_trash: 'Garbage, refuse, trash',
  chemicals: 'Chemicals',
  us_mail: 'U.S. mail',
  dry_bulk_commodities: 'Dry bulk commodities',
  refrigerated_foods: 'Refrigerated food',
  beverages: 'Beverages',
  paper_products: 'Paper products',
  utility: 'Utilities',
  farm_supplies: 'Farm supplies',
  construction: 'Construction',
  water_well: 'Water well',
  other_cargo: 'Other',
};

export const HAZMAT_MODE_LABELS: Record<HazmatMode, string> = {
  required: 'Required (must haul them)',
  refused: 'Refused (must not haul them)',
};

export interface RuleDef {
  id: RuleId;
  label: string;
  /** what the rule checks, for the Policy page and docs */
  description: string;
  tab: EvidenceTab;
  defaults: RuleSettings;
  /** outcomes a team may choose when the rule fires */
  outcomes: readonly HitOutcome[];
  threshold?: Threshold;
  /** the rule has the cargo class lists `cargo_required` and `cargo_refused` */
  cargoLists?: true;
  /** the rule has the `hazmat` setting */
  hazmatMode?: true;
  check(ctx: RuleContext, settings: RuleSettings): Finding;
}

function ev(name: string, value: EvidenceValue | undefined): Evidence {
  return { name, value: value === undefined ? null : value };
}

function lower(value: string | undefined): string {
  return (value ?? '').trim().toLowerCase();
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); undefined when either is not a date. */
function daysBetween(from: string, to: string): number | undefined {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return Math.round((b - a) / MS_PER_DAY);
}

function isInterstate(profile: Profile): boolean {
  return lower(profile.carrier_operation_desc).startsWith('inter');
}

function isIntrastate(profile: Profile): boolean {
  return lower(profile.carrier_operation_desc).startsWith('intra');
}

function entityTypes(profile: Profile): string[] {
  return lower(profile.entity_type_desc)
    .split(/[,;/]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

function isCarrier(profile: Profile): boolean {
  const types = entityTypes(profile);
  return types.length === 0 || types.includes('carrier');
}

/** A broker (or freight forwarder) that is not a motor carrier: it may arrange loads, not haul them. */
export function isBrokerOnly(profile: Profile): boolean {
  const types = entityTypes(profile);
  return types.length > 0 && !types.includes('carrier') && types.includes('broker');
}

function isForHireInterstate(profile: Profile): boolean {
  return (
    isCarrier(profile) &&
    isInterstate(profile) &&
    profile.operation_class_authorized_for_hire === true
  );
}

function isActive(status: string | undefined): boolean {
  return lower(status) === 'active';
}

function pct(rate: number): string {
  return `${(Math.round(rate * 1000) / 10).toString()}%`;
}

function money(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}

const pass = (message: string, fields: Evidence[], anchor?: string): Finding => ({
  kind: 'pass',
  message,
  fields,
  ...(anchor ? { anchor } : {}),
});
const hit = (message: string, fields: Evidence[], anchor?: string, vendor = false): Finding => ({
  kind: 'hit',
  message,
  fields,
  ...(anchor ? { anchor } : {}),
  ...(vendor ? { vendor } : {}),
});
const noData = (message: string, fields: Evidence[], anchor?: string): Finding => ({
  kind: 'no-data',
  message: `Not enough data: ${message}`,
  fields,
  ...(anchor ? { anchor } : {}),
});
const notApplicable = (message: string, fields: Evidence[], anchor?: string): Finding => ({
  kind: 'not-applicable',
  message,
  fields,
  ...(anchor ? { anchor } : {}),
});

function settings(
  outcome: HitOutcome,
  noDataOutcome: NoDataOutcome,
  threshold?: number,
  enabled = true,
): RuleSettings {
  return {
    enabled,
    outcome,
    no_data: noDataOutcome,
    ...(threshold !== undefined ? { threshold } : {}),
  };
}

const usdotStatus: RuleDef = {
  id: 'usdot_status',
  label: 'USDOT status',
  description: 'The USDOT number is not Active, or the carrier is ordered out of service.',
  tab: 'overview',
  defaults: settings('fail', 'review'),
  outcomes: ['fail', 'review'],
  check({ profile }) {
    // the header's status badges (USDOT status, out of service), on every tab
    const anchor = 'profile-status';
    const fields = [
      ev('usdot_status', profile.usdot_status),
      ev('out_of_service_flag', profile.out_of_service_flag),
    ];
    if (profile.out_of_service_flag === true) {
      const since = profile.out_of_service_date ? ` since ${profile.out_of_service_date}` : '';
      return hit(`The carrier is ordered out of service${since}.`, fields, anchor);
    }
    if (profile.usdot_status === undefined)
      return noData('the USDOT status is not in the profile.', fields, anchor);
    if (!isActive(profile.usdot_status))
      return hit(`The USDOT status is ${profile.usdot_status}, not Active.`, fields, anchor);
    return pass('USDOT status Active and not out of service.', fields, anchor);
  },
};

const AUTHORITY_LABEL = { common: 'common', contract: 'contract', broker: 'broker' } as const;

const operatingAuthority: RuleDef = {
  id: 'operating_authority',
  label: 'Operating authority',
  description:
    'An interstate for-hire carrier has neither common nor contract authority Active (a broker: no Active broker authority). Intrastate and private carriers need none; an absent indicator_authority is not a failure.',
  tab: 'authority',
  defaults: settings('fail', 'review'),
  outcomes: ['fail', 'review'],
  check({ profile }) {
    const broker = isBrokerOnly(profile);
    const types = broker ? (['broker'] as const) : (['common', 'contract'] as const);
    const fields = [
      ev('carrier_operation_desc', profile.carrier_operation_desc),
      ev('operation_class_authorized_for_hire', profile.operation_class_authorized_for_hire),
      ...types.map((t) => ev(`authority_${t}`, profile[`authority_${t}`])),
      ev('indicator_authority', profile.indicator_authority),
    ];
    const anchor = 'authority-status';
    if (!broker && !isForHireInterstate(profile)) {
      const why = isIntrastate(profile)
        ? 'an intrastate carrier'
        : profile.operation_class_authorized_for_hire === true
          ? 'not an interstate carrier'
          : 'not authorised for hire';
      return notApplicable(`No operating authority is required: ${why}.`, fields, anchor);
    }
    const statuses = types.map((t) => profile[`authority_${t}`]);
    const active = types.filter((t) => isActive(profile[`authority_${t}`]));
    if (active.length > 0) {
      return pass(
        `${listWords(active.map((t) => AUTHORITY_LABEL[t]))} authority Active.`,
        fields,
        anchor,
      );
    }
    if (statuses.every((s) => s === undefined)) {
      if (profile.indicator_authority === false) {
        return hit(
          'The service says the carrier lacks the authority it needs (indicator_authority false).',
          fields,
          anchor,
        );
      }
      if (profile.indicator_authority === true)
        return pass('The service says the required authority is held.', fields, anchor);
      return noData('the profile states no authority status.', fields, anchor);
    }
    const seen = types.map(
      (t) => `${AUTHORITY_LABEL[t]} ${profile[`authority_${t}`] ?? 'unknown'}`,
    );
    const what = broker
      ? 'A broker without Active broker authority'
      : 'An interstate for-hire carrier without Active common or contract authority';
    return hit(`${what} (${seen.join(', ')}).`, fields, anchor);
  },
};

const bipdInsurance: RuleDef = {
  id: 'bipd_insurance',
  label: 'Liability insurance (BIPD)',
  description: 'The BIPD liability insurance on file is below the amount required.',
  tab: 'authority',
  defaults: settings('fail', 'review'),
  outcomes: ['fail', 'review'],
  check({ profile }) {
    const onFile = profile.insurance_bipd_on_file;
    const required = profile.insurance_bipd_required;
    const fields = [
      ev('insurance_bipd_on_file', onFile),
      ev('insurance_bipd_required', required),
      ev('indicator_insurance', profile.indicator_insurance),
    ];
    const anchor = 'authority-insurance';
    if (isIntrastate(profile) && (required === undefined || required <= 0)) {
      return notApplicable(
        'An intrastate carrier: no federal BIPD filing is required.',
        fields,
        anchor,
      );
    }
    if (required === undefined || required <= 0) {
      return notApplicable('No BIPD insurance is required.', fields, anchor);
    }
    if (onFile === undefined) {
      if (profile.indicator_insurance === false) {
        return hit(`No BIPD insurance on file; ${money(required)} required.`, fields, anchor);
      }
      return noData(
        `the profile does not say how much BIPD insurance is on file (${money(required)} required).`,
        fields,
        anchor,
      );
    }
    if (onFile < required) {
      return hit(
        `BIPD on file ${money(onFile)} is below the ${money(required)} required.`,
        fields,
        anchor,
      );
    }
    return pass(
      `BIPD on file ${money(onFile)} meets the ${money(required)} required.`,
      fields,
      anchor,
    );
  },
};

const pendingCancellation: RuleDef = {
  id: 'pending_cancellation',
  label: 'Pending insurance cancellation',
  description:
    'An insurance policy on file has a cancellation that takes effect after the snapshot.',
  tab: 'authority',
  defaults: settings('review', 'pass'),
  outcomes: ['review', 'fail'],
  check({ profile, reference }) {
    const pending = (profile.insurance_history ?? []).filter(
      (entry) =>
        entry.cancel_effective_date !== undefined && entry.cancel_effective_date > reference,
    );
    const date = profile.insurance_pending_cancel_date;
    const flag = profile.risk_factors?.pending_insurance_cancellation;
    const fields = [
      ev('insurance_pending_cancel_date', date),
      ...pending.map((entry) =>
        ev(
          `insurance_history.${entry.insurance_type_code ?? 'policy'}${entry.policy_number ? ` ${entry.policy_number}` : ''}.cancel_effective_date`,
          entry.cancel_effective_date,
        ),
      ),
      ev('risk_factors.pending_insurance_cancellation', flag),
    ];
    const anchor = 'authority-insurance';
    const futureDate = date !== undefined && date > reference;
    if (pending.length > 0 || futureDate) {
      const first = pending[0];
      const when = first?.cancel_effective_date ?? date;
      const which = first?.insurance_type_code ? `${first.insurance_type_code} ` : '';
      return hit(
        `A ${which}insurance cancellation takes effect on ${when ?? 'a later date'}.`,
        fields,
        anchor,
      );
    }
    if (flag === true) {
      return hit(
        'The service flags a pending insurance cancellation (computed by the service).',
        fields,
        anchor,
        true,
      );
    }
    return pass('No pending insurance cancellation.', fields, anchor);
  },
};

function ratingRule(id: 'rating_unsatisfactory' | 'rating_conditional'): RuleDef {
  const word = id === 'rating_unsatisfactory' ? 'Unsatisfactory' : 'Conditional';
  return {
    id,
    label: `Safety rating ${word}`,
    description: `FMCSA's safety rating is ${word}. No rating (Not Rated) is not enough data, never a failure.`,
    tab: 'safety',
    defaults:
      id === 'rating_unsatisfactory' ? settings('fail', 'pass') : settings('review', 'pass'),
    outcomes: ['fail', 'review'],
    check({ profile }) {
      const rating = profile.safety_rating_desc;
      const fields = [
        ev('safety_rating_desc', rating),
        ev('safety_rating_date', profile.safety_rating_date),
      ];
      if (rating === undefined || lower(rating) === 'not rated' || lower(rating) === 'none') {
        return noData(
          'the carrier has no FMCSA safety rating (Not Rated).',
          fields,
          'safety-rating',
        );
      }
      if (lower(rating) === word.toLowerCase())
        return hit(`FMCSA safety rating ${rating}.`, fields, 'safety-rating');
      return pass(`FMCSA safety rating ${rating}.`, fields, 'safety-rating');
    },
  };
}

function carrierClass(profile: Profile): CarrierClass {
  if (profile.passenger === true || profile.operation_class_private_pass_business === true)
    return 'passenger';
  if (profile.hazardous_material === true || profile.phmsa_flag === true) return 'hazmat';
  return 'general';
}

const basicAlerts: RuleDef = {
  id: 'basic_alerts',
  label: 'BASIC alerts',
  description:
    'A BASIC is in alert: flagged by the service, or its percentile at or above the intervention threshold (the profile’s own, else FMCSA’s default for the carrier type). Crash Indicator and Hazardous Materials percentiles are computed by the service.',
  tab: 'safety',
  defaults: settings('review', 'pass'),
  outcomes: ['review', 'fail'],
  check({ profile }) {
    const anchor = 'safety-basics';
    if (isBrokerOnly(profile)) return notApplicable('A broker: BASICs do not apply.', [], anchor);
    const cls = carrierClass(profile);
    const alerts: BasicCategory[] = [];
    const fields: Evidence[] = [];
    let percentiles = 0;
    for (const basic of BASIC_CATEGORIES) {
      const percentile = profile[`basic_percentile_${basic}`];
      const flag = profile[`basic_alert_${basic}`];
      const threshold =
        profile[`intervention_threshold_${basic}`] ?? interventionThreshold(cls, basic);
      if (percentile !== undefined) percentiles += 1;
      const over = flag === true || (percentile !== undefined && percentile >= threshold);
      if (over) {
        alerts.push(basic);
        fields.push(
          ev(`basic_percentile_${basic}`, percentile),
          ev(`intervention_threshold_${basic}`, threshold),
          ev(`basic_alert_${basic}`, flag),
        );
      }
    }
    if (alerts.length > 0) {
      const vendor = alerts.some((basic) => SERVICE_COMPUTED_BASICS.includes(basic));
      const names = alerts.map((basic) => {
        const percentile = profile[`basic_percentile_${basic}`];
        const computed = SERVICE_COMPUTED_BASICS.includes(basic) ? ', computed by the service' : '';
        return `${BASIC_LABELS[basic]}${percentile !== undefined ? ` ${pct(percentile)}` : ''}${computed}`;
      });
      return hit(
        `BASIC alert${alerts.length > 1 ? 's' : ''}: ${names.join('; ')}.`,
        fields,
        anchor,
        vendor,
      );
    }
    if (percentiles === 0) {
      return noData('no BASIC percentile is published (data sufficiency not met).', [], anchor);
    }
    return pass(
      `No BASIC in alert (${percentiles} percentile${percentiles > 1 ? 's' : ''} published).`,
      [],
      anchor,
    );
  },
};

const oosRates: RuleDef = {
  id: 'oos_rates',
  label: 'Out-of-service rates',
  description:
    'The vehicle or driver out-of-service rate is above the national average by more than the margin. No inspections is not enough data.',
  tab: 'safety',
  defaults: settings('review', 'review', 5),
  outcomes: ['review', 'fail'],
  threshold: {
    label: 'Margin above the national average',
    unit: 'percentage points',
    min: 0,
    max: 100,
    step: 0.1,
  },
  check({ profile }, { threshold = 5 }) {
    const anchor = 'safety-oos';
    if (isBrokerOnly(profile))
      return notApplicable('A broker: no roadside inspections apply.', [], anchor);
    const margin = threshold / 100;
    const parts = (['vehicle', 'driver'] as const).map((kind) => {
      const inspections = profile[`inspections_${kind}`] ?? profile.inspections_total ?? 0;
      const rate = profile[`inspections_${kind}_out_of_service_pct`];
      const national = profile[`natl_avg_oos_${kind}`] ?? NATIONAL_OOS[kind];
      return { kind, inspections, rate, national };
    });
    const fields = [
      ev('inspections_total', profile.inspections_total),
      ...parts.flatMap((p) => [
        ev(`inspections_${p.kind}_out_of_service_pct`, p.rate),
        ev(`natl_avg_oos_${p.kind}`, p.national),
      ]),
    ];
    const judged = parts.filter((p) => p.inspections > 0 && p.rate !== undefined);
    if (judged.length === 0) return noData('no roadside inspections on record.', fields, anchor);
    const over = judged.filter((p) => (p.rate ?? 0) > p.national + margin + 1e-9);
    if (over.length > 0) {
      const text = over.map(
        (p) => `${p.kind} ${pct(p.rate ?? 0)} against ${pct(p.national)} national`,
      );
      return hit(
        `Out-of-service rate above the national average by more than ${threshold} points: ${text.join('; ')}.`,
        fields,
        anchor,
      );
    }
    return pass(
      `Out-of-service rates within ${threshold} points of the national average.`,
      fields,
      anchor,
    );
  },
};

function dotAgeOf(profile: Profile, reference: string): number | undefined {
  if (profile.dot_age !== undefined) return profile.dot_age;
  return profile.added_date ? daysBetween(profile.added_date, reference) : undefined;
}

const newEntrant: RuleDef = {
  id: 'new_entrant',
  label: 'New entrant',
  description: 'The USDOT number is younger than the threshold (FMCSA: new entrant for 540 days).',
  tab: 'overview',
  defaults: settings('review', 'pass', 540),
  outcomes: ['review', 'fail'],
  threshold: {
    label: 'New entrant while younger than',
    unit: 'days',
    min: 0,
    max: 3650,
    step: 1,
  },
  check({ profile, reference }, { threshold = 540 }) {
    const age = dotAgeOf(profile, reference);
    // the overview's registration figures: the USDOT number's age and the day it was added
    const anchor = 'overview-registration';
    const fields = [ev('dot_age', profile.dot_age), ev('added_date', profile.added_date)];
    if (age === undefined)
      return noData('the USDOT number’s age is not in the profile.', fields, anchor);
    if (age < threshold)
      return hit(`New entrant: USDOT number ${age} days old (under ${threshold}).`, fields, anchor);
    return pass(`USDOT number ${age} days old.`, fields, anchor);
  },
};

const AUTHORITY_TYPES = ['common', 'contract', 'broker'] as const;

const authorityAge: RuleDef = {
  id: 'authority_age',
  label: 'Young authority',
  description: 'The carrier’s oldest Active operating authority is younger than the threshold.',
  tab: 'authority',
  defaults: settings('review', 'pass', 90),
  outcomes: ['review', 'fail'],
  threshold: { label: 'Authority younger than', unit: 'days', min: 0, max: 3650, step: 1 },
  check({ profile }, { threshold = 90 }) {
    const anchor = 'authority-status';
    const active = AUTHORITY_TYPES.filter((t) => isActive(profile[`authority_${t}`]));
    const ages = active.map((t) => {
      const age =
        t === 'broker'
          ? profile.authority_age_broker
          : (profile[`authority_age_${t}_active`] ?? profile[`authority_age_${t}`]);
      return { t, age };
    });
    const fields = ages.map(({ t, age }) =>
      ev(t === 'broker' ? 'authority_age_broker' : `authority_age_${t}_active`, age),
    );
    if (active.length === 0)
      return notApplicable('No Active operating authority to age.', fields, anchor);
    const known = ages.filter(
      (a): a is { t: (typeof AUTHORITY_TYPES)[number]; age: number } => a.age !== undefined,
    );
    if (known.length === 0)
      return noData('the age of the Active authority is not in the profile.', fields, anchor);
    const oldest = known.reduce((a, b) => (b.age > a.age ? b : a));
    if (oldest.age < threshold) {
      return hit(
        `Operating authority only ${oldest.age} days old (${oldest.t}; under ${threshold}).`,
        fields,
        anchor,
      );
    }
    return pass(`Operating authority ${oldest.age} days old (${oldest.t}).`, fields, anchor);
  },
};

const CONTACT_CHANGES = [
  { field: 'phone_last_changed', what: 'phone' },
  { field: 'email_last_changed', what: 'e-mail' },
  { field: 'address_last_changed', what: 'address' },
] as const;

const contactChanges: RuleDef = {
  id: 'contact_changes',
  label: 'Recent contact change',
  description: 'The phone, e-mail or address on the FMCSA record changed within the last N days.',
  tab: 'contact',
  defaults: settings('review', 'pass', 30),
  outcomes: ['review', 'fail'],
  threshold: { label: 'Changed within', unit: 'days', min: 0, max: 3650, step: 1 },
  check({ profile, reference }, { threshold = 30 }) {
    const anchor = 'contact-recent';
    const fields = CONTACT_CHANGES.map(({ field }) => ev(field, profile[field]));
    const recent = CONTACT_CHANGES.flatMap(({ field, what }) => {
      const date = profile[field];
      const days = date ? daysBetween(date, reference) : undefined;
      return days !== undefined && days >= 0 && days < threshold
        ? [`${what} ${days} days ago (${date ?? ''})`]
        : [];
    });
    if (recent.length > 0)
      return hit(`Changed within ${threshold} days: ${recent.join('; ')}.`, fields, anchor);
    return pass(`No phone, e-mail or address change within ${threshold} days.`, fields, anchor);
  },
};

const NETWORK_LISTS = [
  { list: 'network_graph_physical_address', what: 'physical address' },
  { list: 'network_graph_mailing_address', what: 'mailing address' },
  { list: 'network_graph_telephone_number', what: 'telephone' },
  { list: 'network_graph_cellphone_number', what: 'cell phone' },
  { list: 'network_graph_fax_number', what: 'fax' },
  { list: 'network_graph_email', what: 'e-mail' },
  { list: 'network_graph_ein', what: 'EIN' },
  { list: 'network_graph_duns', what: 'DUNS' },
  { list: 'network_graph_equipment', what: 'equipment' },
] as const;

function normaliseDot(dot: string): string {
  return dot.trim().replace(/^0+(?=\d)/, '');
}

function badStanding(
  status: string | undefined,
  outOfService: boolean | undefined,
): string | undefined {
  if (outOfService === true) return `out of service${status ? ` (USDOT ${status})` : ''}`;
  const word = lower(status);
  if (
    word === 'revoked' ||
    word === 'inactive' ||
    word === 'out of service' ||
    word === 'out-of-service'
  ) {
    return `USDOT ${status ?? ''}`;
  }
  return undefined;
}

const sharedIdentifiers: RuleDef = {
  id: 'shared_identifiers',
  label: 'Identifiers shared with a carrier in bad standing',
  description:
    'The carrier shares a phone, address, e-mail, EIN, DUNS or equipment with a carrier that is revoked, inactive or out of service (chameleon signal), as far as the profile already says (its network lists and the statuses of carriers sharing equipment; no extra call).',
  tab: 'network',
  defaults: settings('review', 'pass'),
  outcomes: ['review', 'fail'],
  check({ profile }) {
    const anchor = 'network-links';
    const own = normaliseDot(profile.dot_number ?? '');
    const known = new Map<string, { name?: string; standing?: string; vins?: number }>();
    for (const carrier of profile.network_graph_equipment_ext ?? []) {
      if (!carrier.dot_number) continue;
      const dot = normaliseDot(carrier.dot_number);
      const standing = badStanding(carrier.usdot_status, carrier.out_of_service_flag);
      known.set(dot, {
        ...(carrier.legal_name ? { name: carrier.legal_name } : {}),
        ...(standing ? { standing } : {}),
        ...(carrier.count_shared_vins !== undefined ? { vins: carrier.count_shared_vins } : {}),
      });
    }
    const shared = new Map<string, string[]>();
    for (const { list, what } of NETWORK_LISTS) {
      for (const raw of profile[list] ?? []) {
        const dot = normaliseDot(raw);
        if (dot === own) continue;
        const kinds = shared.get(dot) ?? [];
        if (!kinds.includes(what)) kinds.push(what);
        shared.set(dot, kinds);
      }
    }
    for (const dot of known.keys())
      if (dot !== own && !shared.has(dot)) shared.set(dot, ['equipment']);
    const bad = [...shared].filter(([dot]) => known.get(dot)?.standing !== undefined);
    if (bad.length > 0) {
      const fields: Evidence[] = [];
      const texts = bad.map(([dot, kinds]) => {
        const info = known.get(dot);
        const identifiers = kinds.map((kind) =>
          kind === 'equipment' && info?.vins ? `equipment (${info.vins} VINs)` : kind,
        );
        fields.push(
          ev(`network: DOT ${dot}`, `${identifiers.join(', ')} — ${info?.standing ?? ''}`),
        );
        return `${listWords(identifiers)} with DOT ${dot}${info?.name ? ` ${info.name}` : ''}, which is ${info?.standing ?? ''}`;
      });
      return hit(`Shares ${texts.join('; ')}.`, fields, anchor);
    }
    const fields = [
      ev('linked carriers', shared.size),
      ev('linked carriers with a known status', known.size),
    ];
    if (shared.size === 0)
      return pass('Shares no identifier with another carrier.', fields, anchor);
    return pass(
      `Shares identifiers with ${shared.size} carrier${shared.size > 1 ? 's' : ''}; none known to be revoked, inactive or out of service.`,
      fields,
      anchor,
    );
  },
};

/** A street that is a mailbox: a PO box, a private mailbox (PMB) or a mail drop. */
const MAILBOX_STREET = /\b(P\.?\s*O\.?\s*BOX|POST\s+OFFICE\s+BOX|PMB|PRIVATE\s+MAIL\s*BOX)\b/i;

const virtualAddress: RuleDef = {
  id: 'virtual_address',
  label: 'Virtual or mailbox address',
  description:
    'The physical address is a PO box or private mailbox, or the service flags the address as virtual (computed by the service). A PO box as the mailing address is normal.',
  tab: 'contact',
  defaults: settings('review', 'pass'),
  outcomes: ['review', 'fail'],
  check({ profile }) {
    const anchor = 'contact-addresses';
    const street = profile.physical_address_street ?? profile.physical_address;
    const flag = profile.risk_factors?.virtual_physical_mailing_address;
    const fields = [
      ev('physical_address_street', street),
      ev('risk_factors.virtual_physical_mailing_address', flag),
    ];
    if (street && MAILBOX_STREET.test(street))
      return hit(`The physical address is a mailbox: ${street}.`, fields, anchor);
    if (flag === true)
      return hit(
        'The service flags a virtual or mailbox address (computed by the service).',
        fields,
        anchor,
        true,
      );
    if (!street && flag === undefined)
      return noData('no physical address in the profile.', fields, anchor);
    return pass('The physical address is not a mailbox.', fields, anchor);
  },
};

const VENDOR_RISK_LEVELS = new Set(['high', 'very high']);

const vendorRiskScore: RuleDef = {
  id: 'vendor_risk_score',
  label: 'Vendor risk score',
  description:
    'The data vendor’s own risk score is High or Very High. A vendor-computed value, not published by FMCSA; off by default.',
  tab: 'overview',
  defaults: settings('review', 'pass', undefined, false),
  outcomes: ['review', 'fail'],
  check({ profile }) {
    // the header's Risk badge, on every tab
    const anchor = 'profile-status';
    const score = profile.risk_score;
    const fields = [
      ev('risk_score', score),
      ev('risk_score_probability', profile.risk_score_probability),
    ];
    if (score === undefined)
      return notApplicable(
        'No vendor risk score (intrastate, private or not a carrier).',
        fields,
        anchor,
      );
    if (VENDOR_RISK_LEVELS.has(lower(score)))
      return hit(`Vendor risk score ${score} (computed by the service).`, fields, anchor, true);
    return pass(`Vendor risk score ${score} (computed by the service).`, fields, anchor);
  },
};

/*
 * Rules added with issue 29. All are off in the default policy (version 1) and in every version
 * stored before them, so those versions keep their meaning; their defaults are the settings a
 * compliance lead would start from when switching one on (docs/vetting.md).
 */

/**
 * An amount on file against the amount needed: not enough data when the profile does not state it,
 * a hit below it, a pass at or above it ("Cargo insurance on file $50,000 is below the team’s
 * $100,000.").
 */
function amountOnFile(
  what: string,
  onFile: number | undefined,
  needed: number,
  against: string,
  missing: string,
  fields: Evidence[],
  anchor: string,
): Finding {
  if (onFile === undefined) return noData(missing, fields, anchor);
  const verb = onFile < needed ? 'is below' : 'meets';
  const message = `${what} on file ${money(onFile)} ${verb} ${against}.`;
  return onFile < needed ? hit(message, fields, anchor) : pass(message, fields, anchor);
}

const cargoInsurance: RuleDef = {
  id: 'cargo_insurance',
  label: 'Cargo insurance minimum',
  description:
    'The cargo insurance on file is below the team’s minimum. Brokers and carriers not for hire: not applicable.',
  tab: 'authority',
  defaults: settings('review', 'review', 100_000, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At least', unit: 'USD', min: 0, max: 100_000_000, step: 1 },
  check({ profile }, { threshold = 100_000 }) {
    const anchor = 'authority-insurance';
    const onFile = profile.insurance_cargo_on_file;
    const fields = [
      ev('insurance_cargo_on_file', onFile),
      ev('insurance_cargo_required', profile.insurance_cargo_required),
    ];
    if (isBrokerOnly(profile)) return notApplicable('A broker: it hauls no cargo.', fields, anchor);
    if (profile.operation_class_authorized_for_hire === false)
      return notApplicable('Not authorised for hire: it hauls its own goods.', fields, anchor);
    return amountOnFile(
      'Cargo insurance',
      onFile,
      threshold,
      `the team’s ${money(threshold)}`,
      'the profile does not say how much cargo insurance is on file.',
      fields,
      anchor,
    );
  },
};

const bipdMinimum: RuleDef = {
  id: 'bipd_minimum',
  label: 'Liability insurance minimum',
  description:
    'The BIPD liability insurance on file is below the team’s minimum, which may be above what FMCSA requires (the bipd_insurance rule checks that). Brokers: not applicable.',
  tab: 'authority',
  defaults: settings('review', 'review', 1_000_000, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At least', unit: 'USD', min: 0, max: 100_000_000, step: 1 },
  check({ profile }, { threshold = 1_000_000 }) {
    const anchor = 'authority-insurance';
    const onFile = profile.insurance_bipd_on_file;
    const fields = [
      ev('insurance_bipd_on_file', onFile),
      ev('insurance_bipd_required', profile.insurance_bipd_required),
    ];
    if (isBrokerOnly(profile))
      return notApplicable('A broker: it files no BIPD insurance.', fields, anchor);
    return amountOnFile(
      'BIPD',
      onFile,
      threshold,
      `the team’s ${money(threshold)}`,
      'the profile does not say how much BIPD insurance is on file.',
      fields,
      anchor,
    );
  },
};

function holdsBrokerAuthority(profile: Profile): boolean {
  return isBrokerOnly(profile) || isActive(profile.authority_broker);
}

const suretyBond: RuleDef = {
  id: 'surety_bond',
  label: 'Surety bond or trust fund',
  description:
    'A broker (or a carrier the profile shows a bond requirement for) has less surety bond or trust fund on file than required (and than the team’s minimum). Others: not applicable.',
  tab: 'authority',
  defaults: settings('fail', 'review', 75_000, false),
  outcomes: ['fail', 'review'],
  threshold: { label: 'At least', unit: 'USD', min: 0, max: 10_000_000, step: 1 },
  check({ profile }, { threshold = 75_000 }) {
    const anchor = 'authority-insurance';
    const onFile = profile.insurance_bond_on_file;
    const required = profile.insurance_bond_required;
    const fields = [
      ev('insurance_bond_on_file', onFile),
      ev('insurance_bond_required', required),
      ev('authority_broker', profile.authority_broker),
    ];
    const applies = holdsBrokerAuthority(profile) || (required !== undefined && required > 0);
    if (!applies)
      return notApplicable('Not a broker and no bond is required of it.', fields, anchor);
    const needed = Math.max(threshold, required ?? 0);
    return amountOnFile(
      'Surety bond or trust fund',
      onFile,
      needed,
      `the ${money(needed)} needed`,
      `the profile does not say how much bond is on file (${money(needed)} needed).`,
      fields,
      anchor,
    );
  },
};

function classWords(classes: readonly CargoClass[]): string {
  return listWords(classes.map((c) => CARGO_CLASS_LABELS[c]));
}

const cargoClasses: RuleDef = {
  id: 'cargo_classes',
  label: 'Cargo classes',
  description:
    'The carrier does not haul a cargo class the team requires, or hauls one it refuses (the profile’s cargo flags; with none stated: not enough data). Brokers: not applicable.',
  tab: 'fleet',
  defaults: {
    ...settings('review', 'review', undefined, false),
    cargo_required: [],
    cargo_refused: [],
  },
  outcomes: ['review', 'fail'],
  cargoLists: true,
  check({ profile }, { cargo_required: required = [], cargo_refused: refused = [] }) {
    const anchor = 'fleet-cargo';
    const asked = [...new Set([...required, ...refused])];
    const fields = asked.map((c) => ev(c, profile[c]));
    if (asked.length === 0)
      return pass('The team requires and refuses no cargo class.', fields, anchor);
    if (isBrokerOnly(profile)) return notApplicable('A broker: it hauls no cargo.', fields, anchor);
    const stated = CARGO_CLASSES.some((c) => profile[c] !== undefined);
    if (!stated) return noData('the profile states no cargo classes.', fields, anchor);
    // with the classification stated, a class not flagged is a class not hauled
    const missing = required.filter((c) => profile[c] !== true);
    const hauled = refused.filter((c) => profile[c] === true);
    const problems = [
      ...(missing.length ? [`does not haul ${classWords(missing)} (required)`] : []),
      ...(hauled.length ? [`hauls ${classWords(hauled)} (refused)`] : []),
    ];
    if (problems.length > 0) return hit(`The carrier ${problems.join('; ')}.`, fields, anchor);
    return pass(
      `Cargo classes as the team asks${required.length ? `: hauls ${classWords(required)}` : ''}.`,
      fields,
      anchor,
    );
  },
};

const hazmat: RuleDef = {
  id: 'hazmat',
  label: 'Hazardous materials',
  description:
    'Required: the carrier neither hauls hazardous materials nor is PHMSA-registered. Refused: it hauls them or is PHMSA-registered. Brokers: not applicable.',
  tab: 'fleet',
  defaults: { ...settings('review', 'review', undefined, false), hazmat: 'required' },
  outcomes: ['review', 'fail'],
  hazmatMode: true,
  check({ profile }, { hazmat: mode = 'required' }) {
    const anchor = 'fleet-operation';
    const flag = profile.hazardous_material;
    const phmsa = profile.phmsa_flag;
    const fields = [ev('hazardous_material', flag), ev('phmsa_flag', phmsa)];
    if (isBrokerOnly(profile)) return notApplicable('A broker: it hauls no cargo.', fields, anchor);
    if (flag === undefined && phmsa === undefined)
      return noData(
        'the profile does not say whether it hauls hazardous materials.',
        fields,
        anchor,
      );
    const hauls = flag === true || phmsa === true;
    const what = hauls
      ? `The carrier hauls hazardous materials${phmsa === true ? ' (PHMSA-registered)' : ''}`
      : 'The carrier does not haul hazardous materials';
    if (mode === 'required' && !hauls) return hit(`${what}; the team requires it.`, fields, anchor);
    if (mode === 'refused' && hauls) return hit(`${what}; the team refuses it.`, fields, anchor);
    return pass(`${what}.`, fields, anchor);
  },
};

const powerUnits: RuleDef = {
  id: 'power_units',
  label: 'Fleet size',
  description:
    'The carrier has fewer power units than the team’s minimum. Brokers: not applicable.',
  tab: 'fleet',
  defaults: settings('review', 'review', 2, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At least', unit: 'power units', min: 1, max: 100_000, step: 1 },
  check({ profile }, { threshold = 2 }) {
    const anchor = 'fleet-counts';
    const units = profile.total_power_units;
    const fields = [ev('total_power_units', units)];
    if (isBrokerOnly(profile))
      return notApplicable('A broker: it runs no power units.', fields, anchor);
    if (units === undefined)
      return noData('the profile does not state the number of power units.', fields, anchor);
    if (units < threshold)
      return hit(
        `${units} power unit${units === 1 ? '' : 's'} (under ${threshold}).`,
        fields,
        anchor,
      );
    return pass(`${units.toLocaleString('en-US')} power units.`, fields, anchor);
  },
};

/** Whole months from `from` to `to` (YYYY-MM-DD), counting a month once its day is reached. */
function monthsBetween(from: string, to: string): number | undefined {
  const a = /^(\d{4})-(\d{2})-(\d{2})/.exec(from);
  const b = /^(\d{4})-(\d{2})-(\d{2})/.exec(to);
  if (!a || !b) return undefined;
  const months = (Number(b[1]) - Number(a[1])) * 12 + (Number(b[2]) - Number(a[2]));
  return Number(b[3]) >= Number(a[3]) ? months : months - 1;
}

/** `text` with its first letter in capitals. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Days as whole months (30.44 days each), for ages the profile gives in days. */
function daysToMonths(days: number): number {
  return Math.floor(days / 30.4375);
}

const timeInBusiness: RuleDef = {
  id: 'time_in_business',
  label: 'Time in business',
  description:
    'The USDOT number, or the oldest Active operating authority (when the carrier holds one), is younger than the team’s minimum in months.',
  tab: 'overview',
  defaults: settings('review', 'review', 12, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At least', unit: 'months', min: 1, max: 600, step: 1 },
  check({ profile, reference }, { threshold = 12 }) {
    const anchor = 'overview-registration';
    const dotMonths =
      profile.added_date !== undefined
        ? monthsBetween(profile.added_date, reference)
        : profile.dot_age !== undefined
          ? daysToMonths(profile.dot_age)
          : undefined;
    const authorityDays = AUTHORITY_TYPES.filter((t) => isActive(profile[`authority_${t}`]))
      .map((t) =>
        t === 'broker'
          ? profile.authority_age_broker
          : (profile[`authority_age_${t}_active`] ?? profile[`authority_age_${t}`]),
      )
      .filter((age): age is number => age !== undefined);
    const authorityMonths = authorityDays.length
      ? daysToMonths(Math.max(...authorityDays))
      : undefined;
    const fields = [
      ev('added_date', profile.added_date),
      ev('dot_age', profile.dot_age),
      ev('months of Active authority', authorityMonths),
    ];
    if (dotMonths === undefined && authorityMonths === undefined)
      return noData(
        'neither the USDOT number’s age nor the authority’s is in the profile.',
        fields,
        anchor,
      );
    const young = [
      ...(dotMonths !== undefined && dotMonths < threshold
        ? [`USDOT number ${dotMonths} months old`]
        : []),
      ...(authorityMonths !== undefined && authorityMonths < threshold
        ? [`oldest Active authority ${authorityMonths} months old`]
        : []),
    ];
    if (young.length > 0)
      return hit(sentence(`${young.join('; ')} (under ${threshold} months).`), fields, anchor);
    const seen = [
      ...(dotMonths !== undefined ? [`USDOT number ${dotMonths} months old`] : []),
      ...(authorityMonths !== undefined ? [`authority ${authorityMonths} months`] : []),
    ];
    return pass(sentence(`${seen.join('; ')}.`), fields, anchor);
  },
};

const crashCount: RuleDef = {
  id: 'crash_count',
  label: 'Crashes in 24 months',
  description:
    'The carrier had more crashes in the last 24 months than the team allows (the service’s 24-month counter `crashes_total`). Brokers: not applicable.',
  tab: 'crashes',
  defaults: settings('review', 'pass', 5, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At most', unit: 'crashes', min: 0, max: 10_000, step: 1 },
  check({ profile }, { threshold = 5 }) {
    const anchor = 'crash-totals';
    const crashes = profile.crashes_total;
    const fields = [ev('crashes_total', crashes), ev('last_crash_date', profile.last_crash_date)];
    if (isBrokerOnly(profile)) return notApplicable('A broker: it runs no trucks.', fields, anchor);
    if (crashes === undefined)
      return noData('the profile does not count the carrier’s crashes.', fields, anchor);
    if (crashes > threshold)
      return hit(`${crashes} crashes in 24 months (more than ${threshold}).`, fields, anchor);
    return pass(`${crashes} crash${crashes === 1 ? '' : 'es'} in 24 months.`, fields, anchor);
  },
};

/** The day 24 months before `reference` (YYYY-MM-DD). */
function twoYearsBefore(reference: string): string {
  const year = Number(reference.slice(0, 4));
  return `${String(year - 2).padStart(4, '0')}${reference.slice(4, 10)}`;
}

const fatalCrashes: RuleDef = {
  id: 'fatal_crashes',
  label: 'Fatal crashes in 24 months',
  description:
    'The carrier had more fatal crashes in the last 24 months than the team allows: counted from the crash list, and from `crash_fatalities` (the 24-month count of deaths: none means no fatal crash; each fatal crash has at least one). Brokers: not applicable.',
  tab: 'crashes',
  defaults: settings('review', 'pass', 0, false),
  outcomes: ['review', 'fail'],
  threshold: { label: 'At most', unit: 'fatal crashes', min: 0, max: 1_000, step: 1 },
  check({ profile, reference }, { threshold = 0 }) {
    const anchor = 'crash-totals';
    const deaths = profile.crash_fatalities;
    const since = twoYearsBefore(reference);
    const fatal = (profile.crash_history ?? []).filter(
      (c) =>
        (c.fatalities ?? 0) > 0 &&
        c.report_date !== undefined &&
        c.report_date > since &&
        c.report_date <= reference,
    );
    const fields = [
      ev('crash_fatalities', deaths),
      ev(
        'crash_history: fatal crashes in 24 months',
        profile.crash_history ? fatal.length : undefined,
      ),
    ];
    if (isBrokerOnly(profile)) return notApplicable('A broker: it runs no trucks.', fields, anchor);
    if (deaths === undefined && profile.crash_history === undefined)
      return noData('the profile has no crash counts or crash list.', fields, anchor);
    // at least: the listed fatal crashes, and one when the counter shows any death
    const atLeast = Math.max(fatal.length, deaths !== undefined && deaths > 0 ? 1 : 0);
    if (atLeast > threshold)
      return hit(
        `At least ${atLeast} fatal crash${atLeast === 1 ? '' : 'es'} in 24 months (more than ${threshold}).`,
        fields,
        anchor,
      );
    // at most: no more fatal crashes than deaths
    if (deaths !== undefined && deaths <= threshold)
      return pass(
        deaths === 0
          ? 'No fatal crash in 24 months.'
          : `At most ${deaths} fatal crash${deaths === 1 ? '' : 'es'} in 24 months.`,
        fields,
        anchor,
      );
    return noData(
      `${deaths ?? 'an unknown number of'} deaths in crashes in 24 months; the crash list does not show in how many crashes.`,
      fields,
      anchor,
    );
  },
};

const oosFactor: RuleDef = {
  id: 'oos_factor',
  label: 'Out-of-service rate against the national average',
  description:
    'The vehicle or driver out-of-service rate is more than the factor times the national average (a relative test; oos_rates adds a margin in points). No inspections: not enough data. Brokers: not applicable.',
  tab: 'safety',
  defaults: settings('review', 'review', 1.5, false),
  outcomes: ['review', 'fail'],
  threshold: {
    label: 'More than',
    unit: 'times the national average',
    min: 1,
    max: 10,
    step: 0.1,
  },
  check({ profile }, { threshold = 1.5 }) {
    const anchor = 'safety-oos';
    if (isBrokerOnly(profile))
      return notApplicable('A broker: no roadside inspections apply.', [], anchor);
    const parts = (['vehicle', 'driver'] as const).map((kind) => ({
      kind,
      inspections: profile[`inspections_${kind}`] ?? profile.inspections_total ?? 0,
      rate: profile[`inspections_${kind}_out_of_service_pct`],
      national: profile[`natl_avg_oos_${kind}`] ?? NATIONAL_OOS[kind],
    }));
    const fields = parts.flatMap((p) => [
      ev(`inspections_${p.kind}_out_of_service_pct`, p.rate),
      ev(`natl_avg_oos_${p.kind}`, p.national),
    ]);
    const judged = parts.filter((p) => p.inspections > 0 && p.rate !== undefined);
    if (judged.length === 0) return noData('no roadside inspections on record.', fields, anchor);
    const over = judged.filter((p) => (p.rate ?? 0) > p.national * threshold + 1e-9);
    const text = (list: typeof judged) =>
      list
        .map((p) => `${p.kind} ${pct(p.rate ?? 0)} against ${pct(p.national)} national`)
        .join('; ');
    if (over.length > 0)
      return hit(
        `Out-of-service rate more than ${threshold}× the national average: ${text(over)}.`,
        fields,
        anchor,
      );
    return pass(
      `Out-of-service rates at most ${threshold}× the national average: ${text(judged)}.`,
      fields,
      anchor,
    );
  },
};

/** The default policy's rules, in the order the Policy page and the docs list them. */
export const RULES: readonly RuleDef[] = [
  usdotStatus,
  operatingAuthority,
  bipdInsurance,
  pendingCancellation,
  ratingRule('rating_unsatisfactory'),
  ratingRule('rating_conditional'),
  basicAlerts,
  oosRates,
  newEntrant,
  authorityAge,
  contactChanges,
  sharedIdentifiers,
  virtualAddress,
  vendorRiskScore,
  bipdMinimum,
  cargoInsurance,
  suretyBond,
  cargoClasses,
  hazmat,
  powerUnits,
  timeInBusiness,
  crashCount,
  fatalCrashes,
  oosFactor,
];
