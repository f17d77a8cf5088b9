/**
 * `buildProfile(model)`: the one place a carrier model becomes a wire profile. Families are built by
 * the families-*.ts modules from the same derived facts; risk factors are computed last from the
 * families themselves so they cannot contradict what the profile shows.
 */
import { ageInDays } from './calendar.ts';
import { derive, NATIONAL_OOS, type Derived } from './derive.ts';
import {
  authorityFields,
  identityFields,
  insuranceFields,
  operationFields,
} from './families-identity.ts';
import {
  cargoFields,
  contactFields,
  contactHistoryFields,
  fleetFields,
  geoFields,
  stable,
} from './families-contact.ts';
import {
  basicHistory,
  crashAggregates,
  crashItem,
  equipmentFields,
  inspectionItem,
  laneFields,
  loadFields,
  networkFields,
} from './families-records.ts';
import {
  basicFields,
  benchmarkFields,
  benchmarks,
  crashFields,
  inspectionFields,
  scoreFields,
  violationFields,
  type Benchmarks,
} from './families-safety.ts';
import type { CarrierModel } from './model.ts';
import { regionByCode } from './places.ts';
import type { WireProfile } from './types.ts';
import type { Fields } from './wire-helpers.ts';

const byDateDesc = <T extends { date: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));

function areaCodeMatches(model: CarrierModel): boolean {
  const codes = regionByCode(model.physical.state).cities.map((c) => c.areaCode);
  return codes.includes(model.phone.slice(0, 3));
}

function networkHas(model: CarrierModel, ...kinds: (keyof CarrierModel['network'])[]): boolean {
  return kinds.some((k) => (model.network[k] ?? []).length > 0);
}

function riskFactors(model: CarrierModel, d: Derived, b: Benchmarks | undefined): Fields {
  const active = (['common', 'contract', 'broker'] as const).filter((k) => d.authority[k].status === 'Active');
  const t = d.tally;
  const sharedPower = model.units.filter((u) => u.sharedWith.length > 0 && u.model.kind === 'POWER UNIT').length;
  const powerUnits = model.fleet?.powerUnits ?? 0;
  const lastRevocation = d.revocations.reduce((m, x) => (x > m ? x : m), '');
  return {
    consecutive_authority: active.length > 0 && d.revocations.length === 0,
    sixty_mo_in_business: ageInDays(model.addedDate) >= 1826,
    revocation_last_thirtysix_mo: lastRevocation !== '' && ageInDays(lastRevocation) <= 1096,
    indicator_network_graph_phone: networkHas(model, 'telephone_number', 'cellphone_number', 'fax_number'),
    indicator_network_graph_address: networkHas(model, 'physical_address', 'mailing_address'),
    indicator_network_graph_email: networkHas(model, 'email'),
    indicator_network_graph_ein: networkHas(model, 'ein'),
    indicator_network_graph_duns: networkHas(model, 'duns'),
    high_shared_power_units: sharedPower >= 2 && sharedPower * 4 >= powerUnits,
    zeo_inspections_last_twelve_mo:
      powerUnits > 0 && !model.inspections.some((i) => ageInDays(i.date) <= 365),
    active_usdot_status: model.usdotStatus === 'Active',
    violations_severe_flag: d.severeRecent,
    basic_alert_flag: d.alerts.length > 0,
    basic_ac_indicator_flag: (model.acuteCritical ?? []).length > 0,
    fatal_crashes_flag: model.crashes.some((c) => c.fatalities > 0),
    safety_rating_unsatisfactory_conditional:
      model.rating.desc === 'Unsatisfactory' || model.rating.desc === 'Conditional',
    secondary_contact_info_provided: model.contactSecondary !== undefined,
    primary_contact_info_missing: model.email === undefined || model.contactPrimary === undefined,
    carrier_w_brokerage_authority:
      model.entityType.includes('Carrier') && d.authority.broker.status === 'Active',
    multi_cargo_classification: model.cargo.length > 1,
    interstate_carrier_single_state_inspection:
      model.operation === 'interstate' && d.inspectedStates.size === 1,
    bipd_insurance_above_minimum: model.required.bipd > 0 && d.onFile.BIPD > model.required.bipd,
    bipd_insurance_below_requirement: model.required.bipd > 0 && d.onFile.BIPD < model.required.bipd,
    cargo_insurance_on_file: d.onFile.CARGO > 0,
    boc3_on_file: model.boc3 !== undefined,
    pending_insurance_cancellation: d.pendingCancel !== undefined,
    no_active_authority: active.length === 0,
    not_authorized_for_hire: !d.forHire,
    mcs150_filed_last_24_months: model.fleet !== undefined && ageInDays(model.fleet.mcs150Date) <= 730,
    oos_below_industry_average:
      (t.vehicle === 0 || t.vehicleOos / t.vehicle < NATIONAL_OOS.vehicle) &&
      (t.driver === 0 || t.driverOos / t.driver < NATIONAL_OOS.driver),
    smartway_flag: model.smartway ?? false,
    carbtru_flag: model.carbtru ?? false,
    phmsa_flag: model.phmsa ?? false,
    hazardous_material: model.hazmat,
    virtual_physical_mailing_address: /\b(STE|SUITE|PMB|UNIT)\b|#/.test(model.physical.street),
    phone_number_area_codes_match_address_state: areaCodeMatches(model),
    stability_name_history: stable(model, ['legal_name', 'dba_name']),
    stability_email_history: stable(model, ['email_address']),
    stability_phone_history: stable(model, ['telephone_number', 'cellphone_number', 'fax_number']),
    stability_address_history: stable(model, ['physical_address', 'mailing_address']),
    stability_contact_history: stable(model, ['company_contact_primary']),
    stability_insurance_history: !d.cancelled.some((c) => ageInDays(c) <= 365),
    dot_out_of_service: model.outOfService,
    driver_only_inspections: t.total > 0 && model.inspections.every((i) => i.level === 3),
    indicator_benchmark_inspection_mileage_ratio: b?.flags.im ?? false,
    indicator_benchmark_inspected_power_units_ratio: b?.flags.irpu ?? false,
    indicator_benchmark_power_unit_mileage_ratio: b?.flags.pum ?? false,
  };
}

export function buildProfile(source: CarrierModel): WireProfile {
  const model = {
    ...source,
    inspections: byDateDesc(source.inspections),
    crashes: byDateDesc(source.crashes),
  };
  const d = derive(model);
  const b = benchmarks(model);
  return {
    ...identityFields(model),
    ...operationFields(model),
    ...authorityFields(model, d),
    ...insuranceFields(model, d),
    ...scoreFields(model, d, b),
    ...basicFields(model, d),
    ...violationFields(model),
    ...inspectionFields(model, d),
    ...crashFields(model),
    ...fleetFields(model),
    ...cargoFields(model),
    ...contactFields(model),
    ...contactHistoryFields(model),
    ...benchmarkFields(b),
    ...networkFields(model),
    ...loadFields(model),
    ...laneFields(model),
    risk_factors: riskFactors(model, d, b),
    ...geoFields(model),
    crash_history: model.crashes.map((c) => crashItem(model.dot, c)),
    crash_aggregates: crashAggregates(model),
    inspection_history: model.inspections.map((i) => inspectionItem(model.dot, i)),
    ...equipmentFields(model),
    basic_history: basicHistory(model),
  };
}
