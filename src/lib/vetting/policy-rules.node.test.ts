// @vitest-environment node
/**
 * The rules added with issue 29 (cargo and BIPD minimums, bond, cargo classes, hazmat, fleet size,
 * time in business, crashes, fatal crashes, out-of-service factor): each rule's pass / fire / no
 * data on wire-shaped input (amounts as strings and as numbers), on the live-shape and spec-shaped
 * 265752, their settings' validation, and old versions evaluating exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { parseProfile, parseProfileResponse, type Profile } from '../service/index.ts';
import { fixtureObject, specShapedProfileResponse } from '../service/fixtures.test-support.ts';
import { CURATED_DOTS, sandboxProfile } from '../../test/sandbox-profiles.node.ts';
import pinned from './fixtures/pre-rules-verdicts.json';
import {
  RULES,
  applySettingsChange,
  defaultSettings,
  describeChanges,
  evaluate,
  readStoredSettings,
  type Policy,
  type RuleId,
  type RuleResult,
  type RuleSettings,
} from './index.ts';

const NEW_RULES = [
  'bipd_minimum',
  'cargo_insurance',
  'surety_bond',
  'cargo_classes',
  'hazmat',
  'power_units',
  'time_in_business',
  'crash_count',
  'fatal_crashes',
  'oos_factor',
] as const satisfies readonly RuleId[];

function profile(raw: Record<string, unknown>): Profile {
  return parseProfile({ snapshot_date: '2026-11-16', ...raw }).value;
}

/** A healthy interstate for-hire carrier, wire-shaped (strings for counters and amounts). */
const CARRIER = {
  dot_number: '1000001',
  usdot_status: 'Active',
  entity_type_desc: 'Carrier',
  carrier_operation_desc: 'interstate',
  operation_class_authorized_for_hire: true,
  authority_common: 'Active',
  authority_age_common_active: '4000',
  insurance_bipd_on_file: '1000000',
  insurance_bipd_required: '750000',
  insurance_cargo_on_file: '100000',
  general_freight: true,
  refrigerated_foods: false,
  hazardous_material: false,
  total_power_units: '12',
  added_date: '2012-03-01',
  crashes_total: '1',
  crash_fatalities: '0',
  inspections_total: '40',
  inspections_vehicle: '30',
  inspections_driver: '40',
  inspections_vehicle_out_of_service_pct: '0.20',
  inspections_driver_out_of_service_pct: '0.05',
  natl_avg_oos_vehicle: '0.2226',
  natl_avg_oos_driver: '0.0667',
};

const BROKER = {
  dot_number: '1000002',
  usdot_status: 'Active',
  entity_type_desc: 'Broker',
  carrier_operation_desc: 'interstate',
  authority_broker: 'Active',
  authority_age_broker: '900',
  insurance_bond_on_file: '75000',
  insurance_bond_required: '75000',
};

/** The default policy with `rule` switched on (its defaults) and `change` applied. */
function policyWith(rule: RuleId, change: Partial<RuleSettings> = {}): Policy {
  const applied = applySettingsChange(defaultSettings(), {
    [rule]: { enabled: true, ...change },
  });
  if (!applied.ok) throw new Error(applied.error);
  return { version: 2, settings: applied.value };
}

function result(
  raw: Record<string, unknown>,
  rule: RuleId,
  change: Partial<RuleSettings> = {},
): RuleResult {
  return resultOn(profile(raw), rule, change);
}

function resultOn(p: Profile, rule: RuleId, change: Partial<RuleSettings> = {}): RuleResult {
  const found = evaluate(p, policyWith(rule, change)).reasons.find((r) => r.rule === rule);
  if (!found) throw new Error(`rule ${rule} not evaluated`);
  return found;
}

const outcome = (raw: Record<string, unknown>, rule: RuleId, change = {}) =>
  result(raw, rule, change).outcome;

describe('the new rules are off unless switched on', () => {
  it('are off in the default policy and name an anchor on the tab they point at', () => {
    const defaults = defaultSettings();
    for (const id of NEW_RULES) expect(defaults[id].enabled, id).toBe(false);
    const verdict = evaluate(profile(CARRIER), { version: 1, settings: defaults });
    expect(verdict.reasons.map((r) => r.rule)).not.toEqual(
      expect.arrayContaining([...NEW_RULES].slice(0, 1)),
    );
    expect(verdict.reasons.some((r) => (NEW_RULES as readonly string[]).includes(r.rule))).toBe(
      false,
    );
  });

  it('treats a rule the settings do not name as off (settings built before it existed)', () => {
    const old = Object.fromEntries(
      Object.entries(defaultSettings()).filter(
        ([id]) => !(NEW_RULES as readonly string[]).includes(id),
      ),
    ) as Policy['settings'];
    const verdict = evaluate(profile(CARRIER), { version: 1, settings: old });
    expect(verdict.verdict).toBe('pass');
    // every rule it names and enables, and none of the new ones
    const enabled = Object.values(old).filter((rule) => rule.enabled).length;
    expect(verdict.reasons).toHaveLength(enabled);
    expect(enabled).toBe(RULES.length - NEW_RULES.length - 1); // vendor_risk_score is off
  });
});

