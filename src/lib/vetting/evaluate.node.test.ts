// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseProfile, type Profile } from '../service/index.ts';
import { fixtureObject } from '../service/fixtures.test-support.ts';
import { CURATED_DOTS, sandboxProfile } from '../../test/sandbox-profiles.node.ts';
import {
  RULES,
  applySettingsChange,
  defaultSettings,
  describeChanges,
  evaluate,
  readStoredSettings,
  reevaluate,
  type Outcome,
  type Policy,
  type RuleId,
  type RuleResult,
} from './index.ts';

const POLICY: Policy = { version: 1, settings: defaultSettings() };

/** A profile parsed from wire-shaped fields (strings for counters, as the service sends them). */
function profile(raw: Record<string, unknown>): Profile {
  return parseProfile({ snapshot_date: '2026-11-16', ...raw }).value;
}

/** A healthy interstate for-hire carrier: every default rule passes. */
const HEALTHY = {
  dot_number: '1000001',
  usdot_status: 'Active',
  out_of_service_flag: false,
  entity_type_desc: 'Carrier',
  carrier_operation_desc: 'interstate',
  operation_class_authorized_for_hire: true,
  authority_common: 'Active',
  authority_contract: 'None',
  authority_age_common_active: '4000',
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
  natl_avg_oos_vehicle: '0.2226',
  natl_avg_oos_driver: '0.0667',
  dot_age: '5000',
  phone_last_changed: '2020-01-01',
  physical_address_street: '12 MAIN ST',
};

function result(raw: Record<string, unknown>, rule: RuleId, policy = POLICY): RuleResult {
  const found = evaluate(profile(raw), policy).reasons.find((r) => r.rule === rule);
  if (!found) throw new Error(`rule ${rule} not evaluated`);
  return found;
}

function outcomeOf(raw: Record<string, unknown>, rule: RuleId): Outcome {
  return result(raw, rule).outcome;
}

