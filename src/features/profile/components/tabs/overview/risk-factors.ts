/**
 * The `risk_factors` flags (the spec's list plus the live-only `bond_insurance_below_requirement`,
 * `ins_rrg_active`, `ins_rrg_hist`) as plain statements of what is true, each classed as a concern,
 * in order (ok) or for information, with the profile's values behind it where it has them ("BIPD on
 * file 750,000 USD — meets the 750,000 USD minimum"). Never "label: No": a false flag is stated as
 * what it means. The flags are computed by the data vendor; the values come from the profile.
 */
import { formatCount, formatDate, formatPercent } from '../../../../../lib/format.ts';
import type { Profile, RiskFactors } from '../../../../../lib/service/index.ts';
import { areaCodeOf, placeOfAreaCode } from './area-codes.ts';
import type { ProfileTabId } from '../types.ts';

export type RiskFlag = Exclude<keyof RiskFactors, 'extra'>;

export type RiskGroup = 'concern' | 'ok' | 'info';

interface Statement {
  text: string;
  group: RiskGroup;
}

interface RiskFactorInfo {
  /** the tab that shows the evidence behind the flag */
  tab: ProfileTabId;
  /** what is true, given the flag's value and the profile */
  state(value: boolean, profile: Profile): Statement;
}

const concern = (text: string): Statement => ({ text, group: 'concern' });
const ok = (text: string): Statement => ({ text, group: 'ok' });
const info = (text: string): Statement => ({ text, group: 'info' });

/** " (detail)" when the detail is known, else nothing. */
function paren(detail: string | undefined): string {
  return detail ? ` (${detail})` : '';
}

function usd(amount: number): string {
  return `${formatCount(amount)} USD`;
}

function dated(what: string, date: string | undefined): string | undefined {
  return date ? `${what} ${formatDate(date)}` : undefined;
}

/** A flag that is a concern when true: the true and the false statement. */
function badWhenTrue(tab: ProfileTabId, yes: string, no: string, detail?: Detail): RiskFactorInfo {
  return {
    tab,
    state: (value, p) =>
      value
        ? concern(`${yes}${paren(detail?.(p, value))}`)
        : ok(`${no}${paren(detail?.(p, value))}`),
  };
}

/** A flag that is a concern when false. */
function badWhenFalse(tab: ProfileTabId, yes: string, no: string, detail?: Detail): RiskFactorInfo {
  return {
    tab,
    state: (value, p) =>
      value
        ? ok(`${yes}${paren(detail?.(p, value))}`)
        : concern(`${no}${paren(detail?.(p, value))}`),
  };
}

/** A fact that is neither good nor bad. */
function fact(tab: ProfileTabId, yes: string, no: string): RiskFactorInfo {
  return { tab, state: (value) => info(value ? yes : no) };
}

type Detail = (profile: Profile, value: boolean) => string | undefined;

function sharedWith(list: readonly string[] | undefined): string | undefined {
  const count = new Set(list ?? []).size;
  return count ? `${formatCount(count)} ${count === 1 ? 'carrier' : 'carriers'}` : undefined;
}

function isIntrastate(p: Profile): boolean {
  return (p.carrier_operation_desc ?? '').trim().toLowerCase().startsWith('intra');
}

/** An amount on file against the amount required, stated the same way by every flag that reads it. */
function coverage(
  what: string,
  onFile: number | undefined,
  required: number | undefined,
  word: 'minimum' | 'required',
): Statement | undefined {
  if (onFile === undefined || required === undefined) return undefined;
  if (required <= 0) return info(`${what} on file ${usd(onFile)} — none required`);
  const need = `the ${usd(required)} ${word}`;
  if (onFile < required) return concern(`${what} on file ${usd(onFile)} — below ${need}`);
  if (onFile === required) return ok(`${what} on file ${usd(onFile)} — meets ${need}`);
  return ok(`${what} on file ${usd(onFile)} — above ${need}`);
}

const bipd = (p: Profile, word: 'minimum' | 'required') =>
  coverage('BIPD liability insurance', p.insurance_bipd_on_file, p.insurance_bipd_required, word);

