// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  BASIC_CATEGORIES,
  interventionThreshold,
  parseProfile,
} from '../../../../../lib/service/index.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import {
  basicMarkers,
  buildBasicRows,
  buildBenchmarkRows,
  buildHistoryPoints,
  buildOosRows,
  buildViolationRows,
  carrierClassOf,
} from './model.ts';
import { barText } from './BasicChart.tsx';

const ALL_DOTS = [...new Set([...CURATED_DOTS, '265752'])];

function profileOf(dot: string) {
  return sandboxProfile(dot).parsed.value;
}

describe('carrierClassOf', () => {
  it('reads the carrier type from the operation flags', () => {
    expect(carrierClassOf(parseProfile({ passenger: 'true' }).value)).toBe('passenger');
    expect(carrierClassOf(parseProfile({ operation_class_private_pass_business: 'Y' }).value)).toBe(
      'passenger',
    );
    expect(carrierClassOf(parseProfile({ hazardous_material: 'true' }).value)).toBe('hazmat');
    expect(carrierClassOf(parseProfile({ phmsa_flag: true }).value)).toBe('hazmat');
    expect(carrierClassOf(parseProfile({ passenger: 'false' }).value)).toBe('general');
  });

  it('prefers passenger over hazmat (the lower thresholds)', () => {
    const both = parseProfile({ passenger: true, hazardous_material: true }).value;
    expect(carrierClassOf(both)).toBe('passenger');
  });

  it('classifies the curated carriers as their scenarios say', () => {
    expect(carrierClassOf(profileOf('1893346'))).toBe('passenger');
    expect(carrierClassOf(profileOf('1120987'))).toBe('hazmat');
    expect(carrierClassOf(profileOf('568253'))).toBe('general');
    expect(carrierClassOf(profileOf('2214589'))).toBe('general');
  });
});

describe.each(ALL_DOTS)('BASIC rows of carrier %s', (dot) => {
  const profile = profileOf(dot);
  const rows = buildBasicRows(profile);
  const carrierClass = carrierClassOf(profile);

  it('has one row per BASIC with the profile threshold, else the class default', () => {
    expect(rows.map((row) => row.category)).toEqual([...BASIC_CATEGORIES]);
    for (const row of rows) {
      const own = profile[`intervention_threshold_${row.category}`];
      expect(row.threshold).toBe(own ?? interventionThreshold(carrierClass, row.category));
      expect(row.thresholdSource).toBe(own === undefined ? 'default' : 'profile');
    }
  });

  it('marks insufficient data exactly where the percentile is omitted', () => {
    for (const row of rows) {
      const percentile = profile[`basic_percentile_${row.category}`];
      expect(row.insufficientData).toBe(percentile === undefined);
      expect(barText(row) === 'Insufficient data').toBe(percentile === undefined);
    }
  });

  it('carries the alert flags and names them in words', () => {
    for (const row of rows) {
      expect(row.alert).toBe(profile[`basic_alert_${row.category}`] === true);
      expect(basicMarkers(row).includes('Alert')).toBe(row.alert);
      expect(basicMarkers(row).includes('Roadside alert')).toBe(row.roadsideAlert);
    }
  });

  it('labels only Crash Indicator and Hazardous Materials as service-computed', () => {
    const computed = rows.filter((row) => row.serviceComputed).map((row) => row.category);
    expect(computed.sort()).toEqual(['crash_indicator', 'hazardous_materials']);
  });

  it('builds history, out-of-service, violation and benchmark rows from the profile', () => {
    const points = buildHistoryPoints(profile);
    expect(points).toHaveLength(profile.basic_history?.length ?? 0);
    const dates = points.map((point) => point.snapshot);
    expect(dates).toEqual([...dates].sort());
    const oos = buildOosRows(profile);
    expect(oos.map((row) => row.carrierRate)).toEqual([
      profile.inspections_driver_out_of_service_pct,
      profile.inspections_vehicle_out_of_service_pct,
      profile.inspections_hazmat_out_of_service_pct,
    ]);
    expect(oos.map((row) => row.alert)).toEqual([
      profile.oos_alert_driver === true,
      profile.oos_alert_vehicle === true,
      profile.oos_alert_hazmat === true,
    ]);
    const violations = buildViolationRows(profile);
    expect(violations).toHaveLength(6);
    expect(violations[0]?.total).toBe(profile.violations_unsafe_driving);
    expect(buildBenchmarkRows(profile).map((row) => row.observed)).toEqual([
      profile.observed_IM,
      profile.observed_IRPU,
      profile.observed_PUM,
    ]);
  });
});

describe('scenario carriers', () => {
  it('IRONCLAD 2214589 alerts on Unsafe Driving and Hours of Service', () => {
    const rows = buildBasicRows(profileOf('2214589'));
    const alerting = rows.filter((row) => row.alert).map((row) => row.category);
    expect(alerting).toContain('unsafe_driving');
    expect(alerting).toContain('hours_of_service');
    const unsafe = rows.find((row) => row.category === 'unsafe_driving');
    expect(barText(unsafe!)).toMatch(/^84% ⚠ Alert/);
  });

  it('the passenger carrier 1893346 is held to 50% / 65% and alerts on Unsafe Driving', () => {
    const rows = buildBasicRows(profileOf('1893346'));
    const byCategory = new Map(rows.map((row) => [row.category, row]));
    expect(byCategory.get('unsafe_driving')).toMatchObject({ threshold: 0.5, alert: true });
    expect(byCategory.get('hours_of_service')?.threshold).toBe(0.5);
    expect(byCategory.get('vehicle_maintence')?.threshold).toBe(0.65);
    expect(byCategory.get('driver_fitness')?.threshold).toBe(0.65);
  });

  it('the passenger defaults apply when the profile sends no thresholds', () => {
    const { raw } = sandboxProfile('1893346');
    const stripped = Object.fromEntries(
      Object.entries(raw as Record<string, unknown>).filter(
        ([key]) => !key.startsWith('intervention_threshold_'),
      ),
    );
    const rows = buildBasicRows(parseProfile(stripped).value);
    expect(rows.map((row) => [row.threshold, row.thresholdSource])).toEqual([
      [0.5, 'default'],
      [0.5, 'default'],
      [0.65, 'default'],
      [0.65, 'default'],
      [0.65, 'default'],
      [0.8, 'default'],
      [0.5, 'default'],
    ]);
  });

  it('the hazmat carrier 1120987 is held to 60% / 75% and alerts on Vehicle Maintenance', () => {
    const rows = buildBasicRows(profileOf('1120987'));
    const byCategory = new Map(rows.map((row) => [row.category, row]));
    expect(byCategory.get('unsafe_driving')?.threshold).toBe(0.6);
    expect(byCategory.get('vehicle_maintence')).toMatchObject({ threshold: 0.75, alert: true });
  });

  it('the live-shape carrier 265752 has no percentiles: every BASIC reads insufficient data', () => {
    const rows = buildBasicRows(profileOf('265752'));
    expect(rows.every((row) => row.insufficientData)).toBe(true);
    expect(rows.every((row) => row.thresholdSource === 'default')).toBe(true);
    expect(rows[0]?.threshold).toBe(0.6);
  });
});