describe('the default policy', () => {
  it('passes a healthy carrier on every rule', () => {
    const verdict = evaluate(profile(HEALTHY), POLICY);
    expect(verdict.verdict).toBe('pass');
    expect(verdict.reasons.filter((r) => r.outcome !== 'pass')).toEqual([]);
    expect(verdict.policy_version).toBe(1);
    expect(verdict.reference_date).toBe('2026-11-16');
  });

  it('fails a USDOT number that is not Active or is out of service', () => {
    expect(outcomeOf({ ...HEALTHY, usdot_status: 'Inactive' }, 'usdot_status')).toBe('fail');
    expect(outcomeOf({ ...HEALTHY, out_of_service_flag: true }, 'usdot_status')).toBe('fail');
    const missing = result(
      { ...HEALTHY, usdot_status: undefined, out_of_service_flag: undefined },
      'usdot_status',
    );
    expect(missing).toMatchObject({ outcome: 'review', not_enough_data: true });
  });

  it('fails an interstate for-hire carrier without Active common or contract authority', () => {
    const r = result(
      { ...HEALTHY, authority_common: 'Inactive', authority_contract: 'None' },
      'operating_authority',
    );
    expect(r.outcome).toBe('fail');
    expect(r.fields).toContainEqual({ name: 'authority_common', value: 'Inactive' });
    expect(r).toMatchObject({ tab: 'authority', anchor: 'authority-status' });
    expect(
      outcomeOf(
        { ...HEALTHY, authority_common: 'None', authority_contract: 'Active' },
        'operating_authority',
      ),
    ).toBe('pass');
  });

  it('does not fail on an absent or null indicator_authority', () => {
    const bare = { ...HEALTHY, authority_common: undefined, authority_contract: undefined };
    expect(result({ ...bare, indicator_authority: null }, 'operating_authority')).toMatchObject({
      outcome: 'review',
      not_enough_data: true,
    });
    expect(outcomeOf({ ...bare, indicator_authority: undefined }, 'operating_authority')).toBe(
      'review',
    );
    expect(outcomeOf({ ...bare, indicator_authority: false }, 'operating_authority')).toBe('fail');
  });

  it('fails a broker without Active broker authority, and not an intrastate carrier', () => {
    const broker = {
      ...HEALTHY,
      entity_type_desc: 'Broker',
      operation_class_authorized_for_hire: false,
    };
    expect(outcomeOf({ ...broker, authority_broker: 'Inactive' }, 'operating_authority')).toBe(
      'fail',
    );
    expect(outcomeOf({ ...broker, authority_broker: 'Active' }, 'operating_authority')).toBe(
      'pass',
    );
    const intrastate = {
      ...HEALTHY,
      carrier_operation_desc: 'intrastate',
      authority_common: 'None',
      indicator_authority: null,
    };
    expect(result(intrastate, 'operating_authority')).toMatchObject({
      outcome: 'pass',
      not_applicable: true,
    });
  });

  it('fails BIPD on file below required; not required or intrastate passes', () => {
    const r = result({ ...HEALTHY, insurance_bipd_on_file: '500000' }, 'bipd_insurance');
    expect(r.outcome).toBe('fail');
    expect(r.message).toContain('$500,000');
    expect(r.fields).toContainEqual({ name: 'insurance_bipd_required', value: 750000 });
    expect(outcomeOf({ ...HEALTHY, insurance_bipd_required: '0' }, 'bipd_insurance')).toBe('pass');
    const intrastate = {
      ...HEALTHY,
      carrier_operation_desc: 'intrastate',
      insurance_bipd_required: undefined,
      insurance_bipd_on_file: undefined,
    };
    expect(result(intrastate, 'bipd_insurance')).toMatchObject({
      outcome: 'pass',
      not_applicable: true,
    });
    expect(
      result({ ...HEALTHY, insurance_bipd_on_file: undefined }, 'bipd_insurance'),
    ).toMatchObject({
      outcome: 'review',
      not_enough_data: true,
    });
  });

  it('reviews a pending insurance cancellation', () => {
    const history = [
      { insurance_type_code: 'BIPD', insurance_status: 'A', cancel_effective_date: '2026-12-11' },
    ];
    expect(outcomeOf({ ...HEALTHY, insurance_history: history }, 'pending_cancellation')).toBe(
      'review',
    );
    expect(
      outcomeOf(
        { ...HEALTHY, insurance_pending_cancel_date: '2026-12-01' },
        'pending_cancellation',
      ),
    ).toBe('review');
    const past = [{ insurance_type_code: 'BIPD', cancel_effective_date: '2025-01-01' }];
    expect(outcomeOf({ ...HEALTHY, insurance_history: past }, 'pending_cancellation')).toBe('pass');
    const flagged = result(
      { ...HEALTHY, risk_factors: { pending_insurance_cancellation: true } },
      'pending_cancellation',
    );
    expect(flagged).toMatchObject({ outcome: 'review', vendor_derived: true });
  });

  it('fails Unsatisfactory, reviews Conditional; no rating is not enough data, not a failure', () => {
    expect(
      outcomeOf({ ...HEALTHY, safety_rating_desc: 'Unsatisfactory' }, 'rating_unsatisfactory'),
    ).toBe('fail');
    expect(outcomeOf({ ...HEALTHY, safety_rating_desc: 'Conditional' }, 'rating_conditional')).toBe(
      'review',
    );
    expect(
      outcomeOf({ ...HEALTHY, safety_rating_desc: 'Conditional' }, 'rating_unsatisfactory'),
    ).toBe('pass');
    const unrated = evaluate(profile({ ...HEALTHY, safety_rating_desc: 'Not Rated' }), POLICY);
    expect(unrated.verdict).toBe('pass');
    expect(unrated.reasons.find((r) => r.rule === 'rating_unsatisfactory')).toMatchObject({
      not_enough_data: true,
      message: expect.stringMatching(/^Not enough data/),
    });
  });

  it('reviews any BASIC alert, by flag or by percentile over the threshold, naming computed BASICs', () => {
    expect(outcomeOf({ ...HEALTHY, basic_alert_hours_of_service: true }, 'basic_alerts')).toBe(
      'review',
    );
    expect(outcomeOf({ ...HEALTHY, basic_percentile_unsafe_driving: 0.7 }, 'basic_alerts')).toBe(
      'review',
    );
    // the profile's own threshold wins over FMCSA's default for the carrier type
    const own = {
      ...HEALTHY,
      basic_percentile_unsafe_driving: 0.7,
      intervention_threshold_unsafe_driving: 0.75,
    };
    expect(outcomeOf(own, 'basic_alerts')).toBe('pass');
    // passenger carriers: 0.50
    expect(
      outcomeOf(
        { ...HEALTHY, passenger: true, basic_percentile_unsafe_driving: 0.56 },
        'basic_alerts',
      ),
    ).toBe('review');
    const crash = result({ ...HEALTHY, basic_percentile_crash_indicator: 0.71 }, 'basic_alerts');
    expect(crash).toMatchObject({ outcome: 'review', vendor_derived: true });
    expect(crash.message).toContain('computed by the service');
    const none = result({ ...HEALTHY, basic_percentile_unsafe_driving: undefined }, 'basic_alerts');
    expect(none).toMatchObject({ outcome: 'pass', not_enough_data: true });
  });

  it('reviews out-of-service rates above the national average by more than the margin', () => {
    expect(
      outcomeOf({ ...HEALTHY, inspections_driver_out_of_service_pct: '0.2' }, 'oos_rates'),
    ).toBe('review');
    // 25% vehicle against 22.26%: within 5 points
    expect(
      outcomeOf({ ...HEALTHY, inspections_vehicle_out_of_service_pct: '0.25' }, 'oos_rates'),
    ).toBe('pass');
    const strict = applySettingsChange(POLICY.settings, { oos_rates: { threshold: 0 } });
    if (!strict.ok) throw new Error(strict.error);
    const r = result({ ...HEALTHY, inspections_vehicle_out_of_service_pct: '0.25' }, 'oos_rates', {
      version: 2,
      settings: strict.value,
    });
    expect(r.outcome).toBe('review');
    const none = {
      ...HEALTHY,
      inspections_total: '0',
      inspections_vehicle: '0',
      inspections_driver: '0',
    };
    expect(result(none, 'oos_rates')).toMatchObject({ outcome: 'review', not_enough_data: true });
  });

  it('reviews a new entrant and a young authority', () => {
    expect(outcomeOf({ ...HEALTHY, dot_age: '212' }, 'new_entrant')).toBe('review');
    expect(outcomeOf({ ...HEALTHY, dot_age: '540' }, 'new_entrant')).toBe('pass');
    expect(
      outcomeOf({ ...HEALTHY, dot_age: undefined, added_date: '2026-10-01' }, 'new_entrant'),
    ).toBe('review');
    expect(outcomeOf({ ...HEALTHY, authority_age_common_active: '60' }, 'authority_age')).toBe(
      'review',
    );
    expect(outcomeOf({ ...HEALTHY, authority_age_common_active: '160' }, 'authority_age')).toBe(
      'pass',
    );
  });

  it('reviews a phone, e-mail or address change within 30 days of the snapshot', () => {
    const r = result({ ...HEALTHY, email_last_changed: '2026-11-02' }, 'contact_changes');
    expect(r).toMatchObject({ outcome: 'review', tab: 'contact' });
    expect(r.message).toContain('e-mail 14 days ago');
    expect(outcomeOf({ ...HEALTHY, address_last_changed: '2026-09-01' }, 'contact_changes')).toBe(
      'pass',
    );
  });

  it('reviews identifiers shared with an out-of-service carrier, known from the profile itself', () => {
    const linked = {
      ...HEALTHY,
      network_graph_telephone_number: ['1000001', '777'],
      network_graph_equipment: ['777'],
      network_graph_equipment_ext: [
        {
          dot_number: '777',
          legal_name: 'OLD CO',
          usdot_status: 'Inactive',
          out_of_service_flag: true,
          count_shared_vins: '2',
        },
      ],
    };
    const r = result(linked, 'shared_identifiers');
    expect(r.outcome).toBe('review');
    expect(r.message).toContain('telephone and equipment (2 VINs) with DOT 777 OLD CO');
    expect(r.tab).toBe('network');
    // a linked carrier whose standing the profile does not state is not held against the carrier
    expect(
      outcomeOf({ ...HEALTHY, network_graph_telephone_number: ['777'] }, 'shared_identifiers'),
    ).toBe('pass');
    const asFail = applySettingsChange(POLICY.settings, {
      shared_identifiers: { outcome: 'fail' },
    });
    if (!asFail.ok) throw new Error(asFail.error);
    expect(evaluate(profile(linked), { version: 2, settings: asFail.value }).verdict).toBe('fail');
  });

  it('reviews a virtual or mailbox physical address, not a PO box mailing address', () => {
    expect(
      outcomeOf({ ...HEALTHY, physical_address_street: '55 RIVER RD PMB 114' }, 'virtual_address'),
    ).toBe('review');
    expect(
      outcomeOf({ ...HEALTHY, physical_address_street: 'P.O. BOX 22' }, 'virtual_address'),
    ).toBe('review');
    expect(
      outcomeOf({ ...HEALTHY, mailing_address_street: 'PO BOX 2280' }, 'virtual_address'),
    ).toBe('pass');
    const flagged = result(
      { ...HEALTHY, risk_factors: { virtual_physical_mailing_address: true } },
      'virtual_address',
    );
    expect(flagged).toMatchObject({ outcome: 'review', vendor_derived: true });
  });

  it('leaves the vendor risk score off by default; when on, it is labelled vendor-derived', () => {
    expect(
      evaluate(profile({ ...HEALTHY, risk_score: 'Very High' }), POLICY).reasons.map((r) => r.rule),
    ).not.toContain('vendor_risk_score');
    const on = applySettingsChange(POLICY.settings, { vendor_risk_score: { enabled: true } });
    if (!on.ok) throw new Error(on.error);
    const r = result({ ...HEALTHY, risk_score: 'Very High' }, 'vendor_risk_score', {
      version: 2,
      settings: on.value,
    });
    expect(r).toMatchObject({ outcome: 'review', vendor_derived: true });
  });

  it('never fails a sparse profile for lack of data', () => {
    const sparse = evaluate(profile({ dot_number: '9' }), POLICY);
    expect(sparse.verdict).toBe('review');
    expect(sparse.reasons.filter((r) => r.outcome === 'fail')).toEqual([]);
    const empty = evaluate(parseProfile({}).value, POLICY, new Date('2026-05-01T12:00:00Z'));
    expect(empty.verdict).not.toBe('fail');
    expect(empty.reference_date).toBe('2026-05-01');
    expect(empty.snapshot_date).toBeNull();
  });

  it('lists reasons worst first and every reason names a tab and its fields', () => {
    const verdict = evaluate(
      profile({ ...HEALTHY, usdot_status: 'Inactive', dot_age: '100' }),
      POLICY,
    );
    expect(verdict.reasons[0]).toMatchObject({ rule: 'usdot_status', outcome: 'fail' });
    expect(verdict.reasons[1]).toMatchObject({ rule: 'new_entrant', outcome: 'review' });
    for (const reason of verdict.reasons) {
      expect(reason.tab).toBeTruthy();
      expect(reason.message).toBeTruthy();
    }
  });

  it('turns a disabled rule off', () => {
    const off = applySettingsChange(POLICY.settings, { new_entrant: { enabled: false } });
    if (!off.ok) throw new Error(off.error);
    const verdict = evaluate(profile({ ...HEALTHY, dot_age: '100' }), {
      version: 2,
      settings: off.value,
    });
    expect(verdict.verdict).toBe('pass');
    expect(verdict.reasons.map((r) => r.rule)).not.toContain('new_entrant');
  });
});

