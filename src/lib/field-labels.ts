/**
 * Human labels and value kinds of the profile fields a monitoring change record can carry, so every
 * view reads "Power units: 12 → 16" instead of `total_power_units`. The kind decides the formatter.
 * Fields not listed here get a label derived from their name and are shown as sent.
 */
import {
  formatCount,
  formatDate,
  formatDecimal,
  formatDollars,
  formatFlag,
  formatPercent,
  formatPhone,
  MISSING,
} from './format.ts';
import { BASIC_CATEGORIES, BASIC_LABELS, type BasicCategory } from './service/index.ts';

type FieldValueKind =
  | 'text'
  | 'count'
  | 'dollars'
  | 'date'
  | 'flag'
  | 'year'
  | 'percentile'
  | 'probability'
  | 'decimal'
  | 'phone';

export interface FieldInfo {
  label: string;
  kind: FieldValueKind;
}

const info = (label: string, kind: FieldValueKind): FieldInfo => ({ label, kind });

const FIELDS: Readonly<Record<string, FieldInfo>> = {
  indicator_insurance: info('Insurance on file', 'flag'),
  insurance_bipd_on_file: info('BIPD insurance on file', 'dollars'),
  insurance_bipd_required: info('BIPD insurance required', 'dollars'),
  insurance_cargo_on_file: info('Cargo insurance on file', 'dollars'),
  insurance_bond_on_file: info('Bond on file', 'dollars'),
  insurance_cancel_count: info('Insurance cancellations', 'count'),
  insurance_last_canceled: info('Insurance last cancelled', 'date'),
  insurance_pending_cancel_date: info('Insurance pending cancellation', 'date'),

  indicator_authority: info('Operating authority', 'flag'),
  usdot_status: info('USDOT status', 'text'),
  out_of_service_flag: info('Out of service', 'flag'),
  total_revocations: info('Authority revocations', 'count'),
  last_revocation_date: info('Last revocation', 'date'),
  docket: info('Docket', 'text'),

  safety_rating_desc: info('Safety rating', 'text'),
  safety_rating_date: info('Safety rating date', 'date'),
  latest_review_type_desc: info('Latest review type', 'text'),
  latest_review_date: info('Latest review date', 'date'),
  indicator_carrier_safety: info('Carrier safety indicator', 'flag'),
  crashes_total: info('Crashes', 'count'),
  crash_fatalities: info('Crash fatalities', 'count'),
  crash_injuries: info('Crash injuries', 'count'),
  crashes_tow_away: info('Tow-away crashes', 'count'),
  last_crash_date: info('Last crash', 'date'),
  inspections_total: info('Inspections', 'count'),
  last_inspection_date: info('Last inspection', 'date'),
  violations_total: info('Violations', 'count'),
  iss_value: info('ISS score', 'count'),

  total_power_units: info('Power units', 'count'),
  total_drivers: info('Drivers', 'count'),
  total_drivers_cdl: info('CDL drivers', 'count'),
  mcs150_date: info('MCS-150 date', 'date'),
  mcs150_year: info('MCS-150 mileage year', 'year'),
  mcs150_mileage: info('MCS-150 mileage', 'count'),

  legal_name: info('Legal name', 'text'),
  dba_name: info('DBA name', 'text'),
  telephone_number: info('Telephone', 'phone'),
  cellphone_number: info('Cell phone', 'phone'),
  fax_number: info('Fax', 'phone'),
  email_address: info('E-mail address', 'text'),
  physical_address_street: info('Street address', 'text'),
  physical_address: info('Physical address', 'text'),
  mailing_address: info('Mailing address', 'text'),

  risk_score: info('Risk score', 'text'),
  risk_score_probability: info('Risk probability', 'probability'),
  safety_score: info('Safety score', 'count'),

  // Identity and evidence fields a decision record keeps (server-proxy/src/vetting/key-fields.ts and
  // the vetting rules' evidence), so the printed record reads as words.
  dot_number: info('USDOT number', 'text'),
  doc_id: info('Docket ID', 'text'),
  ein: info('EIN', 'text'),
  entity_type_desc: info('Entity type', 'text'),
  carrier_operation_desc: info('Carrier operation', 'text'),
  operation_class_authorized_for_hire: info('Authorized for hire', 'flag'),
  dot_age: info('USDOT number age (days)', 'count'),
  added_date: info('USDOT added', 'date'),
  authority_age_common_active: info('Common authority age (days)', 'count'),
  authority_age_contract_active: info('Contract authority age (days)', 'count'),
  authority_age_broker: info('Broker authority age (days)', 'count'),
  insurance_cargo_required: info('Cargo insurance required', 'dollars'),
  insurance_bond_required: info('Bond required', 'dollars'),
  inspections_vehicle_out_of_service_pct: info('Vehicle out-of-service rate', 'percentile'),
  inspections_driver_out_of_service_pct: info('Driver out-of-service rate', 'percentile'),
  natl_avg_oos_vehicle: info('National vehicle out-of-service rate', 'percentile'),
  natl_avg_oos_driver: info('National driver out-of-service rate', 'percentile'),
  phone_last_changed: info('Phone last changed', 'date'),
  email_last_changed: info('E-mail last changed', 'date'),
  address_last_changed: info('Address last changed', 'date'),
};