function oosRates(p: Profile): string | undefined {
  const parts = (['vehicle', 'driver'] as const).flatMap((kind) => {
    const rate = p[`inspections_${kind}_out_of_service_pct`];
    const national = p[`natl_avg_oos_${kind}`];
    if (rate === undefined) return [];
    return [
      `${kind} ${formatPercent(rate)}${national !== undefined ? ` against ${formatPercent(national)} national` : ''}`,
    ];
  });
  return parts.length ? parts.join('; ') : undefined;
}

/** The phone's area code against the address states, with where the code is. */
function areaCode(value: boolean, p: Profile): Statement {
  const code = areaCodeOf(p.telephone_number);
  const physical = p.physical_address_state;
  if (!code || !physical) {
    return value
      ? ok('Phone area code matches the address state')
      : concern('Phone area code does not match the address state');
  }
  const place = placeOfAreaCode(code);
  const named = `Phone area code ${code}${paren(place.name)}`;
  const mailing = p.mailing_address_state;
  if (place.regions.length === 0) {
    return value
      ? ok(
          `${named} matches the address state, says the data vendor (physical address in ${physical})`,
        )
      : concern(`${named} does not match the physical address state (${physical})`);
  }
  if (place.regions.includes(physical)) {
    const text = `${named} is in the physical address state (${physical})`;
    return value
      ? ok(`${named} matches the physical address state (${physical})`)
      : info(`${text}; the data vendor nevertheless flags them as not matching`);
  }
  if (mailing && place.regions.includes(mailing)) {
    const text = `${named} matches the mailing address state (${mailing}), not the physical address state (${physical})`;
    return value ? info(text) : info(`${text}; the data vendor flags them as not matching`);
  }
  return value
    ? info(
        `${named} is not in the physical address state (${physical}); the data vendor nevertheless flags them as matching`,
      )
    : concern(`${named} does not match the physical address state (${physical})`);
}

/** Days from `from` to `to` (YYYY-MM-DD); undefined when either is missing or unreadable. */
function daysBetween(from: string | undefined, to: string | undefined): number | undefined {
  const a = Date.parse(`${from ?? ''}T00:00:00Z`);
  const b = Date.parse(`${to ?? ''}T00:00:00Z`);
  return Number.isNaN(a) || Number.isNaN(b) ? undefined : Math.round((b - a) / 86_400_000);
}

/** 60 months in business, checked against the date the USDOT number was added when known. */
function sixtyMonths(value: boolean, p: Profile): Statement {
  const added = dated('USDOT number added', p.added_date);
  const days = daysBetween(p.added_date, p.snapshot_date);
  const older = days !== undefined && days >= 1826;
  if (value) return ok(`In business for 60 months or more${paren(added)}`);
  if (older)
    return info(
      `${added ?? ''}, over 60 months before the snapshot; the data vendor nevertheless flags less than 60 months in business`,
    );
  return concern(`In business for less than 60 months${paren(added)}`);
}

/** A policy cancelled in the last year: a concern unless the BIPD on file still meets the requirement. */
function insuranceStability(value: boolean, p: Profile): Statement {
  if (value) return ok('No insurance policy cancelled in the last year');
  const last = dated('last cancellation', p.insurance_last_canceled);
  const current = bipd(p, 'required');
  const text = `Insurance policy cancelled in the last year${paren(last)}`;
  const full = current ? `${text}; ${current.text}` : text;
  return current?.group === 'ok' ? info(full) : concern(full);
}

function changedDetail(
  field: `${'name' | 'email' | 'phone' | 'address' | 'contact'}_last_changed`,
) {
  return (p: Profile, value: boolean) => (value ? undefined : dated('last change', p[field]));
}

