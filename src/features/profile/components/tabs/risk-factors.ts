/**
 * Plain-language labels for the `risk_factors` flags (the spec's list plus the live-only
 * `bond_insurance_below_requirement`, `ins_rrg_active`, `ins_rrg_hist`): what the flag says when it
 * is true, which value is a concern, and the tab that holds the evidence.
 */
import type { RiskFactors } from '../../../../lib/service/index.ts';
import type { ProfileTabId } from './types.ts';

export type RiskFlag = Exclude<keyof RiskFactors, 'extra'>;

export interface RiskFactorInfo {
  /** what a `true` value states, in plain language */
  label: string;
  /** the value that is a concern; `null` for facts that are neither good nor bad */
  concernWhen: boolean | null;
  /** the tab that shows the evidence behind the flag */
  tab: ProfileTabId;
}

const concernIfTrue = (label: string, tab: ProfileTabId): RiskFactorInfo => ({
  label,
  concernWhen: true,
  tab,
});
const concernIfFalse = (label: string, tab: ProfileTabId): RiskFactorInfo => ({
  label,
  concernWhen: false,
  tab,
});
const fact = (label: string, tab: ProfileTabId): RiskFactorInfo => ({
  label,
  concernWhen: null,
  tab,
});

export const RISK_FACTOR_INFO: Record<RiskFlag, RiskFactorInfo> = {
  consecutive_authority: concernIfFalse('Operating authority held without a gap', 'authority'),
  sixty_mo_in_business: concernIfFalse('In business for 60 months or more', 'authority'),
  revocation_last_thirtysix_mo: concernIfTrue(
    'Authority revoked in the last 36 months',
    'authority',
  ),
  indicator_network_graph_phone: concernIfTrue(
    'Phone number shared with other carriers',
    'network',
  ),
  indicator_network_graph_address: concernIfTrue('Address shared with other carriers', 'network'),
  indicator_network_graph_email: concernIfTrue(
    'E-mail address shared with other carriers',
    'network',
  ),
  indicator_network_graph_ein: concernIfTrue('EIN shared with other carriers', 'network'),
  indicator_network_graph_duns: concernIfTrue('DUNS number shared with other carriers', 'network'),
  high_shared_power_units: concernIfTrue('Many power units shared with other carriers', 'network'),
  zeo_inspections_last_twelve_mo: concernIfTrue(
    'No roadside inspections in the last 12 months',
    'inspections',
  ),
  active_usdot_status: concernIfFalse('USDOT number is active', 'overview'),
  violations_severe_flag: concernIfTrue('Severe violations on record', 'safety'),
  basic_alert_flag: concernIfTrue('At least one BASIC above its intervention threshold', 'safety'),
  basic_ac_indicator_flag: concernIfTrue('Acute or critical violations found', 'safety'),
  fatal_crashes_flag: concernIfTrue('Crashes with fatalities', 'crashes'),
  safety_rating_unsatisfactory_conditional: concernIfTrue(
    'Safety rating is Unsatisfactory or Conditional',
    'safety',
  ),
  secondary_contact_info_provided: concernIfFalse('Secondary contact on file', 'contact'),
  primary_contact_info_missing: concernIfTrue('Primary contact details missing', 'contact'),
  carrier_w_brokerage_authority: fact('Carrier also holds broker authority', 'authority'),
  multi_cargo_classification: fact('Hauls several classes of cargo', 'fleet'),
  interstate_carrier_single_state_inspection: concernIfTrue(
    'Interstate carrier inspected in one state only',
    'inspections',
  ),
  bipd_insurance_above_minimum: concernIfFalse(
    'Liability (BIPD) insurance above the required minimum',
    'authority',
  ),
  bipd_insurance_below_requirement: concernIfTrue(
    'Liability (BIPD) insurance below the requirement',
    'authority',
  ),
  bond_insurance_below_requirement: concernIfTrue('Surety bond below the requirement', 'authority'),
  cargo_insurance_on_file: concernIfFalse('Cargo insurance on file', 'authority'),
  boc3_on_file: concernIfFalse('BOC-3 process agent on file', 'authority'),
  pending_insurance_cancellation: concernIfTrue('Insurance cancellation pending', 'authority'),
  ins_rrg_active: concernIfTrue('Insured through a risk retention group', 'authority'),
  ins_rrg_hist: fact('Was insured through a risk retention group', 'authority'),
  no_active_authority: concernIfTrue('No active operating authority', 'authority'),
  not_authorized_for_hire: concernIfTrue('Not authorised to haul for hire', 'fleet'),
  mcs150_filed_last_24_months: concernIfFalse(
    'MCS-150 registration updated in the last 24 months',
    'fleet',
  ),
  oos_below_industry_average: concernIfFalse(
    'Out-of-service rates below the national average',
    'safety',
  ),
  smartway_flag: fact('SmartWay partner', 'fleet'),
  carbtru_flag: fact('CARB Truck and Bus registration', 'fleet'),
  phmsa_flag: fact('Registered with PHMSA (hazardous materials)', 'fleet'),
  hazardous_material: fact('Carries hazardous materials', 'fleet'),
  virtual_physical_mailing_address: concernIfTrue('Virtual or mailbox address', 'contact'),
  phone_number_area_codes_match_address_state: concernIfFalse(
    'Phone area code matches the address state',
    'contact',
  ),
  stability_name_history: concernIfFalse('Name unchanged in the last year', 'contact'),
  stability_email_history: concernIfFalse('E-mail unchanged in the last year', 'contact'),
  stability_phone_history: concernIfFalse('Phone numbers unchanged in the last year', 'contact'),
  stability_address_history: concernIfFalse('Addresses unchanged in the last year', 'contact'),
  stability_contact_history: concernIfFalse('Contact person unchanged in the last year', 'contact'),
  stability_insurance_history: concernIfFalse(
    'No insurance cancelled in the last year',
    'authority',
  ),
  dot_out_of_service: concernIfTrue('USDOT number ordered out of service', 'overview'),
  driver_only_inspections: concernIfTrue(
    'Only driver inspections, no vehicle inspections',
    'inspections',
  ),
  indicator_benchmark_inspection_mileage_ratio: concernIfTrue(
    'Inspections per mile outside the expected range',
    'safety',
  ),
  indicator_benchmark_inspected_power_units_ratio: concernIfTrue(
    'Share of power units inspected outside the expected range',
    'safety',
  ),
  indicator_benchmark_power_unit_mileage_ratio: concernIfTrue(
    'Miles per power unit outside the expected range',
    'safety',
  ),
};

