import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../vetting/index.ts';
import { changeSeverity, severityContext, worstFirst, worstSeverity } from './change-severity.ts';

const change = (field: string, prior: unknown, current: unknown) => ({ field, prior, current });

describe('changeSeverity', () => {
  it('names what happened in a few words', () => {
    expect(changeSeverity(change('authority_common', 'Active', 'Inactive'))).toMatchObject({
      tier: 'authority',
      headline: 'Common authority inactive',
    });
    expect(changeSeverity(change('indicator_authority', true, false)).headline).toBe(
      'Authority revoked',
    );
    expect(changeSeverity(change('total_revocations', 1, 2)).tier).toBe('authority');
    expect(changeSeverity(change('out_of_service_flag', false, true))).toMatchObject({
      tier: 'out_of_service',
      headline: 'Out of service',
    });
    expect(changeSeverity(change('usdot_status', 'ACTIVE', 'OUT OF SERVICE')).tier).toBe(
      'out_of_service',
    );
    expect(changeSeverity(change('usdot_status', 'ACTIVE', 'INACTIVE')).tier).toBe('authority');
    expect(changeSeverity(change('indicator_insurance', true, false))).toMatchObject({
      tier: 'insurance',
      headline: 'Insurance cancelled',
    });
    expect(changeSeverity(change('insurance_bipd_on_file', '750000', '0')).headline).toBe(
      'Liability insurance cancelled',
    );
    expect(
      changeSeverity(change('safety_rating_desc', 'Satisfactory', 'Unsatisfactory')),
    ).toMatchObject({
      tier: 'safety',
      headline: 'Safety rating Unsatisfactory',
    });
    expect(changeSeverity(change('telephone_number', '5550001', '5550002'))).toMatchObject({
      tier: 'contact',
      headline: 'Phone changed',
    });
    expect(changeSeverity(change('total_power_units', 12, 16))).toMatchObject({
      tier: 'other',
      headline: 'Power units changed',
    });
  });

  it('reads good news with the rest: authority back, insurance filed again', () => {
    expect(changeSeverity(change('authority_common', 'Inactive', 'Active')).tier).toBe('other');
    expect(changeSeverity(change('indicator_insurance', false, true)).tier).toBe('other');
    expect(changeSeverity(change('out_of_service_flag', true, false)).tier).toBe('other');
    expect(changeSeverity(change('insurance_bipd_on_file', '0', '750000')).tier).toBe('other');
  });
});

describe('worstFirst', () => {
  it('orders authority, out of service, insurance, safety, contact, then the rest', () => {
    // the order the service sent for 4418207 in issue 29: the revocation came fifth
    const sent = [
      change('total_power_units', 3, 4),
      change('email_address', 'a@x.com', 'b@x.com'),
      change('basic_alert_unsafe_driving', false, true),
      change('safety_rating_desc', 'Satisfactory', 'Conditional'),
      change('authority_common', 'Active', 'Inactive'),
      change('insurance_pending_cancel_date', null, '2026-12-20'),
      change('indicator_insurance', true, false),
      change('out_of_service_flag', false, true),
      change('risk_score', 'LOW', 'HIGH'),
    ];
    expect(worstFirst(sent).map((c) => c.field)).toEqual([
      'authority_common',
      'out_of_service_flag',
      'indicator_insurance',
      'insurance_pending_cancel_date',
      'safety_rating_desc',
      'basic_alert_unsafe_driving',
      'email_address',
      'total_power_units',
      'risk_score',
    ]);
    expect(worstSeverity(sent)?.headline).toBe('Common authority inactive');
    expect(worstSeverity([])).toBeUndefined();
  });

  it('keeps equally bad changes in their order and does not touch its input', () => {
    const sent = [change('telephone_number', 'a', 'b'), change('email_address', 'c', 'd')];
    expect(worstFirst(sent)).toEqual(sent);
    expect(worstFirst([...sent].reverse())).toEqual([...sent].reverse());
  });
});

describe('insurance below the policy', () => {
  it('ranks cover under the policy minimum with insurance losses, even when it went up', () => {
    const settings = defaultSettings();
    settings.bipd_minimum = { ...settings.bipd_minimum, enabled: true, threshold: 1_000_000 };
    const context = severityContext(settings);
    expect(context.minimums).toEqual({ bipd: 1_000_000 });
    const raised = change('insurance_bipd_on_file', '500000', '750000');
    expect(changeSeverity(raised).tier).toBe('other');
    expect(changeSeverity(raised, context)).toMatchObject({
      tier: 'insurance',
      headline: 'Liability insurance below the policy minimum',
    });
    expect(
      worstFirst([change('telephone_number', 'a', 'b'), raised], context).map((c) => c.field),
    ).toEqual(['insurance_bipd_on_file', 'telephone_number']);
    // a rule that is off asks nothing
    expect(severityContext(defaultSettings()).minimums).toEqual({});
  });
});