export const RISK_FACTOR_INFO: Record<RiskFlag, RiskFactorInfo> = {
  consecutive_authority: badWhenFalse(
    'authority',
    'Operating authority held without a gap',
    'Gap in the operating authority (a lapse or a revocation on record)',
  ),
  sixty_mo_in_business: { tab: 'authority', state: sixtyMonths },
  revocation_last_thirtysix_mo: badWhenTrue(
    'authority',
    'Authority revoked in the last 36 months',
    'No authority revocation in the last 36 months',
  ),
  indicator_network_graph_phone: badWhenTrue(
    'network',
    'Phone number shared with other carriers',
    'Phone number not shared with another carrier',
    (p, v) => (v ? sharedWith(p.network_graph_telephone_number) : undefined),
  ),
  indicator_network_graph_address: badWhenTrue(
    'network',
    'Address shared with other carriers',
    'Address not shared with another carrier',
    (p, v) =>
      v
        ? sharedWith([
            ...(p.network_graph_physical_address ?? []),
            ...(p.network_graph_mailing_address ?? []),
          ])
        : undefined,
  ),
  indicator_network_graph_email: badWhenTrue(
    'network',
    'E-mail address shared with other carriers',
    'E-mail address not shared with another carrier',
    (p, v) => (v ? sharedWith(p.network_graph_email) : undefined),
  ),
  indicator_network_graph_ein: badWhenTrue(
    'network',
    'EIN shared with other carriers',
    'EIN not shared with another carrier',
    (p, v) => (v ? sharedWith(p.network_graph_ein) : undefined),
  ),
  indicator_network_graph_duns: badWhenTrue(
    'network',
    'DUNS number shared with other carriers',
    'DUNS number not shared with another carrier',
    (p, v) => (v ? sharedWith(p.network_graph_duns) : undefined),
  ),
  high_shared_power_units: badWhenTrue(
    'network',
    'Many power units shared with other carriers',
    'Few or no power units shared with other carriers',
    (p) =>
      p.shared_power_units !== undefined
        ? `${formatCount(p.shared_power_units)} shared`
        : undefined,
  ),
  zeo_inspections_last_twelve_mo: badWhenTrue(
    'inspections',
    'No roadside inspection in the last 12 months',
    'Inspected at the roadside in the last 12 months',
    (p) => dated('last inspection', p.last_inspection_date),
  ),
  active_usdot_status: badWhenFalse(
    'overview',
    'USDOT number is active',
    'USDOT number is not active',
    (p, v) => (v ? undefined : p.usdot_status && `status ${p.usdot_status}`),
  ),
  violations_severe_flag: badWhenTrue(
    'safety',
    'Severe violations on record',
    'No severe violations on record',
  ),
  basic_alert_flag: badWhenTrue(
    'safety',
    'At least one BASIC above its intervention threshold',
    'No BASIC above its intervention threshold',
  ),
  basic_ac_indicator_flag: badWhenTrue(
    'safety',
    'Acute or critical violations found',
    'No acute or critical violations found',
  ),
  fatal_crashes_flag: badWhenTrue(
    'crashes',
    'Crashes with fatalities on record',
    'No crash with fatalities on record',
    (p, v) =>
      v && p.crash_fatalities !== undefined
        ? `${formatCount(p.crash_fatalities)} ${p.crash_fatalities === 1 ? 'fatality' : 'fatalities'}`
        : undefined,
  ),
  safety_rating_unsatisfactory_conditional: {
    tab: 'safety',
    state: (value, p) =>
      value
        ? concern(`Safety rating is ${p.safety_rating_desc ?? 'Unsatisfactory or Conditional'}`)
        : ok(
            p.safety_rating_desc
              ? `Safety rating is ${p.safety_rating_desc}, not Unsatisfactory or Conditional`
              : 'Safety rating is neither Unsatisfactory nor Conditional',
          ),
  },
  secondary_contact_info_provided: fact(
    'contact',
    'Secondary contact on file',
    'No secondary contact on file',
  ),
  primary_contact_info_missing: badWhenTrue(
    'contact',
    'Primary contact details missing',
    'Primary contact details on file',
  ),
  carrier_w_brokerage_authority: fact(
    'authority',
    'Carrier also holds broker authority',
    'Carrier holds no broker authority',
  ),
  multi_cargo_classification: fact(
    'fleet',
    'Hauls several classes of cargo',
    'Hauls a single class of cargo',
  ),
  interstate_carrier_single_state_inspection: badWhenTrue(
    'inspections',
    'Interstate carrier inspected in one state only',
    'Inspections not confined to a single state',
    (p, v) =>
      !v && p.inspected_states
        ? `inspected in ${formatCount(p.inspected_states)} ${p.inspected_states === 1 ? 'state' : 'states'}`
        : undefined,
  ),
  bipd_insurance_above_minimum: {
    tab: 'authority',
    state: (value, p) =>
      bipd(p, 'minimum') ??
      (value
        ? ok('BIPD liability insurance above the required minimum')
        : info('BIPD liability insurance not above the required minimum (amounts not reported)')),
  },
  bipd_insurance_below_requirement: {
    tab: 'authority',
    state: (value, p) =>
      bipd(p, 'minimum') ??
      (value
        ? concern('BIPD liability insurance below the requirement')
        : ok('BIPD liability insurance meets the requirement')),
  },
  bond_insurance_below_requirement: {
    tab: 'authority',
    state: (value, p) =>
      coverage('Surety bond', p.insurance_bond_on_file, p.insurance_bond_required, 'required') ??
      (value
        ? concern('Surety bond below the requirement')
        : ok('Surety bond meets the requirement')),
  },
  cargo_insurance_on_file: {
    tab: 'authority',
    state: (value, p) => {
      if (value)
        return ok(
          `Cargo insurance on file${paren(p.insurance_cargo_on_file !== undefined ? usd(p.insurance_cargo_on_file) : undefined)}`,
        );
      const required = p.insurance_cargo_required;
      if (required !== undefined && required > 0)
        return concern(`No cargo insurance on file (${usd(required)} required)`);
      return info('No cargo insurance on file (none required by FMCSA)');
    },
  },
  boc3_on_file: {
    tab: 'authority',
    state: (value, p) =>
      value
        ? ok('BOC-3 process agent on file')
        : isIntrastate(p)
          ? info('No BOC-3 process agent on file (none needed: intrastate carrier)')
          : concern('No BOC-3 process agent on file'),
  },
  pending_insurance_cancellation: badWhenTrue(
    'authority',
    'Insurance cancellation pending',
    'No insurance cancellation pending',
    (p, v) => {
      if (!v) return undefined;
      const reference = p.snapshot_date ?? '';
      const dates = [
        p.insurance_pending_cancel_date,
        ...(p.insurance_history ?? []).map((entry) => entry.cancel_effective_date),
      ].filter((date): date is string => date !== undefined && date > reference);
      return dated('effective', dates.sort()[0]);
    },
  ),
  ins_rrg_active: badWhenTrue(
    'authority',
    'Insured through a risk retention group',
    'Not insured through a risk retention group',
  ),
  ins_rrg_hist: fact(
    'authority',
    'Was insured through a risk retention group',
    'Never insured through a risk retention group',
  ),
  no_active_authority: {
    tab: 'authority',
    state: (value, p) =>
      !value
        ? ok('Active operating authority held')
        : isIntrastate(p)
          ? info('No active operating authority (none needed: intrastate carrier)')
          : concern('No active operating authority'),
  },
  not_authorized_for_hire: badWhenTrue(
    'fleet',
    'Not authorised to haul for hire (private carrier)',
    'Authorised to haul for hire',
  ),
  mcs150_filed_last_24_months: badWhenFalse(
    'fleet',
    'MCS-150 registration updated in the last 24 months',
    'MCS-150 registration not updated in the last 24 months',
    (p) => dated('filed', p.mcs150_date),
  ),
  oos_below_industry_average: badWhenFalse(
    'safety',
    'Out-of-service rates below the national average',
    'Out-of-service rate at or above the national average',
    oosRates,
  ),
  smartway_flag: fact('fleet', 'SmartWay partner', 'Not a SmartWay partner'),
  carbtru_flag: fact(
    'fleet',
    'Registered with CARB Truck and Bus',
    'Not registered with CARB Truck and Bus',
  ),
  phmsa_flag: fact(
    'fleet',
    'Registered with PHMSA (hazardous materials)',
    'Not registered with PHMSA (hazardous materials)',
  ),
  hazardous_material: fact(
    'fleet',
    'Carries hazardous materials',
    'Does not carry hazardous materials',
  ),
  virtual_physical_mailing_address: badWhenTrue(
    'contact',
    'Virtual or mailbox address',
    'Physical address is not a virtual or mailbox address',
    (p, v) => (v ? (p.physical_address_street ?? p.physical_address) : undefined),
  ),
  phone_number_area_codes_match_address_state: { tab: 'contact', state: areaCode },
  stability_name_history: badWhenFalse(
    'contact',
    'Name unchanged in the last year',
    'Name changed in the last year',
    changedDetail('name_last_changed'),
  ),
  stability_email_history: badWhenFalse(
    'contact',
    'E-mail unchanged in the last year',
    'E-mail changed in the last year',
    changedDetail('email_last_changed'),
  ),
  stability_phone_history: badWhenFalse(
    'contact',
    'Phone numbers unchanged in the last year',
    'Phone number changed in the last year',
    changedDetail('phone_last_changed'),
  ),
  stability_address_history: badWhenFalse(
    'contact',
    'Addresses unchanged in the last year',
    'Address changed in the last year',
    changedDetail('address_last_changed'),
  ),
  stability_contact_history: badWhenFalse(
    'contact',
    'Contact person unchanged in the last year',
    'Contact person changed in the last year',
    changedDetail('contact_last_changed'),
  ),
  stability_insurance_history: { tab: 'authority', state: insuranceStability },
  dot_out_of_service: badWhenTrue(
    'overview',
    'USDOT number ordered out of service',
    'USDOT number not ordered out of service',
    (p, v) => (v ? dated('since', p.out_of_service_date) : undefined),
  ),
  driver_only_inspections: badWhenTrue(
    'inspections',
    'Only driver inspections, no vehicle inspections',
    'Vehicles inspected, not only drivers',
  ),
  indicator_benchmark_inspection_mileage_ratio: badWhenTrue(
    'safety',
    'Inspections per mile outside the expected range',
    'Inspections per mile within the expected range',
  ),
  indicator_benchmark_inspected_power_units_ratio: badWhenTrue(
    'safety',
    'Share of power units inspected outside the expected range',
    'Share of power units inspected within the expected range',
  ),
  indicator_benchmark_power_unit_mileage_ratio: badWhenTrue(
    'safety',
    'Miles per power unit outside the expected range',
    'Miles per power unit within the expected range',
  ),
};

