/**
 * The one field -> change-channel mapping, shared by the sandbox (which filters
 * `view_changes_<channel>`) and the dashboard (which badges and counts changes per channel).
 * The service does not publish its mapping; this is ours, documented in docs/monitoring-channels.md.
 */

export const CHANNELS = ['insurance', 'authority', 'safety', 'fleet', 'contact', 'risk'] as const;
export type Channel = (typeof CHANNELS)[number];

const EXACT: Record<string, Channel> = {
  indicator_insurance: 'insurance',
  insurance_cancel_count: 'insurance',
  insurance_last_canceled: 'insurance',
  insurance_pending_cancel_date: 'insurance',

  indicator_authority: 'authority',
  usdot_status: 'authority',
  out_of_service_flag: 'authority',
  total_revocations: 'authority',
  last_revocation_date: 'authority',
  days_since_last_revocation: 'authority',
  docket: 'authority',

  safety_rating_desc: 'safety',
  safety_rating_date: 'safety',
  latest_review_type_desc: 'safety',
  latest_review_date: 'safety',
  indicator_carrier_safety: 'safety',
  crashes_total: 'safety',
  crash_fatalities: 'safety',
  crash_injuries: 'safety',
  crashes_tow_away: 'safety',
  last_crash_date: 'safety',
  inspections_total: 'safety',
  last_inspection_date: 'safety',
  violations_total: 'safety',
  iss_value: 'safety',
  iss_recommendation: 'safety',

  total_power_units: 'fleet',
  total_drivers: 'fleet',
  total_drivers_cdl: 'fleet',
  total_trucks: 'fleet',
  total_trailers: 'fleet',
  total_buses: 'fleet',
  owned_tractors: 'fleet',
  owned_trailers: 'fleet',
  term_leased_tractors: 'fleet',
  term_leased_trailers: 'fleet',
  mcs150_date: 'fleet',
  mcs150_mileage: 'fleet',
  mcs150_year: 'fleet',
  cargo_carried: 'fleet',

  legal_name: 'contact',
  dba_name: 'contact',
  telephone_number: 'contact',
  cellphone_number: 'contact',
  fax_number: 'contact',
  email_address: 'contact',
  email_domain: 'contact',
  company_contact_primary: 'contact',
  company_contact_secondary: 'contact',
  ein: 'contact',

  risk_score: 'risk',
  risk_score_probability: 'risk',
  safety_score: 'risk',
};

const PREFIXES: readonly (readonly [string, Channel])[] = [
  ['insurance_', 'insurance'],
  ['authority_', 'authority'],
  ['basic_', 'safety'],
  ['oos_alert_', 'safety'],
  ['violations_', 'safety'],
  ['physical_address', 'contact'],
  ['mailing_address', 'contact'],
  ['boc3_', 'contact'],
  ['risk_', 'risk'],
  ['indicator_network_graph', 'risk'],
];

/** The channel a changed field belongs to, or undefined for fields outside every channel. */
export function channelOfField(field: string): Channel | undefined {
  const exact = EXACT[field];
  if (exact) return exact;
  for (const [prefix, channel] of PREFIXES) {
    if (field.startsWith(prefix)) return channel;
  }
  return undefined;
}
