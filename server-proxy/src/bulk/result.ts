/**
 * One vetted carrier as the bulk results table shows it: the verdict of the team's policy (the
 * shared engine, the same one the profile's banner uses) and the key status fields, read from the
 * parsed profile. Pure.
 */
import type { ItemResult } from '../../../src/lib/bulk/contract.ts';
import { BASIC_CATEGORIES, BASIC_LABELS, type Profile } from '../../../src/lib/service/index.ts';
import { evaluate, type Policy } from '../../../src/lib/vetting/index.ts';

const BAD_STANDING = new Set(['revoked', 'inactive', 'out of service', 'out-of-service']);

function money(amount: number): string {
  return `$${amount.toLocaleString('en-US')}`;
}

function authority(profile: Profile): string | null {
  const parts = (['common', 'contract', 'broker'] as const).flatMap((type) => {
    const status = profile[`authority_${type}`];
    return typeof status === 'string' && status !== '' ? [`${type} ${status}`] : [];
  });
  return parts.length > 0 ? parts.join(', ') : null;
}

function insurance(profile: Profile): string | null {
  const onFile = profile.insurance_bipd_on_file;
  const required = profile.insurance_bipd_required;
  if (onFile === undefined && required === undefined) return null;
  const shown = (value: number | undefined) => (value === undefined ? 'unknown' : money(value));
  return `BIPD ${shown(onFile)} on file, ${shown(required)} required`;
}

/** Carriers sharing equipment that the profile itself says are revoked, inactive or out of service. */
function linkedWarnings(profile: Profile): number {
  const own = (profile.dot_number ?? '').replace(/^0+(?=\d)/, '');
  const bad = new Set<string>();
  for (const carrier of profile.network_graph_equipment_ext ?? []) {
    const dot = (carrier.dot_number ?? '').replace(/^0+(?=\d)/, '');
    if (dot === '' || dot === own) continue;
    const status = (carrier.usdot_status ?? '').toLowerCase();
    if (carrier.out_of_service_flag === true || BAD_STANDING.has(status)) bad.add(dot);
  }
  return bad.size;
}

export function itemResult(profile: Profile, policy: Policy, now: Date): ItemResult {
  const verdict = evaluate(profile, policy, now);
  return {
    name: profile.legal_name ?? null,
    verdict: verdict.verdict,
    policy_version: verdict.policy_version,
    reasons: verdict.reasons
      .filter((reason) => reason.outcome !== 'pass')
      .map((reason) => `${reason.label}: ${reason.message}`),
    usdot_status: profile.usdot_status ?? null,
    authority: authority(profile),
    insurance: insurance(profile),
    safety_rating: profile.safety_rating_desc ?? null,
    // by name ("Vehicle Maintenance"): the service's keys (`vehicle_maintence`) stay on the wire
    basic_alerts: BASIC_CATEGORIES.filter((basic) => profile[`basic_alert_${basic}`] === true).map(
      (basic) => BASIC_LABELS[basic],
    ),
    out_of_service: profile.out_of_service_flag ?? null,
    linked_warnings: linkedWarnings(profile),
    snapshot_date: verdict.snapshot_date,
  };
}