export interface RiskFactorItem {
  /** the flags that state this (two BIPD flags read the same amounts and say one thing) */
  flags: string[];
  /** what is true, in plain language, with the values behind it */
  text: string;
  group: RiskGroup;
  tab: ProfileTabId | undefined;
}

function isKnownFlag(flag: string): flag is RiskFlag {
  return Object.hasOwn(RISK_FACTOR_INFO, flag);
}

/** `some_new_flag` -> "Some new flag". */
export function readableFlagName(flag: string): string {
  const words = flag.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Unknown flags with a boolean value, listed for information (what they mean is unknown). */
function unknownItems(extra: Record<string, unknown>): RiskFactorItem[] {
  return Object.entries(extra)
    .filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean')
    .map(([flag, value]) => ({
      flags: [flag],
      text: `${readableFlagName(flag)}: ${value ? 'yes' : 'no'} (a flag this dashboard does not know)`,
      group: 'info',
      tab: undefined,
    }));
}

/** Every flag the carrier has, stated and classed; flags that state the same thing are merged. */
export function riskFactorItems(profile: Profile): RiskFactorItem[] {
  const factors = profile.risk_factors;
  if (!factors) return [];
  const items: RiskFactorItem[] = [];
  for (const [flag, value] of Object.entries(factors)) {
    if (!isKnownFlag(flag) || typeof value !== 'boolean') continue;
    const info = RISK_FACTOR_INFO[flag];
    const { text, group } = info.state(value, profile);
    const same = items.find((item) => item.text === text);
    if (same) same.flags.push(flag);
    else items.push({ flags: [flag], text, group, tab: info.tab });
  }
  return [...items, ...unknownItems(factors.extra)];
}
