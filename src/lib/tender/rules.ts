/**
 * The tender check's rules (docs/tender-check.md), pure and runtime-neutral: from the offer, the
 * claimed carrier's profile, what the searches by phone and e-mail found, the policy's verdict and
 * the carrier's current decision, the reasons (each with its evidence) and the answer. The proxy
 * gathers the data (server-proxy/src/tender/); nothing here fetches, stores or bills.
 */
import type { LiteProfile, Profile } from '../service/index.ts';
import { CARGO_CLASS_LABELS } from '../vetting/index.ts';
import type { Outcome, RuleResult } from '../vetting/types.ts';
import {
  answerOf,
  normalisePhone,
  TENDER_EQUIPMENT_LABELS,
  type TenderAnswer,
  type TenderCheckRequest,
  type TenderEquipment,
  type TenderEvidence,
  type TenderOutcome,
  type TenderReason,
  type TenderRule,
  type TenderSearch,
  type TenderVerdict,
} from './contract.ts';
import { domainOf, isFreeMail, lookalikeOf, sameDomain } from './domains.ts';

const MS_PER_DAY = 86_400_000;

/** What a search by phone or e-mail answered (lite or full items: both carry the current contact). */
export interface SearchAnswer {
  search: TenderSearch;
  /** the items of the answer (every carrier found, the claimed one included) */
  items: readonly Pick<
    LiteProfile,
    | 'dot_number'
    | 'legal_name'
    | 'usdot_status'
    | 'out_of_service_flag'
    | 'telephone_number'
    | 'email_address'
  >[];
}

/** The carrier's current decision and its standing against the verdict of the profile read. */
export type DecisionFacts = NonNullable<TenderVerdict['decision']>;

export interface TenderFacts {
  request: TenderCheckRequest;
  /** the claimed carrier's profile (null: not read, pending or not found) */
  profile: Profile | null;
  /** when the profile was fetched (ISO), for the evidence */
  profileFetchedAt: string | null;
  phone: SearchAnswer | null;
  email: SearchAnswer | null;
  /** the policy's `contact_changes` window, in days */
  contactWindowDays: number;
  /** the policy's `bipd_minimum` threshold when that rule is on (USD) */
  bipdMinimumUsd: number | null;
  /** the policy's verdict of the profile (null: not read) */
  verdict: {
    verdict: Outcome;
    policy_version: number;
    reasons: readonly RuleResult[];
  } | null;
  decision: DecisionFacts | null;
  /** checks left pending (their cost not allowed) */
  pendingCount: number;
  /** today (UTC day), for the re-vet date and the pickup date */
  today: string;
}

export interface TenderResult {
  answer: TenderAnswer;
  reasons: TenderReason[];
  identityOutcome: TenderOutcome;
  loadFitOutcome: TenderOutcome;
  callBack: string | null;
}

const RANK: Record<TenderOutcome, number> = { pass: 0, review: 1, fail: 2 };

function worst(outcomes: readonly TenderOutcome[]): TenderOutcome {
  return outcomes.reduce<TenderOutcome>((a, b) => (RANK[b] > RANK[a] ? b : a), 'pass');
}

