import { describe, expect, it } from 'vitest';
import { BASICS } from './basics.ts';
import { SNAPSHOT_DATE } from './calendar.ts';
import { LIVE_SHAPE_DOT } from './curated.ts';
import { leaves, profileOf, records, testDataset } from './dataset.test-support.ts';

const ds = testDataset();
const generatedCurated = ds.curatedDots.filter((d) => d !== LIVE_SHAPE_DOT);
const NESTED = [
  'authority_history',
  'insurance_history',
  'inspection_history',
  'crash_history',
  'crash_aggregates',
  'contact_history',
  'address_ids',
  'equipment_history',
  'network_graph_equipment_ext',
  'load_summary',
  'preferred_lanes',
  'basic_history',
];

describe('curated carriers', () => {
  it('lists ten DOTs, every one served with a matching doc_id', () => {
    expect(ds.curatedDots).toHaveLength(10);
    for (const dot of ds.curatedDots) {
      const p = profileOf(ds, dot);
      expect(p.dot_number).toBe(dot);
      expect(String(p.doc_id).startsWith(`${dot}`)).toBe(true);
      if (p.docket) expect(p.doc_id).toBe(`${dot}-${String(p.docket)}`);
    }
  });

  it('serves DOT 568253 with the published example values', () => {
    const p = profileOf(ds, '568253');
    expect(p).toMatchObject({
      doc_id: '568253-MC277621',
      legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
      authority_common: 'Active',
      insurance_bipd_on_file: '1000000',
      insurance_bipd_required: '1000000',
      indicator_insurance: true,
      iss_value: '45',
      risk_score: 'Low',
      total_power_units: '897',
      total_drivers: '897',
      safety_rating_desc: 'Satisfactory',
      usdot_status: 'Active',
    });
  });

  it('serves DOT 265752 as the live-shape fixture, unchanged', async () => {
    const { readFile } = await import('node:fs/promises');
    const raw = JSON.parse(
      await readFile(new URL('../../../../fixtures/live-shapes/profile_265752.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(ds.getProfile(LIVE_SHAPE_DOT)).toEqual(raw);
  });

  it('fills every nested array for the carriers that operate vehicles', () => {
    for (const dot of generatedCurated.filter((d) => d !== '2987310')) {
      const p = profileOf(ds, dot);
      for (const key of NESTED) {
        if (key === 'load_summary' && p.total_loads === undefined) continue;
        if (key === 'authority_history' && p.carrier_operation_desc === 'intrastate') continue;
        if (key === 'network_graph_equipment_ext' && records(p.network_graph_equipment_ext).length === 0) continue;
        expect(records(p[key]).length, `${dot} ${key}`).toBeGreaterThan(0);
      }
      expect(typeof p.risk_factors).toBe('object');
      expect(Array.isArray(p.risk_factors)).toBe(false);
      expect(p.geo_points).toMatchObject({ physical_address_zip_code: { lat: expect.any(Number) } });
    }
  });

  it('keeps counters equal to the arrays they summarise', () => {
    for (const dot of generatedCurated) {
      const p = profileOf(ds, dot);
      const inspections = records(p.inspection_history);
      const crashes = records(p.crash_history);
      const violations = inspections.flatMap((i) => records(i.violations));
      expect(Number(p.inspections_total), dot).toBe(inspections.length);
      expect(Number(p.violations_total), dot).toBe(violations.length);
      expect(Number(p.crashes_total), dot).toBe(crashes.length);
      expect(Number(p.crash_fatalities)).toBe(crashes.reduce((s, c) => s + Number(c.fatalities), 0));
      const aggregated = records(p.crash_aggregates).reduce((s, a) => s + Number(a.crashes_total), 0);
      expect(aggregated, dot).toBe(crashes.length);
      for (const i of inspections) expect(Number(i.viol_total)).toBe(records(i.violations).length);
      const equipmentVins = new Set(records(p.equipment_history).map((e) => e.vin));
      for (const i of inspections) for (const v of records(i.vins)) expect(equipmentVins.has(v.vin)).toBe(true);
    }
  });

  it('derives every BASIC alert from its percentile and the carrier-class threshold', () => {
    const expected: Record<string, number> = { '1893346': 0.5, '1120987': 0.6 };
    for (const dot of generatedCurated) {
      const p = profileOf(ds, dot);
      expect(p.intervention_threshold_unsafe_driving).toBe(expected[dot] ?? 0.65);
      for (const b of BASICS) {
        const pct = p[`basic_percentile_${b}`];
        const threshold = Number(p[`intervention_threshold_${b}`]);
        const alert = typeof pct === 'number' && pct >= threshold;
        expect(p[`basic_alert_${b}`], `${dot} ${b}`).toBe(alert);
      }
      const anyAlert = BASICS.some((b) => p[`basic_alert_${b}`] === true);
      expect((p.risk_factors as Record<string, unknown>).basic_alert_flag).toBe(anyAlert);
    }
  });

  it('dates everything on or before the snapshot, except a pending cancellation', () => {
    for (const dot of generatedCurated) {
      const p = profileOf(ds, dot);
      for (const [path, value] of leaves(p)) {
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) continue;
        if (/cancel_effective_date|pending_cancel_date/.test(path) && dot === '2456781') continue;
        expect(value.slice(0, 10) <= SNAPSHOT_DATE, `${dot} ${path}=${value}`).toBe(true);
      }
    }
  });

  it('places every geo point inside the US/Canada bounding box', () => {
    for (const dot of ds.curatedDots) {
      const points = leaves(profileOf(ds, dot)).filter(([path]) => /(lat|latitude|lon|longitude)$/.test(path));
      expect(points.length).toBeGreaterThan(0);
      for (const [path, value] of points) {
        const n = Number(value);
        if (/lat(itude)?$/.test(path)) expect(n > 18 && n < 72, `${dot} ${path}`).toBe(true);
        else expect(n > -170 && n < -52, `${dot} ${path}`).toBe(true);
      }
    }
  });
});

describe('curated scenarios', () => {
  const rf = (dot: string) => profileOf(ds, dot).risk_factors as Record<string, unknown>;

  it('pairs a new entrant with its revoked, out-of-service predecessor', () => {
    const young = profileOf(ds, '4418207');
    const old = profileOf(ds, '3187452');
    expect(Number(young.dot_age)).toBeLessThan(540);
    expect(young.authority_common).toBe('Active');
    expect(old).toMatchObject({ authority_common: 'Inactive', out_of_service_flag: true, safety_rating_desc: 'Unsatisfactory', indicator_insurance: false });
    expect(Number(old.insurance_cancel_count)).toBeGreaterThan(0);
    expect(young.telephone_number).toBe(old.telephone_number);
    expect(young.physical_address).toBe(old.physical_address);
    for (const key of ['network_graph_telephone_number', 'network_graph_physical_address', 'network_graph_equipment']) {
      expect(young[key]).toContain('3187452');
      expect(old[key]).toContain('4418207');
    }
    const youngVins = new Set(records(young.equipment_history).map((e) => e.vin));
    expect(records(old.equipment_history).some((e) => youngVins.has(e.vin))).toBe(true);
    expect(records(young.network_graph_equipment_ext)[0]?.dot_number).toBe('3187452');
    expect(rf('3187452').revocation_last_thirtysix_mo).toBe(true);
  });

  it('shows a carrier over the Unsafe Driving and HOS thresholds with fatal crashes', () => {
    const p = profileOf(ds, '2214589');
    expect(p).toMatchObject({ basic_alert_unsafe_driving: true, basic_alert_hours_of_service: true, safety_rating_desc: 'Conditional' });
    expect(['High', 'Very High']).toContain(p.risk_score);
    expect(Number(p.crash_fatalities)).toBeGreaterThan(0);
    expect(rf('2214589').fatal_crashes_flag).toBe(true);
    expect(p.indicator_carrier_safety).toBe(false);
  });

  it('shows a broker with a bond and no fleet', () => {
    const p = profileOf(ds, '2987310');
    expect(p).toMatchObject({ entity_type_desc: 'Broker', authority_broker: 'Active', insurance_bond_on_file: '75000', total_power_units: '0', indicator_insurance: true });
    expect(p.risk_score).toBeUndefined();
    expect(records(p.equipment_history)).toHaveLength(0);
  });

  it('shows an intrastate private carrier with no tri-state verdicts and no risk score', () => {
    const p = profileOf(ds, '1455872');
    expect(p.carrier_operation_desc).toBe('intrastate');
    expect(p.indicator_authority ?? null).toBeNull();
    expect(p.indicator_insurance ?? null).toBeNull();
    expect(p.risk_score).toBeUndefined();
    expect(p.docket).toBeUndefined();
  });

  it('applies passenger and hazmat thresholds', () => {
    const bus = profileOf(ds, '1893346');
    expect(bus.passenger).toBe(true);
    expect(bus.basic_alert_unsafe_driving).toBe(true);
    expect(Number(bus.basic_percentile_unsafe_driving)).toBeLessThan(0.65);
    const tanker = profileOf(ds, '1120987');
    expect(tanker).toMatchObject({ phmsa_flag: true, hazardous_material: true, basic_alert_vehicle_maintence: true });
    expect(Number(tanker.inspections_hazmat)).toBeGreaterThan(0);
    expect(Number(tanker.basic_percentile_vehicle_maintence)).toBeLessThan(0.8);
  });

  it('shows a Canadian carrier with a pending cancellation and an FF docket', () => {
    const p = profileOf(ds, '2456781');
    expect(p).toMatchObject({ physical_address_iso_country_code: 'CA', physical_address_state: 'ON' });
    expect(String(p.icc_dockets)).toContain('FF012844');
    expect(String(p.insurance_pending_cancel_date) > SNAPSHOT_DATE).toBe(true);
    expect(rf('2456781').pending_insurance_cancellation).toBe(true);
    expect(p.indicator_insurance).toBe(true);
  });
});
