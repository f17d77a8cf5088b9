/** The pure cutting of views: sort keys, missing values, ids, points, filters, parameters. */
import { describe, expect, it } from 'vitest';
import {
  pointOf,
  profileItemOf,
  ProfileModel,
  VIEW_SCHEMAS,
  type PageQuery,
} from './profile-view-model.ts';

const PAGE: PageQuery = { offset: 0, limit: 100, sort: 'insp_date', dir: 'desc' };

function model(profile: Record<string, unknown>) {
  return new ProfileModel(profile, '1');
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe('ProfileModel.page', () => {
  const inspections = [
    { report_number: 'R10', insp_date: '2026-01-05', viol_total: '12' },
    { report_number: 'R9', insp_date: '20260110', viol_total: 3 },
    { _id: 77, insp_date: '', viol_total: null },
    { report_number: 'R2', insp_date: '2026-01-05', viol_total: 3 },
    'not a record',
    { viol_total: 1 },
  ];
  const profile = { inspection_history: inspections };

  it('reads ids as the tab does: _id, else the report number, else the place', () => {
    const rows = model(profile).page('inspections', PAGE).rows;
    expect(rows.map((row) => [row.index, row.id]).sort()).toEqual([
      [0, 'R10'],
      [1, 'R9'],
      [2, '77'],
      [3, 'R2'],
      [5, 'inspection-5'],
    ]);
  });

  it('sorts dates (normalised), missing last, equal ones in history order', () => {
    expect(ids(model(profile).page('inspections', PAGE).rows)).toEqual([
      'R9',
      'R10',
      'R2',
      '77',
      'inspection-5',
    ]);
    const asc = model(profile).page('inspections', { ...PAGE, dir: 'asc' }).rows;
    expect(ids(asc)).toEqual(['R10', 'R2', 'R9', '77', 'inspection-5']);
  });

  it('sorts numeric strings as numbers and text with a natural collation', () => {
    const byViolations = model(profile).page('inspections', { ...PAGE, sort: 'viol_total' });
    expect(ids(byViolations.rows)).toEqual(['R10', 'R9', 'R2', 'inspection-5', '77']);
    const byReport = model(profile).page('inspections', {
      ...PAGE,
      sort: 'report_number',
      dir: 'asc',
    });
    expect(ids(byReport.rows)).toEqual(['R2', 'R9', 'R10', '77', 'inspection-5']);
  });

  it('counts what matched and pages through it', () => {
    const body = model(profile).page('inspections', {
      ...PAGE,
      offset: 1,
      limit: 2,
      from: '2026-01-01',
    });
    expect(body).toMatchObject({ total: 5, matched: 3 });
    expect(ids(body.rows)).toEqual(['R10', 'R2']);
  });

  it('filters equipment by type whatever its case', () => {
    const vehicles = model({
      equipment_history: [
        { vin: 'A', type: 'Trailer' },
        { vin: 'B', type: 'POWER UNIT' },
        { vin: 'C' },
      ],
    });
    const trailers = vehicles.page('equipment', { ...PAGE, sort: 'vin', type: 'TRAILER' });
    expect(ids(trailers.rows)).toEqual(['A']);
  });

  it('reads a lone history object as a one-element history', () => {
    const body = model({ crash_history: { report_date: '2026-02-01' } }).page('crashes', {
      ...PAGE,
      sort: 'report_date',
    });
    expect(ids(body.rows)).toEqual(['crash-0']);
  });
});

describe('pointOf', () => {
  it('takes geo_point first, then latitude/longitude, numbers or numeric strings', () => {
    expect(pointOf({ geo_point: { lat: '35.5', lon: -97 }, latitude: 1, longitude: 1 })).toEqual([
      -97, 35.5,
    ]);
    expect(pointOf({ geo_point: { lat: 0, lon: 0 }, latitude: '40', longitude: '-100' })).toEqual([
      -100, 40,
    ]);
  });

  it('drops coordinates out of range, (0, 0) and halves', () => {
    expect(pointOf({ latitude: 91, longitude: 10 })).toBeUndefined();
    expect(pointOf({ latitude: 0, longitude: 0 })).toBeUndefined();
    expect(pointOf({ latitude: 40 })).toBeUndefined();
  });
});

describe('profileItemOf', () => {
  it('finds the item in an envelope, an array or a bare object', () => {
    const item = { dot_number: '1' };
    expect(profileItemOf({ items: [item], total_count: 1 })).toBe(item);
    expect(profileItemOf([item])).toBe(item);
    expect(profileItemOf(item)).toBe(item);
  });

  it('finds none in an empty answer', () => {
    expect(profileItemOf({ items: [], total_count: 0 })).toBeUndefined();
    expect(profileItemOf([])).toBeUndefined();
    expect(profileItemOf({})).toBeUndefined();
  });
});

describe('VIEW_SCHEMAS', () => {
  it('fills in the defaults and treats empty filters as none', () => {
    const parsed = VIEW_SCHEMAS.inspections.parse({ view: 'inspections', state: '', oos: '1' });
    expect(parsed).toMatchObject({ offset: 0, limit: 100, dir: 'desc', oos: true });
    expect(parsed.state).toBeUndefined();
    expect(parsed.sort).toBeUndefined();
  });

  it('refuses impossible dates', () => {
    expect(VIEW_SCHEMAS.crashes.safeParse({ from: '2025-02-29' }).success).toBe(false);
    expect(VIEW_SCHEMAS.crashes.safeParse({ from: '2024-02-29' }).success).toBe(true);
  });
});

describe('ProfileModel.network', () => {
  it('adds the carrier’s own records of the VINs it shares, trimmed to what the graph reads', () => {
    const profile = {
      legal_name: 'not a network field',
      network_graph_equipment: ['22', '33'],
      network_graph_equipment_ext: [
        { dot_number: '22', shared_vins: [{ vin: 'VIN-A', make: 'KW' }] },
        [{ dot_number: '33', shared_vins: [{ vin: 'VIN-B' }] }],
        { dot_number: '44', shared_vins: [{ vin: 7 }, 'not a vehicle'] },
      ],
      equipment_history: [
        { vin: 'VIN-A', make: 'KENWORTH', model: 'T680', model_year: '2019', type: 'POWER UNIT' },
        { vin: 'VIN-C', make: 'MACK' },
      ],
      inspection_history: [
        { insp_date: '2024-01-01', report_state: 'TX', vins: [{ vin: 'VIN-A' }, { vin: 'VIN-C' }] },
        { insp_date: '20240305', vins: [{ vin: 'VIN-A', insp_unit_make: 'KW' }] },
        { insp_date: '2023-12-01', vins: [{ vin: 'VIN-B' }] },
        { insp_date: '2025-01-01', vins: [{ vin: 'VIN-C' }] },
        { vins: [{ vin: 'VIN-B' }] },
      ],
    };
    const { item } = model(profile).network();
    expect(item.legal_name).toBeUndefined();
    expect(item.network_graph_equipment).toEqual(['22', '33']);
    expect(item.network_graph_equipment_ext).toBe(profile.network_graph_equipment_ext);
    // VIN-B is shared (the one-element array form counts too) but not in the own equipment list
    expect(item.equipment_history).toEqual([
      { vin: 'VIN-A', make: 'KENWORTH', model: 'T680', model_year: '2019' },
    ]);
    // the latest inspection per shared VIN, newest first; VIN-C is not shared
    expect(item.inspection_history).toEqual([
      { insp_date: '2024-03-05', vins: [{ vin: 'VIN-A' }] },
      { insp_date: '2023-12-01', vins: [{ vin: 'VIN-B' }] },
    ]);
  });

  it('adds nothing when the carrier shares no VIN', () => {
    const { item } = model({
      network_graph_email: ['5'],
      equipment_history: [{ vin: 'X' }],
    }).network();
    expect(item).toEqual({ network_graph_email: ['5'] });
  });
});