describe('bipd_minimum', () => {
  it('reviews BIPD below the team minimum, from a string or a number, and passes at it', () => {
    expect(outcome({ ...CARRIER, insurance_bipd_on_file: '750000' }, 'bipd_minimum')).toBe(
      'review',
    );
    expect(outcome({ ...CARRIER, insurance_bipd_on_file: 750000 }, 'bipd_minimum')).toBe('review');
    expect(outcome({ ...CARRIER, insurance_bipd_on_file: 1000000 }, 'bipd_minimum')).toBe('pass');
    const r = result({ ...CARRIER, insurance_bipd_on_file: '999999' }, 'bipd_minimum', {
      outcome: 'fail',
      threshold: 2_000_000,
    });
    expect(r).toMatchObject({ outcome: 'fail', tab: 'authority', anchor: 'authority-insurance' });
    expect(r.message).toBe('BIPD on file $999,999 is below the team’s $2,000,000.');
  });

  it('lacks data without an amount on file (review, never fail) and skips a broker', () => {
    const r = result({ ...CARRIER, insurance_bipd_on_file: undefined }, 'bipd_minimum', {
      outcome: 'fail',
    });
    expect(r).toMatchObject({ outcome: 'review', not_enough_data: true });
    expect(
      outcome({ ...CARRIER, insurance_bipd_on_file: '' }, 'bipd_minimum', { no_data: 'pass' }),
    ).toBe('pass');
    expect(result(BROKER, 'bipd_minimum')).toMatchObject({ outcome: 'pass', not_applicable: true });
  });
});

describe('cargo_insurance', () => {
  it('reviews cargo insurance below the minimum; passes at it; no data without an amount', () => {
    expect(outcome({ ...CARRIER, insurance_cargo_on_file: '5000' }, 'cargo_insurance')).toBe(
      'review',
    );
    expect(outcome({ ...CARRIER, insurance_cargo_on_file: 0 }, 'cargo_insurance')).toBe('review');
    expect(outcome({ ...CARRIER, insurance_cargo_on_file: '250000' }, 'cargo_insurance')).toBe(
      'pass',
    );
    expect(
      outcome({ ...CARRIER, insurance_cargo_on_file: '250000' }, 'cargo_insurance', {
        threshold: 250_001,
        outcome: 'fail',
      }),
    ).toBe('fail');
    expect(
      result({ ...CARRIER, insurance_cargo_on_file: undefined }, 'cargo_insurance'),
    ).toMatchObject({ outcome: 'review', not_enough_data: true, anchor: 'authority-insurance' });
    expect(
      result({ ...CARRIER, operation_class_authorized_for_hire: false }, 'cargo_insurance'),
    ).toMatchObject({ outcome: 'pass', not_applicable: true });
  });
});

describe('surety_bond', () => {
  it('fails a broker whose bond is below $75,000 or the amount required; passes at it', () => {
    expect(outcome(BROKER, 'surety_bond')).toBe('pass');
    expect(outcome({ ...BROKER, insurance_bond_on_file: '10000' }, 'surety_bond')).toBe('fail');
    expect(outcome({ ...BROKER, insurance_bond_on_file: 10000 }, 'surety_bond')).toBe('fail');
    expect(
      outcome({ ...BROKER, insurance_bond_on_file: 75000 }, 'surety_bond', { threshold: 100_000 }),
    ).toBe('fail');
    const r = result({ ...BROKER, insurance_bond_on_file: undefined }, 'surety_bond');
    expect(r).toMatchObject({ outcome: 'review', not_enough_data: true });
  });

  it('applies to a carrier the profile shows a bond requirement for, else not', () => {
    expect(result(CARRIER, 'surety_bond')).toMatchObject({ outcome: 'pass', not_applicable: true });
    expect(
      outcome(
        { ...CARRIER, insurance_bond_required: '75000', insurance_bond_on_file: '0' },
        'surety_bond',
      ),
    ).toBe('fail');
  });
});