function daysBetween(from: string, to: string): number | undefined {
  const a = Date.parse(`${from.slice(0, 10)}T00:00:00Z`);
  const b = Date.parse(`${to.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return Math.round((b - a) / MS_PER_DAY);
}

/** (562) 602-7220 */
export function formatPhone(digits: string): string {
  return digits.length === 10
    ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
    : digits;
}

function usd(amount: number): string {
  return `${Math.round(amount).toLocaleString('en-US')} USD`;
}

/** Link of a profile tab's section in the app. */
function tab(dot: string, name: string, anchor?: string): string {
  return `/carriers/${dot}/${name}${anchor ? `#${anchor}` : ''}`;
}

class Reasons {
  readonly list: TenderReason[] = [];
  add(rule: TenderRule, outcome: TenderOutcome, text: string, evidence: TenderEvidence[]): void {
    this.list.push({ rule, outcome, text, evidence });
  }
  outcomeOf(rules: readonly TenderRule[]): TenderOutcome {
    return worst(this.list.filter((r) => rules.includes(r.rule)).map((r) => r.outcome));
  }
}

/** Evidence makers bound to the claimed carrier's profile. */
function evidenceOf(facts: TenderFacts) {
  const profile = facts.profile;
  const dot = profile?.dot_number ?? facts.request.dot_number ?? '';
  const snapshot = profile?.snapshot_date ?? facts.profileFetchedAt?.slice(0, 10) ?? null;
  return {
    dot,
    field(
      field: string,
      value: TenderEvidence['value'] | undefined,
      link: string | null,
    ): TenderEvidence {
      return { field, value: value ?? null, source: 'profile', date: snapshot, link };
    },
    input(field: string, value: TenderEvidence['value'] | undefined): TenderEvidence {
      return {
        field: `input.${field}`,
        value: value ?? null,
        source: 'input',
        date: null,
        link: null,
      };
    },
  };
}

type Ev = ReturnType<typeof evidenceOf>;

interface HistoryEntry {
  index: number;
  key: string;
  value: string;
  start: string | null;
  end: string | null;
  current: boolean;
}

function historyOf(profile: Profile, keys: readonly string[]): HistoryEntry[] {
  return (profile.contact_history ?? []).flatMap((entry, index) =>
    entry.key && keys.includes(entry.key) && entry.value
      ? [
          {
            index,
            key: entry.key,
            value: entry.value,
            start: entry.start_date ?? null,
            end: entry.end_date ?? null,
            current: entry.current_flag === true,
          },
        ]
      : [],
  );
}

const PHONE_FIELDS = [
  'telephone_number',
  'cellphone_number',
  'physical_telephone_number_authority',
] as const;

/** The registered phone the call-back goes to: the main number, else the cell or authority one. */
function registeredPhone(profile: Profile): string | null {
  for (const field of PHONE_FIELDS) {
    const phone = profile[field] ? normalisePhone(profile[field]) : undefined;
    if (phone) return phone;
  }
  return null;
}

function phoneRules(facts: TenderFacts, profile: Profile, ev: Ev, reasons: Reasons): void {
  const phone = facts.request.phone;
  if (phone === undefined) return;
  const current = PHONE_FIELDS.find(
    (field) => profile[field] !== undefined && normalisePhone(profile[field]) === phone,
  );
  const link = tab(ev.dot, 'contact', 'contact-current');
  if (current) {
    reasons.add(
      'phone_match',
      'pass',
      `${formatPhone(phone)} is the carrier's registered ${current === 'telephone_number' ? 'phone' : current === 'cellphone_number' ? 'cell phone' : 'authority phone'}.`,
      [ev.input('phone', phone), ev.field(current, profile[current], link)],
    );
    return;
  }
  const past = historyOf(profile, ['telephone_number', 'cellphone_number']).find(
    (entry) => !entry.current && normalisePhone(entry.value) === phone,
  );
  const registered = registeredPhone(profile);
  if (past) {
    reasons.add(
      'phone_match',
      'review',
      `${formatPhone(phone)} was the carrier's number until ${past.end ?? 'an unknown date'}; it is not its registered number now.`,
      [
        ev.input('phone', phone),
        ev.field(
          `contact_history[${past.index}].value`,
          past.value,
          tab(ev.dot, 'contact', 'contact-history'),
        ),
        ev.field(
          `contact_history[${past.index}].end_date`,
          past.end,
          tab(ev.dot, 'contact', 'contact-history'),
        ),
        ev.field('telephone_number', profile.telephone_number, link),
      ],
    );
    return;
  }
  reasons.add(
    'phone_match',
    'review',
    registered
      ? `${formatPhone(phone)} is not a number registered for this carrier (registered: ${formatPhone(registered)}).`
      : `${formatPhone(phone)} cannot be compared: the carrier registers no phone number.`,
    [ev.input('phone', phone), ev.field('telephone_number', profile.telephone_number, link)],
  );
}