describe('the live-shape carrier (265752)', () => {
  it('fails on its Inactive status, authority and BIPD, with the evidence values', () => {
    const verdict = evaluate(parseProfile(fixtureObject('profile_265752')).value, POLICY);
    expect(verdict.verdict).toBe('fail');
    expect(verdict.snapshot_date).toBe('2026-09-16');
    const failing = verdict.reasons.filter((r) => r.outcome === 'fail').map((r) => r.rule);
    expect(failing).toEqual(['usdot_status', 'operating_authority', 'bipd_insurance']);
    expect(verdict.reasons.find((r) => r.rule === 'bipd_insurance')?.fields).toContainEqual({
      name: 'insurance_bipd_required',
      value: 5000000,
    });
  });
});

/** The expected verdict of every curated sandbox carrier under the default policy (docs/vetting.md). */
const CURATED: Record<string, { verdict: Outcome; deciding: RuleId[] }> = {
  '568253': { verdict: 'pass', deciding: [] },
  '265752': {
    verdict: 'fail',
    deciding: ['usdot_status', 'operating_authority', 'bipd_insurance'],
  },
  '4418207': {
    verdict: 'review',
    deciding: ['new_entrant', 'contact_changes', 'shared_identifiers'],
  },
  '3187452': {
    verdict: 'fail',
    deciding: [
      'usdot_status',
      'operating_authority',
      'bipd_insurance',
      'rating_unsatisfactory',
      'basic_alerts',
      'oos_rates',
    ],
  },
  '2214589': { verdict: 'review', deciding: ['rating_conditional', 'basic_alerts', 'oos_rates'] },
  '2987310': { verdict: 'pass', deciding: [] },
  '1455872': { verdict: 'pass', deciding: [] },
  '1893346': { verdict: 'review', deciding: ['basic_alerts'] },
  '1120987': { verdict: 'review', deciding: ['basic_alerts'] },
  '2456781': { verdict: 'review', deciding: ['pending_cancellation', 'contact_changes'] },
};

