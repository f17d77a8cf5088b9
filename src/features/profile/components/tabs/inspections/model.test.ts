import { describe, expect, it } from 'vitest';
import type { Inspection, Profile } from '../../../../../lib/service/index.ts';
import {
  filterChoices,
  filterInspections,
  inspectionRows,
  lanesOf,
  levelLabel,
  NO_INSPECTION_FILTERS,
  INSPECTION_CSV,
  inspectionDetails,
  pointsFromInspections,
  pointsFromTriples,
  inspectionViewFilters,
} from './model.ts';
import { tableCsv } from '../../../../../components/data-table/csv.ts';

function inspection(fields: Partial<Inspection>): Inspection {
  return { extra: {}, ...fields } as Inspection;
}

const history = [
  inspection({
    _id: 'a',
    insp_date: '2026-01-10',
    report_state: 'TX',
    insp_level_id: '1',
    oos_total: 1,
    geo_point: { lat: 32.7, lon: -96.8 },
  }),
  inspection({
    _id: 'b',
    insp_date: '2026-03-05',
    report_state: 'OK',
    insp_level_id: '2',
    oos_total: 0,
    latitude: 35.4,
    longitude: -97.5,
  }),
  inspection({
    report_number: 'TX9',
    insp_date: '2025-12-31',
    report_state: 'TX',
    insp_level_id: '3',
  }),
  inspection({ insp_level_id: '2', report_state: 'AR', oos_total: 2 }),
];
const profile = { extra: {}, inspection_history: history } as Profile;

describe('inspection rows and points', () => {
  it('ids are _id, else the report number, else the position', () => {
    expect(inspectionRows(profile).map((r) => r.id)).toEqual(['a', 'b', 'TX9', 'inspection-3']);
  });

  it('draws inspections that carry a geo_point or latitude/longitude, labelled by date and place', () => {
    const points = pointsFromInspections(inspectionRows(profile));
    expect(points.map(({ id, lat, lon, label }) => ({ id, lat, lon, label }))).toEqual([
      { id: 'a', lat: 32.7, lon: -96.8, label: 'Inspection 10 Jan 2026, TX' },
      { id: 'b', lat: 35.4, lon: -97.5, label: 'Inspection 5 Mar 2026, OK' },
    ]);
  });

  it('adds geo_points.inspection_locations that no inspection accounts for', () => {
    const points = pointsFromInspections(inspectionRows(profile), [
      { lat: 32.7, lon: -96.8, date: '2026-01-10' },
      { lat: 44.9, lon: -93.2, date: '2024-05-01' },
    ]);
    expect(points.map((p) => p.id)).toEqual(['a', 'b', 'inspection-location-1']);
    expect(points.at(-1)?.label).toBe('Inspection location 1 May 2024');
  });
});

describe('inspection filters', () => {
  const rows = inspectionRows(profile);
  const ids = (filters: Partial<typeof NO_INSPECTION_FILTERS>) =>
    filterInspections(rows, { ...NO_INSPECTION_FILTERS, ...filters }).map((r) => r.id);

  it('no filter keeps every row', () => {
    expect(ids({})).toHaveLength(4);
  });

  it('a date range is inclusive and drops undated rows', () => {
    expect(ids({ from: '2026-01-10' })).toEqual(['a', 'b']);
    expect(ids({ to: '2026-01-10' })).toEqual(['a', 'TX9']);
    expect(ids({ from: '2026-01-01', to: '2026-02-01' })).toEqual(['a']);
  });

  it('filters by state, level and out of service, combined', () => {
    expect(ids({ state: 'TX' })).toEqual(['a', 'TX9']);
    expect(ids({ level: '2' })).toEqual(['b', 'inspection-3']);
    expect(ids({ oosOnly: true })).toEqual(['a', 'inspection-3']);
    expect(ids({ oosOnly: true, state: 'TX', level: '1' })).toEqual(['a']);
  });

  it('offers the states and levels present', () => {
    expect(filterChoices(rows)).toEqual({ states: ['AR', 'OK', 'TX'], levels: ['1', '2', '3'] });
  });

  it('names inspection levels', () => {
    expect(levelLabel('3')).toBe('Level 3 (driver only)');
    expect(levelLabel('42')).toBe('Level 42');
    expect(levelLabel(undefined)).toBe('Level unknown');
  });
});