/** `email_domain` when it is a whole domain (the service may send it without its TLD). */
function registeredDomainField(profile: Profile): string | undefined {
  const domain = profile.email_domain?.trim().toLowerCase();
  return domain?.includes('.') ? domain : undefined;
}

function emailRules(facts: TenderFacts, profile: Profile, ev: Ev, reasons: Reasons): void {
  const email = facts.request.email;
  if (email === undefined) return;
  const domain = domainOf(email) ?? '';
  const registered = profile.email_address?.trim().toLowerCase();
  const registeredDomain =
    (registered ? domainOf(registered) : undefined) ?? registeredDomainField(profile);
  const link = tab(ev.dot, 'contact', 'contact-current');
  const evidence = [
    ev.input('email', email),
    ev.field('email_address', profile.email_address, link),
  ];
  if (registered === email) {
    reasons.add(
      'email_match',
      'pass',
      `${email} is the carrier's registered e-mail address.`,
      evidence,
    );
  } else if (
    registeredDomain &&
    !isFreeMail(registeredDomain) &&
    sameDomain(domain, registeredDomain)
  ) {
    reasons.add(
      'email_match',
      'pass',
      `${email} is at the carrier's registered domain ${registeredDomain} (registered address: ${registered ?? 'none'}).`,
      evidence,
    );
  } else {
    const past = historyOf(profile, ['email_address']).find(
      (entry) => !entry.current && entry.value.trim().toLowerCase() === email,
    );
    if (past) {
      reasons.add(
        'email_match',
        'review',
        `${email} was the carrier's address until ${past.end ?? 'an unknown date'}; it is not its registered address now (${registered ?? 'none'}).`,
        [
          ...evidence,
          ev.field(
            `contact_history[${past.index}].end_date`,
            past.end,
            tab(ev.dot, 'contact', 'contact-history'),
          ),
        ],
      );
    } else {
      reasons.add(
        'email_match',
        'review',
        registered
          ? `${email} is neither the carrier's registered address (${registered}) nor at its domain.`
          : `${email} cannot be compared: the carrier registers no e-mail address.`,
        evidence,
      );
    }
  }
  if (isFreeMail(domain) && registered !== email) {
    const company =
      registeredDomain && !isFreeMail(registeredDomain) ? registeredDomain : undefined;
    reasons.add(
      'free_mail',
      'review',
      company
        ? `${domain} is a free-mail domain, while the carrier registers its own domain ${company}: anyone can open an address there.`
        : `${domain} is a free-mail domain and the address is not the carrier's registered one: anyone can open an address there.`,
      evidence,
    );
  }
  const alike = registeredDomain ? lookalikeOf(domain, registeredDomain) : undefined;
  if (alike && registeredDomain) {
    reasons.add(
      'lookalike_domain',
      'fail',
      `${domain} imitates the carrier's registered domain: ${alike}. A look-alike domain is how impersonators pass for a carrier.`,
      evidence,
    );
  }
}