const AUTHORITY_TYPES: Readonly<Record<string, string>> = {
  common: 'Common',
  contract: 'Contract',
  broker: 'Broker',
};

function isBasicCategory(value: string): value is BasicCategory {
  return (BASIC_CATEGORIES as readonly string[]).includes(value);
}

/** The per-BASIC field families (`<prefix><category>`), longest prefix first, and their labels. */
const BASIC_FAMILIES: readonly (readonly [string, (name: string) => FieldInfo])[] = [
  ['basic_roadside_alert_', (name) => info(`${name} roadside alert`, 'flag')],
  ['basic_ac_indicator_', (name) => info(`${name} acute/critical indicator`, 'flag')],
  ['basic_alert_', (name) => info(`${name} alert`, 'flag')],
  ['basic_percentile_', (name) => info(`${name} percentile`, 'percentile')],
  ['basic_measure_', (name) => info(`${name} measure`, 'decimal')],
  ['intervention_threshold_', (name) => info(`${name} intervention threshold`, 'percentile')],
  ['inspections_w_violations_', (name) => info(`${name} inspections with violations`, 'count')],
  ['violations_severe_', (name) => info(`${name} severe violations`, 'count')],
  ['violations_oos_', (name) => info(`${name} out-of-service violations`, 'count')],
  ['violations_', (name) => info(`${name} violations`, 'count')],
];

/** Families of fields named by pattern: `authority_<type>...`, `basic_alert_<category>`, ... */
function patternInfo(field: string): FieldInfo | undefined {
  const authority = /^authority_(common|contract|broker)(_last_revocation_date)?$/.exec(field);
  if (authority?.[1]) {
    const type = AUTHORITY_TYPES[authority[1]] ?? authority[1];
    return authority[2]
      ? info(`${type} authority last revocation`, 'date')
      : info(`${type} authority`, 'text');
  }
  // Every per-BASIC family, by the BASIC's name: the service's spelling (`vehicle_maintence`) stays
  // in the wire format and never reaches a label.
  const family = BASIC_FAMILIES.find(([prefix]) => field.startsWith(prefix));
  const category = family ? field.slice(family[0].length) : '';
  if (family && isBasicCategory(category)) return family[1](BASIC_LABELS[category]);
  return undefined;
}

/** `total_power_units` → "Total power units": the fallback for fields without a label. */
export function humaniseFieldName(field: string): string {
  const words = field.replace(/_+/g, ' ').trim();
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : field;
}

export function fieldInfo(field: string): FieldInfo {
  return FIELDS[field] ?? patternInfo(field) ?? info(humaniseFieldName(field), 'text');
}

export function fieldLabel(field: string): string {
  return fieldInfo(field).label;
}

/** Whether the field has a label of its own (not derived from its name). */
export function hasFieldLabel(field: string): boolean {
  return FIELDS[field] !== undefined || patternInfo(field) !== undefined;
}

const asNumber = (value: unknown) => (typeof value === 'number' ? value : undefined);

function formatKnown(kind: FieldValueKind, value: unknown): string | undefined {
  switch (kind) {
    case 'count':
      return typeof value === 'number' ? formatCount(value) : undefined;
    case 'dollars':
      return typeof value === 'number' ? formatDollars(value) : undefined;
    case 'date':
      return typeof value === 'string' ? formatDate(value) : undefined;
    case 'flag':
      return typeof value === 'boolean' ? formatFlag(value) : undefined;
    case 'year':
      return typeof value === 'number' ? String(value) : undefined;
    case 'percentile':
    case 'probability':
      return formatFraction(asNumber(value));
    case 'decimal':
      return typeof value === 'number' ? formatDecimal(value) : undefined;
    case 'phone':
      return typeof value === 'string' ? formatPhone(value) : undefined;
    case 'text':
      return typeof value === 'string' ? value : undefined;
  }
}

/** Percentiles and probabilities arrive as a 0–1 fraction (or, tolerated, a 0–100 percentage). */
function formatFraction(value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return formatPercent(value > 1 ? value / 100 : value);
}

/** A change value as the analyst reads it; values of an unexpected type are shown as sent. */
export function formatFieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return MISSING;
  const known = formatKnown(fieldInfo(field).kind, value);
  if (known !== undefined) return known;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean);
}