describe('cargo_classes', () => {
  it('passes with no class asked, and when the asked classes hold', () => {
    expect(outcome(CARRIER, 'cargo_classes')).toBe('pass');
    expect(
      outcome(CARRIER, 'cargo_classes', {
        cargo_required: ['general_freight'],
        cargo_refused: ['chemicals'],
      }),
    ).toBe('pass');
  });

  it('fires on a required class not hauled or a refused class hauled', () => {
    const r = result(CARRIER, 'cargo_classes', { cargo_required: ['refrigerated_foods'] });
    expect(r).toMatchObject({ outcome: 'review', tab: 'fleet', anchor: 'fleet-cargo' });
    expect(r.message).toBe('The carrier does not haul Refrigerated food (required).');
    const refused = result({ ...CARRIER, chemicals: true }, 'cargo_classes', {
      cargo_refused: ['chemicals', 'livestock'],
      outcome: 'fail',
    });
    expect(refused).toMatchObject({ outcome: 'fail' });
    expect(refused.message).toBe('The carrier hauls Chemicals (refused).');
  });

  it('lacks data when the profile states no cargo class; a broker is not applicable', () => {
    const bare = { ...CARRIER, general_freight: undefined, refrigerated_foods: undefined };
    expect(
      result(bare, 'cargo_classes', { cargo_refused: ['chemicals'], outcome: 'fail' }),
    ).toMatchObject({ outcome: 'review', not_enough_data: true });
    expect(result(BROKER, 'cargo_classes', { cargo_required: ['meat'] })).toMatchObject({
      outcome: 'pass',
      not_applicable: true,
    });
  });
});

describe('hazmat', () => {
  it('required: reviews a carrier without hazmat; passes a hazmat or PHMSA-registered one', () => {
    expect(outcome(CARRIER, 'hazmat')).toBe('review');
    expect(outcome({ ...CARRIER, hazardous_material: true }, 'hazmat')).toBe('pass');
    expect(outcome({ ...CARRIER, phmsa_flag: true }, 'hazmat')).toBe('pass');
  });

  it('refused: fires on a hazmat carrier; no data without either flag', () => {
    expect(
      outcome({ ...CARRIER, hazardous_material: true }, 'hazmat', {
        hazmat: 'refused',
        outcome: 'fail',
      }),
    ).toBe('fail');
    expect(outcome(CARRIER, 'hazmat', { hazmat: 'refused' })).toBe('pass');
    const r = result({ ...CARRIER, hazardous_material: undefined }, 'hazmat', { outcome: 'fail' });
    expect(r).toMatchObject({
      outcome: 'review',
      not_enough_data: true,
      anchor: 'fleet-operation',
    });
  });
});

describe('power_units', () => {
  it('reviews a fleet under the minimum (string or number); no data without a count', () => {
    expect(outcome({ ...CARRIER, total_power_units: '1' }, 'power_units')).toBe('review');
    expect(outcome({ ...CARRIER, total_power_units: 1 }, 'power_units')).toBe('review');
    expect(outcome({ ...CARRIER, total_power_units: '2' }, 'power_units')).toBe('pass');
    expect(outcome(CARRIER, 'power_units', { threshold: 13, outcome: 'fail' })).toBe('fail');
    expect(result({ ...CARRIER, total_power_units: undefined }, 'power_units')).toMatchObject({
      outcome: 'review',
      not_enough_data: true,
      tab: 'fleet',
      anchor: 'fleet-counts',
    });
  });
});

describe('time_in_business', () => {
  it('reviews a USDOT number younger than N months, counted from added_date to the snapshot', () => {
    // 2025-11-17 → 2026-11-16: 11 whole months
    expect(outcome({ ...CARRIER, added_date: '2025-11-17' }, 'time_in_business')).toBe('review');
    expect(outcome({ ...CARRIER, added_date: '2025-11-16' }, 'time_in_business')).toBe('pass');
  });

  it('reviews young authority though the USDOT number is old; reads dot_age in days', () => {
    const r = result({ ...CARRIER, authority_age_common_active: '200' }, 'time_in_business');
    expect(r.outcome).toBe('review');
    expect(r.message).toBe('Oldest Active authority 6 months old (under 12 months).');
    expect(
      outcome(
        { ...CARRIER, added_date: undefined, dot_age: 300, authority_age_common_active: undefined },
        'time_in_business',
      ),
    ).toBe('review');
    expect(
      result(
        { ...CARRIER, added_date: undefined, authority_age_common_active: undefined },
        'time_in_business',
      ),
    ).toMatchObject({ outcome: 'review', not_enough_data: true, anchor: 'overview-registration' });
  });
});