function searchRule(
  rule: 'phone_other_carriers' | 'email_other_carriers',
  facts: TenderFacts,
  answer: SearchAnswer | null,
  ownNow: boolean,
  matchesNow: (item: SearchAnswer['items'][number]) => boolean,
  ev: Ev,
  reasons: Reasons,
): void {
  if (!answer) return;
  const { search } = answer;
  const what =
    rule === 'phone_other_carriers'
      ? 'phone number'
      : search.key === 'email' && !search.value.includes('@')
        ? 'domain'
        : 'e-mail address';
  const sourceOf = (): TenderEvidence => ({
    field: `search.${search.key}`,
    value: search.value,
    source: search.endpoint,
    date: search.fetched_at?.slice(0, 10) ?? null,
    link: null,
  });
  if (search.status === 'failed') {
    reasons.add(
      rule,
      'review',
      `The search by ${what} failed: whether ${search.value} belongs to other carriers is not known (try again later).`,
      [sourceOf()],
    );
    return;
  }
  if (search.status === 'pending' || search.status === 'skipped') return;
  const shown = rule === 'phone_other_carriers' ? formatPhone(search.value) : search.value;
  const claimed = ev.dot;
  const others = answer.items.filter((item) => item.dot_number && item.dot_number !== claimed);
  const evidence = [
    sourceOf(),
    ...others.slice(0, 10).map((item): TenderEvidence => ({
      field: `items[dot_number=${item.dot_number ?? ''}]`,
      value: `${item.dot_number ?? ''} ${item.legal_name ?? ''}`.trim(),
      source: search.endpoint,
      date: search.fetched_at?.slice(0, 10) ?? null,
      link: tab(item.dot_number ?? '', 'overview'),
    })),
  ];
  const more =
    search.total_count !== null && search.total_count > answer.items.length
      ? ` (${search.total_count} carriers in all; the first ${answer.items.length} read)`
      : '';
  if (others.length === 0) {
    reasons.add(
      rule,
      'pass',
      `No other carrier has this ${what} (${shown}), now or in the past.`,
      evidence,
    );
    return;
  }
  const named = (list: typeof others) =>
    list
      .slice(0, 3)
      .map(
        (item) => `DOT ${item.dot_number ?? '?'}${item.legal_name ? ` (${item.legal_name})` : ''}`,
      )
      .join(', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  const now = others.filter(matchesNow);
  const past = others.filter((item) => !matchesNow(item));
  // a carrier shut down: out of service, or its USDOT number not active
  const shut = others.filter(
    (item) =>
      item.out_of_service_flag === true ||
      (item.usdot_status !== undefined && item.usdot_status.toLowerCase() !== 'active'),
  );
  if (now.length > 0 && !ownNow) {
    reasons.add(
      rule,
      'fail',
      `This ${what} is registered now to ${named(now)}, not to the claimed carrier${more}. Do not use it to confirm the offer.`,
      evidence,
    );
  } else if (shut.length > 0 && !ownNow) {
    reasons.add(
      rule,
      'fail',
      `This ${what} is not the claimed carrier's and belongs${now.length > 0 ? '' : ' (in the past)'} to ${named(shut)}, which is out of service or inactive: the contact of a shut-down carrier offering under another's name.`,
      evidence,
    );
  } else if (now.length > 0) {
    reasons.add(
      rule,
      'review',
      `The carrier shares this ${what} with ${named(now)}${more}: a shared contact can mean related companies or a chameleon.`,
      evidence,
    );
  } else {
    reasons.add(
      rule,
      'review',
      `This ${what} was registered in the past to ${named(past)}${more}.`,
      evidence,
    );
  }
}

function contactChangeRule(
  facts: TenderFacts,
  profile: Profile,
  ev: Ev,
  reasons: Reasons,
): string[] {
  const reference = profile.snapshot_date ?? facts.today;
  const window = facts.contactWindowDays;
  const link = tab(ev.dot, 'contact', 'contact-recent');
  const changes = (
    [
      ['phone_last_changed', 'phone'],
      ['email_last_changed', 'e-mail'],
    ] as const
  ).flatMap(([field, what]) => {
    const date = profile[field];
    const days = date ? daysBetween(date, reference) : undefined;
    return days !== undefined && days >= 0 && days < window
      ? [{ field, what, date: date ?? '', days }]
      : [];
  });
  const evidence = [
    ev.field('phone_last_changed', profile.phone_last_changed, link),
    ev.field('email_last_changed', profile.email_last_changed, link),
  ];
  if (changes.length === 0) {
    reasons.add(
      'contact_changed',
      'pass',
      `Neither the phone nor the e-mail on the FMCSA record changed within ${window} days.`,
      evidence,
    );
    return [];
  }
  const said = changes.map((c) => `its ${c.what} changed ${c.days} days ago (${c.date})`);
  reasons.add(
    'contact_changed',
    'review',
    `On the FMCSA record ${said.join(' and ')}, within the policy's ${window} days: a recent change is how a hijacked identity looks. Confirm on a number known from before the change.`,
    evidence,
  );
  return changes.map((c) => c.what);
}

const EQUIPMENT_TYPES: Record<TenderEquipment, readonly string[]> = {
  dry_van: ['van', 'dry van'],
  reefer: ['reefer', 'refrigerated'],
  flatbed: ['flatbed', 'flat bed', 'step deck', 'lowboy'],
  tanker: ['tank', 'tanker'],
  car_hauler: ['auto transporter', 'car carrier', 'car hauler'],
};

function loadFitRules(facts: TenderFacts, profile: Profile, ev: Ev, reasons: Reasons): void {
  const load = facts.request.load ?? {};
  const dot = ev.dot;
  if (load.cargo_classes && load.cargo_classes.length > 0) {
    const missing = load.cargo_classes.filter((c) => profile[c] !== true);
    const link = tab(dot, 'fleet', 'fleet-cargo');
    reasons.add(
      'cargo_class',
      missing.length === 0 ? 'pass' : 'review',
      missing.length === 0
        ? `The carrier lists every cargo class of the load (${load.cargo_classes.map((c) => CARGO_CLASS_LABELS[c]).join(', ')}).`
        : `The carrier does not list ${missing.map((c) => CARGO_CLASS_LABELS[c]).join(', ')} among the cargo it carries (MCS-150).`,
      load.cargo_classes.map((c) => ev.field(c, profile[c], link)),
    );
  }
  const insuranceLink = tab(dot, 'authority', 'authority-insurance');
  if (load.cargo_value !== undefined) {
    const onFile = profile.insurance_cargo_on_file;
    const evidence = [
      ev.input('load.cargo_value', load.cargo_value),
      ev.field('insurance_cargo_on_file', onFile, insuranceLink),
    ];
    if (onFile === undefined || onFile <= 0) {
      reasons.add(
        'cargo_insurance',
        load.cargo_value === 0 ? 'pass' : 'review',
        load.cargo_value === 0
          ? 'The load declares no cargo value.'
          : `No cargo insurance is on file with FMCSA; ask for the certificate covering ${usd(load.cargo_value)}.`,
        evidence,
      );
    } else {
      reasons.add(
        'cargo_insurance',
        onFile >= load.cargo_value ? 'pass' : 'fail',
        onFile >= load.cargo_value
          ? `Cargo insurance on file (${usd(onFile)}) covers the load's ${usd(load.cargo_value)}.`
          : `Cargo insurance on file (${usd(onFile)}) is less than the load's ${usd(load.cargo_value)}.`,
        evidence,
      );
    }
  }
  // liability: what FMCSA requires of the carrier, the team's minimum, and 1,000,000 for hazmat
  const required = Math.max(
    profile.insurance_bipd_required ?? 0,
    facts.bipdMinimumUsd ?? 0,
    load.hazmat === true ? 1_000_000 : 0,
  );
  const bipd = profile.insurance_bipd_on_file;
  const bipdEvidence = [
    ev.field('insurance_bipd_on_file', bipd, insuranceLink),
    ev.field('insurance_bipd_required', profile.insurance_bipd_required, insuranceLink),
  ];
  const cancel = cancellationBefore(profile, load.pickup_date ?? facts.today, facts.today);
  if (bipd === undefined) {
    reasons.add(
      'liability_insurance',
      'review',
      'No liability (BIPD) insurance amount is on file.',
      bipdEvidence,
    );
  } else if (required > 0 && bipd < required) {
    reasons.add(
      'liability_insurance',
      'fail',
      `Liability insurance on file (${usd(bipd)}) is below the ${usd(required)} this load requires.`,
      bipdEvidence,
    );
  } else if (cancel) {
    reasons.add(
      'liability_insurance',
      'fail',
      `An insurance policy is cancelled effective ${cancel.date}, on or before the pickup.`,
      [
        ...bipdEvidence,
        ev.field(
          `insurance_history[${cancel.index}].cancel_effective_date`,
          cancel.date,
          insuranceLink,
        ),
      ],
    );
  } else {
    reasons.add(
      'liability_insurance',
      'pass',
      `Liability insurance on file (${usd(bipd)})${required > 0 ? ` meets the ${usd(required)} required` : ''}.`,
      bipdEvidence,
    );
  }
  if (load.hazmat === true) {
    const flag = profile.hazardous_material;
    const phmsa = profile.phmsa_flag;
    const link = tab(dot, 'fleet', 'fleet-operation');
    const evidence = [
      ev.field('hazardous_material', flag, link),
      ev.field('phmsa_flag', phmsa, link),
    ];
    if (flag === true || phmsa === true) {
      reasons.add(
        'hazmat',
        'pass',
        'The carrier hauls hazardous materials (FMCSA/PHMSA).',
        evidence,
      );
    } else if (flag === undefined && phmsa === undefined) {
      reasons.add(
        'hazmat',
        'review',
        'The profile does not say whether the carrier hauls hazardous materials.',
        evidence,
      );
    } else {
      reasons.add(
        'hazmat',
        'fail',
        'The load is hazardous and the carrier is not registered to haul hazardous materials.',
        evidence,
      );
    }
  }
  if (load.equipment !== undefined) equipmentRule(load.equipment, profile, ev, reasons);
  fleetRule(facts, profile, ev, reasons);
}

function cancellationBefore(profile: Profile, pickup: string, today: string) {
  const entries = profile.insurance_history ?? [];
  for (const [index, entry] of entries.entries()) {
    const date = entry.cancel_effective_date;
    if (date && date >= today && date <= pickup) return { index, date };
  }
  return undefined;
}

function equipmentRule(
  equipment: TenderEquipment,
  profile: Profile,
  ev: Ev,
  reasons: Reasons,
): void {
  const names = EQUIPMENT_TYPES[equipment];
  const summary = profile.equipment_summary;
  // each entry: the unit's kind (`type`, e.g. TRAILER) and its body or category (`category`)
  const entries = [...(summary?.secondary_category ?? []), ...(summary?.primary_category ?? [])];
  const nameOf = (e: (typeof entries)[number]) =>
    [e.category, e.type].filter((part) => part !== undefined && part !== '').join(' ');
  const link = tab(ev.dot, 'fleet', 'fleet-counts');
  const found = entries.find((e) => {
    const text = nameOf(e).toLowerCase();
    return names.some((name) => text.includes(name));
  });
  const reeferByCargo = equipment === 'reefer' && profile.refrigerated_foods === true;
  const label = TENDER_EQUIPMENT_LABELS[equipment];
  const seen = [...new Set(entries.map(nameOf).filter((n) => n !== ''))];
  if (found) {
    reasons.add(
      'equipment',
      'pass',
      `${label}: ${found.count ?? 'some'} unit(s) of ${nameOf(found)} seen in the carrier's inspected equipment.`,
      [ev.field('equipment_summary', `${nameOf(found)}: ${found.count ?? ''}`, link)],
    );
  } else if (reeferByCargo) {
    reasons.add(
      'equipment',
      'pass',
      `${label}: the carrier lists refrigerated food among its cargo.`,
      [ev.field('refrigerated_foods', true, tab(ev.dot, 'fleet', 'fleet-cargo'))],
    );
  } else {
    reasons.add(
      'equipment',
      'review',
      seen.length === 0
        ? `${label}: the profile shows no inspected equipment to compare with.`
        : `${label}: none seen among the carrier's inspected units (${seen.join(', ')}); ask which unit will haul.`,
      [ev.field('equipment_summary', seen.join('; ') || null, link)],
    );
  }
}

function fleetRule(facts: TenderFacts, profile: Profile, ev: Ev, reasons: Reasons): void {
  const units = profile.total_power_units;
  const drivers = profile.total_drivers;
  const link = tab(ev.dot, 'fleet', 'fleet-counts');
  const evidence = [
    ev.field('total_power_units', units, link),
    ev.field('total_drivers', drivers, link),
  ];
  const load = facts.request.load;
  const interstate =
    load?.origin_state && load.destination_state && load.origin_state !== load.destination_state;
  const operation = (profile.carrier_operation_desc ?? '').toLowerCase();
  if (interstate && operation.startsWith('intra')) {
    reasons.add(
      'fleet',
      'fail',
      `The load crosses state lines (${load.origin_state ?? ''} to ${load.destination_state ?? ''}) and the carrier operates intrastate only.`,
      [
        ...evidence,
        ev.field(
          'carrier_operation_desc',
          profile.carrier_operation_desc,
          tab(ev.dot, 'overview', 'overview-registration'),
        ),
      ],
    );
    return;
  }
  if (!units || units < 1) {
    reasons.add(
      'fleet',
      'review',
      'The carrier reports no power units: it may not run its own trucks (a broker posing as a carrier?).',
      evidence,
    );
  } else if (drivers !== undefined && drivers < 1) {
    reasons.add(
      'fleet',
      'review',
      `The carrier reports ${units} power unit(s) and no drivers.`,
      evidence,
    );
  } else {
    reasons.add(
      'fleet',
      'pass',
      `The carrier reports ${units} power unit(s)${drivers !== undefined ? ` and ${drivers} driver(s)` : ''}.`,
      evidence,
    );
  }
}

const VERDICT_WORDS: Record<Outcome, string> = {
  pass: 'Passes',
  review: 'Needs review under',
  fail: 'Fails',
};

const DECISION_WORDS: Record<DecisionFacts['decision'], string> = {
  approved: 'Approved',
  approved_with_conditions: 'Approved with conditions',
  rejected: 'Rejected',
  do_not_use: 'Do not use',
};

function verdictRule(facts: TenderFacts, ev: Ev, reasons: Reasons): void {
  const verdict = facts.verdict;
  if (!verdict) return;
  const decision = facts.decision;
  const notPass = verdict.reasons.filter((r) => r.outcome !== 'pass');
  const listed =
    notPass.length > 0
      ? `: ${notPass
          .slice(0, 4)
          .map((r) => r.message)
          .join(' ')}`
      : '.';
  const evidence: TenderEvidence[] = [
    {
      field: 'verdict',
      value: verdict.verdict,
      source: 'policy',
      date: facts.profile?.snapshot_date ?? null,
      link: tab(ev.dot, 'overview'),
    },
    ...notPass.slice(0, 6).map((r): TenderEvidence => ({
      field: `verdict.reasons.${r.rule}`,
      value: r.outcome,
      source: 'policy',
      date: facts.profile?.snapshot_date ?? null,
      link: tab(ev.dot, r.tab, r.anchor),
    })),
  ];
  const policy = `policy version ${verdict.policy_version}`;
  if (!decision) {
    reasons.add(
      'verdict',
      verdict.verdict,
      `${VERDICT_WORDS[verdict.verdict]} the team policy (${policy}); no decision is recorded${listed}`,
      evidence,
    );
    return;
  }
  evidence.push({
    field: 'decision',
    value: decision.decision,
    source: 'decisions',
    date: decision.decided_at.slice(0, 10),
    link: `/decisions/${decision.id}`,
  });
  const recorded = `${DECISION_WORDS[decision.decision]} on ${decision.decided_at.slice(0, 10)}`;
  const approval =
    decision.decision === 'approved' || decision.decision === 'approved_with_conditions';
  if (!approval) {
    reasons.add(
      'verdict',
      decision.standing === 'now_passes' ? 'review' : 'fail',
      decision.standing === 'now_passes'
        ? `${recorded}; the carrier now passes (${policy}): re-vet before tendering.`
        : `${recorded}: the team decided not to use this carrier.`,
      evidence,
    );
    return;
  }
  const expired = decision.expires_on !== null && decision.expires_on < facts.today;
  if (decision.standing === 'now_fails') {
    reasons.add(
      'verdict',
      'fail',
      `${recorded}, but the carrier now fails on a rule the approval did not accept${listed}`,
      evidence,
    );
  } else if (decision.standing === 'now_review') {
    reasons.add(
      'verdict',
      'review',
      `${recorded}, but the carrier now needs review on a rule the approval did not accept${listed}`,
      evidence,
    );
  } else if (expired) {
    reasons.add(
      'verdict',
      'review',
      `${recorded}; its re-vet date ${decision.expires_on ?? ''} has passed.`,
      evidence,
    );
  } else {
    reasons.add(
      'verdict',
      'pass',
      `${recorded} and the decision holds (verdict ${verdict.verdict}, ${policy}).`,
      evidence,
    );
  }
}

/** The reasons, the parts' outcomes, the call-back advice and the answer of one check. */
export function judgeTender(facts: TenderFacts): TenderResult {
  const reasons = new Reasons();
  const ev = evidenceOf(facts);
  const profile = facts.profile;
  let changed: string[] = [];
  if (profile) {
    if (facts.request.phone === undefined && facts.request.email === undefined) {
      reasons.add(
        'phone_match',
        'review',
        'No phone or e-mail of the offer was given: whether it comes from this carrier is not checked.',
        [ev.input('phone', null), ev.input('email', null)],
      );
    }
    phoneRules(facts, profile, ev, reasons);
    emailRules(facts, profile, ev, reasons);
    const registeredPhoneNow =
      facts.request.phone !== undefined &&
      PHONE_FIELDS.some(
        (field) =>
          profile[field] !== undefined && normalisePhone(profile[field]) === facts.request.phone,
      );
    searchRule(
      'phone_other_carriers',
      facts,
      facts.phone,
      registeredPhoneNow,
      (item) =>
        item.telephone_number !== undefined &&
        normalisePhone(item.telephone_number) === facts.request.phone,
      ev,
      reasons,
    );
    const email = facts.request.email ?? '';
    const registeredEmail = profile.email_address?.trim().toLowerCase() ?? '';
    const byDomain =
      facts.email?.search.value !== undefined && !facts.email.search.value.includes('@');
    const domain = domainOf(email) ?? '';
    const ownNow = byDomain
      ? sameDomain(domainOf(registeredEmail) ?? '', domain)
      : registeredEmail === email;
    searchRule(
      'email_other_carriers',
      facts,
      facts.email,
      ownNow,
      (item) => {
        const theirs = item.email_address?.trim().toLowerCase() ?? '';
        return byDomain ? sameDomain(domainOf(theirs) ?? '', domain) : theirs === email;
      },
      ev,
      reasons,
    );
    changed = contactChangeRule(facts, profile, ev, reasons);
    loadFitRules(facts, profile, ev, reasons);
  }
  verdictRule(facts, ev, reasons);
  const identityRules: TenderRule[] = [
    'phone_match',
    'email_match',
    'free_mail',
    'lookalike_domain',
    'phone_other_carriers',
    'email_other_carriers',
    'contact_changed',
  ];
  const identityPending = facts.pendingCount > 0 || !profile;
  const identityOutcome = worst([
    reasons.outcomeOf(identityRules),
    identityPending ? 'review' : 'pass',
  ]);
  const loadFitOutcome = reasons.outcomeOf([
    'cargo_class',
    'cargo_insurance',
    'liability_insurance',
    'hazmat',
    'equipment',
    'fleet',
  ]);
  const answer = answerOf(reasons.list, facts.pendingCount + (profile ? 0 : 1));
  return {
    answer,
    reasons: reasons.list,
    identityOutcome,
    loadFitOutcome,
    callBack: identityOutcome === 'pass' ? null : callBackText(profile, changed),
  };
}

function callBackText(profile: Profile | null, changed: readonly string[]): string {
  const phone = profile ? registeredPhone(profile) : null;
  if (!phone) {
    return 'Call back on a number you know from earlier business with this carrier (its registered number is not known here) before tendering.';
  }
  const after = changed.includes('phone')
    ? ` — its phone changed recently (${profile?.phone_last_changed ?? ''}): prefer a number known from before the change`
    : '';
  return `Call back on the registered number (${formatPhone(phone)}) before tendering${after}.`;
}