describe('the curated sandbox carriers', () => {
  it('covers all ten', () => {
    expect(Object.keys(CURATED).sort()).toEqual([...CURATED_DOTS].sort());
  });

  for (const [dot, expected] of Object.entries(CURATED)) {
    it(`${dot}: ${expected.verdict}${expected.deciding.length ? ` on ${expected.deciding.join(', ')}` : ''}`, () => {
      const verdict = evaluate(sandboxProfile(dot).parsed.value, POLICY);
      expect(verdict.verdict).toBe(expected.verdict);
      expect(verdict.reasons.filter((r) => r.outcome !== 'pass').map((r) => r.rule)).toEqual(
        expected.deciding,
      );
      // lack of data alone never fails a carrier
      for (const reason of verdict.reasons.filter((r) => r.not_enough_data))
        expect(reason.outcome).not.toBe('fail');
    });
  }

  it('names the section that shows the evidence of every rule, for every carrier', () => {
    // every rule enabled (the vendor risk score is off by default): a reason without an anchor
    // links to the top of its tab, which shows nothing in particular
    const settings = defaultSettings();
    for (const id of Object.keys(settings) as RuleId[]) settings[id].enabled = true;
    const everyRule: Policy = { version: 2, settings };
    for (const dot of CURATED_DOTS) {
      const { reasons } = evaluate(sandboxProfile(dot).parsed.value, everyRule);
      expect(reasons).toHaveLength(RULES.length);
      for (const reason of reasons)
        expect(reason.anchor, `${dot} ${reason.rule}`).toMatch(/^[a-z]+(-[a-z]+)+$/);
    }
    // the anchors of the rules whose evidence is on the overview or its header
    const swiftpath = evaluate(sandboxProfile('4418207').parsed.value, everyRule).reasons;
    const anchorOf = (rule: RuleId) => swiftpath.find((r) => r.rule === rule)?.anchor;
    expect(anchorOf('usdot_status')).toBe('profile-status');
    expect(anchorOf('vendor_risk_score')).toBe('profile-status');
    expect(anchorOf('new_entrant')).toBe('overview-registration');
  });

  it('4418207 names the identifiers it shares with the out-of-service carrier 3187452', () => {
    const reason = evaluate(sandboxProfile('4418207').parsed.value, POLICY).reasons.find(
      (r) => r.rule === 'shared_identifiers',
    );
    expect(reason?.message).toBe(
      'Shares physical address, telephone and equipment (4 VINs) with DOT 3187452 RAPID ROUTE CARRIERS LLC, which is out of service (USDOT Inactive).',
    );
  });
});