export type RiskGroup = 'concern' | 'positive' | 'fact';

export interface RiskFactorItem {
  flag: string;
  value: boolean;
  /** the label when known; for an unknown flag its name made readable */
  label: string;
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

function groupOf(info: RiskFactorInfo, value: boolean): RiskGroup {
  if (info.concernWhen === null) return 'fact';
  return value === info.concernWhen ? 'concern' : 'positive';
}

function knownItem(flag: RiskFlag, value: boolean): RiskFactorItem {
  const info = RISK_FACTOR_INFO[flag];
  return { flag, value, label: info.label, group: groupOf(info, value), tab: info.tab };
}

/** Unknown flags with a boolean value, listed neutrally (polarity unknown). */
function unknownItems(extra: Record<string, unknown>): RiskFactorItem[] {
  return Object.entries(extra)
    .filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean')
    .map(([flag, value]) => ({
      flag,
      value,
      label: readableFlagName(flag),
      group: 'fact',
      tab: undefined,
    }));
}

/** Every flag the carrier has, known ones labelled and grouped, unknown ones as neutral facts. */
export function riskFactorItems(factors: RiskFactors | undefined): RiskFactorItem[] {
  if (!factors) return [];
  const known = Object.entries(factors)
    .filter((entry): entry is [RiskFlag, boolean] => isKnownFlag(entry[0]))
    .filter(([, value]) => typeof value === 'boolean')
    .map(([flag, value]) => knownItem(flag, value));
  return [...known, ...unknownItems(factors.extra)];
}