describe('crash_count and fatal_crashes', () => {
  it('reviews more crashes in 24 months than allowed; no data without the counter', () => {
    expect(outcome({ ...CARRIER, crashes_total: '6' }, 'crash_count')).toBe('review');
    expect(outcome({ ...CARRIER, crashes_total: 5 }, 'crash_count')).toBe('pass');
    expect(result({ ...CARRIER, crashes_total: undefined }, 'crash_count')).toMatchObject({
      outcome: 'pass',
      not_enough_data: true,
      tab: 'crashes',
      anchor: 'crash-totals',
    });
  });

  it('counts fatal crashes from deaths and the crash list, at least and at most', () => {
    expect(outcome(CARRIER, 'fatal_crashes')).toBe('pass');
    expect(outcome({ ...CARRIER, crash_fatalities: '1' }, 'fatal_crashes')).toBe('review');
    // two deaths, allowed two fatal crashes: at most two, pass
    expect(outcome({ ...CARRIER, crash_fatalities: 2 }, 'fatal_crashes', { threshold: 2 })).toBe(
      'pass',
    );
    // three deaths, allowed one: the list shows two fatal crashes in 24 months (one too old)
    const crashes = [
      { report_date: '2026-01-05', fatalities: '1' },
      { report_date: '2025-06-05', fatalities: '1' },
      { report_date: '2023-06-05', fatalities: '1' },
    ];
    const listed = result(
      { ...CARRIER, crash_fatalities: '3', crash_history: crashes },
      'fatal_crashes',
      {
        threshold: 1,
        outcome: 'fail',
      },
    );
    expect(listed).toMatchObject({ outcome: 'fail' });
    expect(listed.message).toBe('At least 2 fatal crashes in 24 months (more than 1).');
    // three deaths, allowed one, the list shows only one: cannot tell, not enough data
    const unclear = result(
      { ...CARRIER, crash_fatalities: '3', crash_history: crashes.slice(0, 1) },
      'fatal_crashes',
      { threshold: 1, outcome: 'fail' },
    );
    expect(unclear).toMatchObject({ outcome: 'pass', not_enough_data: true });
    expect(
      result({ ...CARRIER, crash_fatalities: undefined }, 'fatal_crashes', { no_data: 'review' }),
    ).toMatchObject({ outcome: 'review', not_enough_data: true });
  });
});

describe('oos_factor', () => {
  it('reviews a rate more than the factor times the national average; no data without inspections', () => {
    // 0.20 vehicle against 0.2226: under 1.5×; 0.11 driver against 0.0667: over 1.5× (0.1)
    expect(outcome(CARRIER, 'oos_factor')).toBe('pass');
    const r = result({ ...CARRIER, inspections_driver_out_of_service_pct: 0.11 }, 'oos_factor');
    expect(r).toMatchObject({ outcome: 'review', tab: 'safety', anchor: 'safety-oos' });
    expect(r.message).toContain('driver 11% against 6.7% national');
    expect(
      outcome({ ...CARRIER, inspections_driver_out_of_service_pct: '0.11' }, 'oos_factor', {
        threshold: 2,
      }),
    ).toBe('pass');
    expect(
      result(
        { ...CARRIER, inspections_total: '0', inspections_vehicle: '0', inspections_driver: '0' },
        'oos_factor',
      ),
    ).toMatchObject({ outcome: 'review', not_enough_data: true });
  });
});

describe('265752, live-shaped and spec-shaped', () => {
  const live = parseProfile(fixtureObject('profile_265752')).value;
  const spec = parseProfileResponse(specShapedProfileResponse()).value.items[0];
  if (!spec) throw new Error('no spec-shaped profile');
  const expected: Record<(typeof NEW_RULES)[number], [string, boolean?]> = {
    bipd_minimum: ['review'], // $0 on file
    cargo_insurance: ['review', true], // not in the profile
    surety_bond: ['fail'], // $0 on file, $75,000 required
    cargo_classes: ['pass'], // hauls general freight (required below)
    hazmat: ['pass'], // hazardous_material true, required
    power_units: ['pass'],
    time_in_business: ['pass'],
    crash_count: ['review'], // 123
    fatal_crashes: ['review'], // one death
    oos_factor: ['pass'],
  };
  for (const [name, p] of [
    ['live', live],
    ['spec', spec],
  ] as const) {
    it(`evaluates every new rule on the ${name} shape from its normalised values`, () => {
      for (const id of NEW_RULES) {
        const change = id === 'cargo_classes' ? { cargo_required: ['general_freight'] } : {};
        const r = resultOn(p as Profile, id, change as Partial<RuleSettings>);
        const [want, noData] = expected[id];
        expect(r.outcome, `${id}: ${r.message}`).toBe(want);
        expect(r.not_enough_data === true, id).toBe(noData === true);
      }
    });
  }
});