describe('policy settings', () => {
  it('has defaults for every rule', () => {
    const settings = defaultSettings();
    expect(Object.keys(settings)).toEqual(RULES.map((r) => r.id));
    expect(settings.contact_changes.threshold).toBe(30);
    expect(settings.authority_age.threshold).toBe(90);
    expect(settings.new_entrant.threshold).toBe(540);
  });

  it('refuses unknown rules, outcomes a rule cannot yield, fail for lack of data and thresholds out of range', () => {
    const base = defaultSettings();
    expect(applySettingsChange(base, { nope: {} })).toMatchObject({
      ok: false,
      code: 'unknown_rule',
    });
    expect(applySettingsChange(base, { new_entrant: { outcome: 'pass' } })).toMatchObject({
      ok: false,
      code: 'invalid_setting',
    });
    expect(applySettingsChange(base, { new_entrant: { no_data: 'fail' } })).toMatchObject({
      ok: false,
      code: 'invalid_setting',
    });
    expect(applySettingsChange(base, { new_entrant: { threshold: -1 } })).toMatchObject({
      ok: false,
      code: 'invalid_setting',
    });
    expect(applySettingsChange(base, { usdot_status: { threshold: 3 } })).toMatchObject({
      ok: false,
      code: 'invalid_setting',
    });
    expect(applySettingsChange(base, { usdot_status: { colour: 'red' } })).toMatchObject({
      ok: false,
      code: 'invalid_setting',
    });
    expect(applySettingsChange(base, [])).toMatchObject({ ok: false, code: 'invalid_rules' });
  });

  it('describes what changed, and reads stored settings back with defaults for missing rules', () => {
    const changed = applySettingsChange(defaultSettings(), {
      new_entrant: { threshold: 365 },
      shared_identifiers: { outcome: 'fail' },
      virtual_address: { enabled: false },
    });
    if (!changed.ok) throw new Error(changed.error);
    expect(describeChanges(defaultSettings(), changed.value)).toEqual([
      'New entrant: threshold 540 → 365',
      'Identifiers shared with a carrier in bad standing: outcome review → fail',
      'Virtual or mailbox address: enabled on → off',
    ]);
    const { new_entrant: _dropped, ...partial } = changed.value;
    const read = readStoredSettings({ ...partial, unknown_rule: { enabled: true } });
    expect(read.new_entrant.threshold).toBe(540);
    expect(read.shared_identifiers.outcome).toBe('fail');
    expect(Object.keys(read)).toEqual(RULES.map((r) => r.id));
  });
});

