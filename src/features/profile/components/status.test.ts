import { describe, expect, it } from 'vitest';
import { parseProfile, type Profile } from '../../../lib/service/index.ts';
import { defaultSettings, type Policy } from '../../../lib/vetting/index.ts';
import { docketsOf, riskBadge, statusBadges } from './status.ts';

/** An interstate for-hire carrier in good order: every badge the policy judges passes. */
const HEALTHY = {
  dot_number: '1000001',
  snapshot_date: '2026-11-16',
  usdot_status: 'Active',
  out_of_service_flag: false,
  entity_type_desc: 'Carrier',
  carrier_operation_desc: 'interstate',
  operation_class_authorized_for_hire: true,
  authority_common: 'Active',
  indicator_authority: true,
  insurance_bipd_on_file: '1000000',
  insurance_bipd_required: '750000',
  indicator_insurance: true,
  safety_rating_desc: 'Satisfactory',
  basic_percentile_unsafe_driving: 0.3,
  inspections_total: '40',
  inspections_vehicle: '30',
  inspections_driver: '40',
  inspections_vehicle_out_of_service_pct: '0.10',
  inspections_driver_out_of_service_pct: '0.03',
  dot_age: '5000',
};

function profileOf(raw: Record<string, unknown>): Profile {
  return parseProfile({ ...HEALTHY, ...raw }).value;
}

function badgesOf(raw: Record<string, unknown>, policy?: Policy) {
  return Object.fromEntries(statusBadges(profileOf(raw), policy).map((badge) => [badge.id, badge]));
}

describe('status badges', () => {
  it('pass a carrier in good order on every judged badge', () => {
    const badges = badgesOf({});
    for (const id of ['authority', 'insurance', 'rating', 'carrier-safety'])
      expect(badges[id], id).toMatchObject({ tone: 'good' });
    expect(badges['new-entrant']).toBeUndefined();
  });

  it('warn of a pending insurance cancellation instead of passing the insurance', () => {
    const badges = badgesOf({
      insurance_history: [
        {
          insurance_type_code: 'BIPD',
          insurance_status: 'A',
          cancel_effective_date: '2026-12-11',
        },
      ],
    });
    expect(badges.insurance).toMatchObject({
      value: 'Cancellation pending (11 Dec 2026)',
      tone: 'warn',
    });
    // a cancellation that already took effect before the snapshot is not pending
    const past = badgesOf({ insurance_pending_cancel_date: '2026-01-01' });
    expect(past.insurance).toMatchObject({ value: 'Pass', tone: 'good' });
  });

  it('follow the team policy: a pending cancellation set to fail is a failing badge', () => {
    const settings = defaultSettings();
    settings.pending_cancellation = { ...settings.pending_cancellation, outcome: 'fail' };
    const badges = badgesOf(
      { insurance_pending_cancel_date: '2026-12-11' },
      {
        version: 2,
        settings,
      },
    );
    expect(badges.insurance).toMatchObject({
      value: 'Cancellation pending (11 Dec 2026)',
      tone: 'bad',
    });
  });

  it('never pass a broker without carrier authority for hauling', () => {
    const badges = badgesOf({
      entity_type_desc: 'Broker',
      authority_common: 'None',
      authority_broker: 'Active',
      indicator_authority: true,
    });
    expect(badges.authority).toMatchObject({
      value: 'Broker only, no carrier authority',
      tone: 'info',
    });
    const lapsed = badgesOf({
      entity_type_desc: 'Broker',
      authority_common: 'None',
      authority_broker: 'Inactive',
    });
    expect(lapsed.authority).toMatchObject({ value: 'Fail', tone: 'bad' });
  });

  it('fail missing authority and BIPD below the requirement; neutral where not applicable', () => {
    const failing = badgesOf({ authority_common: 'Inactive', insurance_bipd_on_file: '0' });
    expect(failing.authority).toMatchObject({ value: 'Fail', tone: 'bad' });
    expect(failing.insurance).toMatchObject({ value: 'Fail', tone: 'bad' });
    const intrastate = badgesOf({
      carrier_operation_desc: 'intrastate',
      insurance_bipd_required: undefined,
    });
    expect(intrastate.authority).toMatchObject({ value: 'Not applicable', tone: 'neutral' });
    expect(intrastate.insurance).toMatchObject({ value: 'Not applicable', tone: 'neutral' });
  });

  it('never show green on a rule that lacked its data', () => {
    const badges = badgesOf({
      safety_rating_desc: undefined,
      basic_percentile_unsafe_driving: undefined,
      inspections_total: '0',
      inspections_vehicle: '0',
      inspections_driver: '0',
    });
    expect(badges.rating).toMatchObject({ value: 'Not rated', tone: 'neutral' });
    // no inspections: the OOS rule's "not enough data" yields review under the default policy
    expect(badges['carrier-safety']).toMatchObject({ value: 'Not enough data', tone: 'warn' });
  });

  it('read an absent risk score as "Not scored" and show the probability otherwise', () => {
    expect(riskBadge(parseProfile({}).value)).toMatchObject({
      value: 'Not scored',
      tone: 'neutral',
    });
    expect(
      riskBadge(parseProfile({ risk_score: 'High', risk_score_probability: 0.443 }).value),
    ).toMatchObject({ value: 'High (44.3%)', tone: 'bad' });
  });

  it('mark a new entrant as a warning while the new-entrant rule fires', () => {
    expect(badgesOf({ dot_age: '212' })['new-entrant']).toMatchObject({
      value: '212 days',
      tone: 'warn',
    });
    expect(badgesOf({ dot_age: '540' })['new-entrant']).toBeUndefined();
  });

  it('show out of service, USDOT status, safety rating and ISS', () => {
    const badges = badgesOf({
      out_of_service_flag: 'Y',
      usdot_status: 'Inactive',
      safety_rating_desc: 'Conditional',
      iss_value: '85',
      iss_recommendation: 'INSPECT',
    });
    expect(badges.oos).toMatchObject({ value: 'Yes', tone: 'bad' });
    expect(badges.usdot).toMatchObject({ value: 'Inactive', tone: 'bad' });
    expect(badges.rating).toMatchObject({ value: 'Conditional', tone: 'warn' });
    expect(badgesOf({ safety_rating_desc: 'Unsatisfactory' }).rating).toMatchObject({
      tone: 'bad',
    });
    expect(badges.iss).toMatchObject({ value: '85 · INSPECT', tone: 'bad' });
  });
});

describe('docketsOf', () => {
  it('lists the main docket first, then the others of icc_dockets, once each', () => {
    const { value } = parseProfile({ docket: 'MC823456', icc_dockets: 'MC823456,FF012844' });
    expect(docketsOf(value)).toEqual(['MC823456', 'FF012844']);
    expect(docketsOf(parseProfile({}).value)).toEqual([]);
  });
});
