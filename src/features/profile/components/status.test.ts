import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../lib/service/index.ts';
import { NEW_ENTRANT_DAYS, docketsOf, newEntrantBadge, riskBadge, statusBadges } from './status.ts';

function badgesOf(raw: Record<string, unknown>) {
  return Object.fromEntries(
    statusBadges(parseProfile(raw).value).map((badge) => [badge.id, badge]),
  );
}

describe('status badges', () => {
  it('fail a tri-state indicator only on an explicit false', () => {
    const passing = badgesOf({ indicator_authority: true, indicator_insurance: 'Y' });
    expect(passing.authority).toMatchObject({ value: 'Pass', tone: 'good' });
    expect(passing.insurance).toMatchObject({ value: 'Pass', tone: 'good' });
    const failing = badgesOf({ indicator_authority: false, indicator_carrier_safety: 'false' });
    expect(failing.authority).toMatchObject({ value: 'Fail', tone: 'bad' });
    expect(failing['carrier-safety']).toMatchObject({ value: 'Fail', tone: 'bad' });
    const unknown = badgesOf({ indicator_insurance: null });
    expect(unknown.insurance).toMatchObject({ value: 'Not applicable', tone: 'neutral' });
    expect(unknown.authority).toMatchObject({ value: 'Not applicable', tone: 'neutral' });
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

  it('mark a new entrant below 540 days only', () => {
    expect(newEntrantBadge(212)).toMatchObject({ value: '212 days', tone: 'info' });
    expect(newEntrantBadge(NEW_ENTRANT_DAYS)).toBeUndefined();
    expect(newEntrantBadge(undefined)).toBeUndefined();
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