describe('settings of the new rules', () => {
  it('checks cargo lists, the hazmat mode and whole-number thresholds', () => {
    const bad = (change: unknown) => {
      const checked = applySettingsChange(defaultSettings(), change);
      if (checked.ok) throw new Error(`accepted ${JSON.stringify(change)}`);
      return checked;
    };
    expect(bad({ cargo_classes: { cargo_required: ['gold'] } }).error).toMatch(
      /distinct cargo classes/,
    );
    expect(bad({ cargo_classes: { cargo_refused: ['meat', 'meat'] } }).code).toBe(
      'invalid_setting',
    );
    expect(bad({ cargo_classes: { cargo_required: 'meat' } }).code).toBe('invalid_setting');
    expect(
      bad({ cargo_classes: { cargo_required: ['meat'], cargo_refused: ['meat'] } }).error,
    ).toBe('"cargo_classes": meat cannot be both required and refused');
    expect(bad({ hazmat: { hazmat: 'maybe' } }).error).toBe(
      '"hazmat.hazmat" must be one of required, refused',
    );
    expect(bad({ power_units: { hazmat: 'required' } }).error).toBe(
      '"power_units" has no hazmat setting',
    );
    expect(bad({ bipd_minimum: { cargo_required: [] } }).error).toBe(
      '"bipd_minimum" has no cargo class lists',
    );
    expect(bad({ power_units: { threshold: 2.5 } }).error).toBe(
      '"power_units.threshold" must be a whole number from 1 to 100000 (power units)',
    );
    expect(bad({ bipd_minimum: { threshold: -1 } }).code).toBe('invalid_setting');
    const ok = applySettingsChange(defaultSettings(), {
      cargo_classes: { enabled: true, cargo_required: ['meat', 'general_freight'] },
      oos_factor: { threshold: 2.5 },
      bipd_minimum: { threshold: 2_000_000 },
    });
    expect(ok.ok && ok.value.cargo_classes.cargo_required).toEqual(['general_freight', 'meat']);
    expect(ok.ok && describeChanges(defaultSettings(), ok.value)).toEqual([
      'Liability insurance minimum: threshold $1,000,000 → $2,000,000',
      'Cargo classes: enabled off → on',
      'Cargo classes: required cargo none → general_freight, meat',
      'Out-of-service rate against the national average: threshold 1.5 → 2.5',
    ]);
  });

  it('reads the new rules back from stored settings, and as off where the JSON lacks them', () => {
    const stored = JSON.parse(
      JSON.stringify({
        ...defaultSettings(),
        hazmat: { enabled: true, outcome: 'fail', no_data: 'review', hazmat: 'refused' },
      }),
    ) as unknown;
    expect(readStoredSettings(stored).hazmat).toEqual({
      enabled: true,
      outcome: 'fail',
      no_data: 'review',
      hazmat: 'refused',
    });
    const old = JSON.parse(pinned.stored_v2) as unknown;
    const read = readStoredSettings(old);
    for (const id of NEW_RULES) expect(read[id].enabled, id).toBe(false);
  });
});

describe('versions stored before the new rules', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const verdicts = pinned.verdicts as Record<string, { v1: unknown; v2: unknown }>;

  it('evaluate every curated carrier exactly as before (version 1 and a changed version 2)', () => {
    expect(Object.keys(verdicts).sort()).toEqual([...CURATED_DOTS].sort());
    for (const dot of CURATED_DOTS) {
      const p = sandboxProfile(dot).parsed.value;
      const v1 = evaluate(
        p,
        { version: 1, settings: readStoredSettings(JSON.parse(pinned.stored_v1)) },
        now,
      );
      const v2 = evaluate(
        p,
        { version: 2, settings: readStoredSettings(JSON.parse(pinned.stored_v2)) },
        now,
      );
      expect(v1, `${dot} v1`).toEqual(verdicts[dot]?.v1);
      expect(v2, `${dot} v2`).toEqual(verdicts[dot]?.v2);
      // and today's default policy agrees with version 1
      expect(evaluate(p, { version: 1, settings: defaultSettings() }, now), dot).toEqual(
        verdicts[dot]?.v1,
      );
    }
  });
});