describe('lanesOf', () => {
  it('uses preferred_lanes, most inspections first', () => {
    const p = {
      extra: {},
      preferred_lanes: [
        { state: 'OK', inspections: 3, extra: {} },
        { state: 'TX', inspections: 9, extra: {} },
      ],
    } as Profile;
    expect(lanesOf(p)).toEqual({
      lanes: [
        { state: 'TX', inspections: 9 },
        { state: 'OK', inspections: 3 },
      ],
      computed: false,
    });
  });

  it('counts the history per state when the service sent no lanes', () => {
    expect(lanesOf(profile)).toEqual({
      lanes: [
        { state: 'TX', inspections: 2 },
        { state: 'AR', inspections: 1 },
        { state: 'OK', inspections: 1 },
      ],
      computed: true,
    });
  });
});

describe('the popup of an inspection point', () => {
  it('names the level, the violations and the out-of-service orders', () => {
    const [a, b] = pointsFromInspections(inspectionRows(profile));
    expect(a?.details).toEqual([
      'Level 1 (full)',
      'Violations: not reported',
      'Out of service: yes (1 order)',
    ]);
    expect(b?.details).toEqual([
      'Level 2 (walk-around)',
      'Violations: not reported',
      'Out of service: no',
    ]);
    expect(
      inspectionDetails(inspection({ insp_level_id: '3', viol_total: 4, oos_total: 2 })),
    ).toEqual(['Level 3 (driver only)', '4 violations', 'Out of service: yes (2 orders)']);
    expect(inspectionDetails(inspection({ viol_total: 1 }))).toEqual([
      'Level unknown',
      '1 violation',
      'Out of service: not reported',
    ]);
  });
});

describe('the inspections CSV', () => {
  it('has one line per inspection with the service values, blanks for what is missing', () => {
    const lines = tableCsv(inspectionRows(profile), INSPECTION_CSV).split('\r\n');
    expect(lines).toHaveLength(history.length + 1);
    const header = lines[0]?.split(',') ?? [];
    expect(header.slice(0, 7)).toEqual([
      'report_number',
      'inspection_date',
      'state',
      'location',
      'level',
      'level_name',
      'violations',
    ]);
    const first = Object.fromEntries(header.map((h, i) => [h, lines[1]?.split(',')[i]]));
    expect(first).toMatchObject({
      inspection_date: '2026-01-10',
      state: 'TX',
      level: '1',
      level_name: 'Level 1 (full)',
      out_of_service: '1',
      latitude: '32.7',
      longitude: '-96.8',
      report_number: '',
    });
    expect(lines[3]?.startsWith('TX9,2025-12-31,TX,')).toBe(true);
  });
});

describe('pointsFromTriples (the proxy’s compact points)', () => {
  it('labels a point generically until its row has been seen, then from the row', () => {
    const seen = new Map<string, Inspection>();
    const [point] = pointsFromTriples([[-90.2, 38.6, 'a1']], seen);
    expect(point).toMatchObject({ id: 'a1', lon: -90.2, lat: 38.6, label: 'Inspection' });
    expect(point?.details).toBeUndefined();
    seen.set('a1', {
      extra: {},
      insp_date: '2026-11-15',
      location_desc: 'SAINT LOUIS, MO',
      insp_level_id: '5',
      viol_total: 2,
      oos_total: 0,
    });
    expect(point?.label).toBe('Inspection 15 Nov 2026, SAINT LOUIS, MO');
    expect(point?.details).toEqual([
      'Level 5 (vehicle only)',
      '2 violations',
      'Out of service: no',
    ]);
  });

  it('adds the profile’s inspection locations no point accounts for', () => {
    const points = pointsFromTriples([[-90.2, 38.6, 'a1']], new Map(), [
      { lat: 38.6, lon: -90.2 },
      { lat: 40, lon: -100, date: '2026-01-02' },
    ]);
    expect(points.map((p) => p.id)).toEqual(['a1', 'inspection-location-1']);
  });
});

describe('inspectionViewFilters', () => {
  it('names the filters as the proxy’s view takes them, leaving out the empty ones', () => {
    expect(inspectionViewFilters(NO_INSPECTION_FILTERS)).toEqual({});
    expect(
      inspectionViewFilters({ from: '2026-01-01', to: '', state: 'TX', level: '2', oosOnly: true }),
    ).toEqual({ from: '2026-01-01', state: 'TX', level: '2', oos: '1' });
  });
});