describe('re-evaluating a recorded verdict on changed fields', () => {
  const recorded = evaluate(sandboxProfile('568253').parsed.value, POLICY);

  it('starts from Pass and stays Pass for a change no rule reads', () => {
    expect(recorded.verdict).toBe('pass');
    const same = reevaluate(
      recorded,
      [{ field: 'total_power_units', current: '900', date: '2026-11-20' }],
      POLICY,
    );
    expect(same).toEqual({ verdict: 'pass', touched: [] });
  });

  it('fails when the USDOT status changes to Inactive, reviews a Conditional rating', () => {
    expect(reevaluate(recorded, [{ field: 'usdot_status', current: 'Inactive' }], POLICY)).toEqual({
      verdict: 'fail',
      touched: ['usdot_status'],
    });
    expect(
      reevaluate(recorded, [{ field: 'safety_rating_desc', current: 'Conditional' }], POLICY)
        .verdict,
    ).toBe('review');
  });

  it('reviews a phone change as a recent contact change, and a new BASIC alert', () => {
    const phone = reevaluate(
      recorded,
      [{ field: 'telephone_number', current: '5555550100', date: '2026-11-20' }],
      POLICY,
    );
    expect(phone.verdict).toBe('review');
    expect(phone.touched).toContain('contact_changes');
    expect(
      reevaluate(recorded, [{ field: 'basic_percentile_unsafe_driving', current: 0.7 }], POLICY)
        .verdict,
    ).toBe('review');
  });

  it('keeps the recorded outcome when the record lacks the data a touched rule needs', () => {
    // the record kept no inspection counts by vehicle/driver for this rule's pass; a change of the
    // inspection total alone must not turn the verdict into "not enough data"
    const result = reevaluate(recorded, [{ field: 'inspections_total', current: '0' }], POLICY);
    expect(result.verdict).not.toBe('fail');
  });
});
