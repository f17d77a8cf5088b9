import { describe, expect, it } from 'vitest';
import type { Crash, CrashAggregate, Profile } from '../../../../../lib/service/index.ts';
import { tableCsv } from '../../../../../components/data-table/csv.ts';
import { aggregateSeries, CRASH_CSV, crashDetails, crashRows, pointsFromCrashes } from './model.ts';

const crash = (fields: Partial<Crash>) => ({ extra: {}, ...fields }) as Crash;
const aggregate = (fields: Partial<CrashAggregate>) => ({ extra: {}, ...fields }) as CrashAggregate;

describe('crash points', () => {
  const profile = {
    extra: {},
    crash_history: [
      crash({
        _id: 'c1',
        report_date: '2026-08-24',
        city: 'ARLINGTON',
        state: 'WY',
        latitude: 41.53,
        longitude: -106.96,
      }),
      crash({ report_number: 'R2', report_date: '2026-08-01', state: 'CA' }),
    ],
  } as Profile;

  it('draws crashes with coordinates and adds the crash_locations left over', () => {
    const points = pointsFromCrashes(crashRows(profile), [
      { lat: 41.53, lon: -106.96, date: '2026-08-24' },
      { lat: 34.33, lon: -117.04, date: '2026-08-01' },
    ]);
    expect(points).toEqual([
      {
        id: 'c1',
        lat: 41.53,
        lon: -106.96,
        label: 'Crash 24 Aug 2026, ARLINGTON, WY',
        details: ['Fatalities: —', 'Injuries: —', 'Tow-away: —'],
      },
      { id: 'crash-location-1', lat: 34.33, lon: -117.04, label: 'Crash location 1 Aug 2026' },
    ]);
    expect(crashDetails(crash({ fatalities: 1, injuries: 2, tow_away: true }))).toEqual([
      'Fatalities: 1',
      'Injuries: 2',
      'Tow-away: Yes',
    ]);
  });

  it('exports every crash as a CSV line with the service values', () => {
    const csv = tableCsv(crashRows(profile), CRASH_CSV).split('\r\n');
    expect(csv[0]).toBe(
      'report_number,report_date,report_time,city,state,location,fatalities,injuries,tow_away,vehicles,hazmat_released,federal_recordable,vin,latitude,longitude',
    );
    expect(csv[1]).toBe(',2026-08-24,,ARLINGTON,WY,,,,,,,,,41.53,-106.96');
    expect(csv[2]).toBe('R2,2026-08-01,,,CA,,,,,,,,,,');
  });

  it('ids fall back to the report number', () => {
    expect(crashRows(profile).map((r) => r.id)).toEqual(['c1', 'R2']);
  });
});

describe('aggregateSeries', () => {
  it('orders months oldest first, fills missing counts with 0 and drops undated entries', () => {
    const series = aggregateSeries([
      aggregate({
        report_month: '2026-06-01',
        crashes_total: 2,
        crash_injuries: 1,
        crash_rate: 0.14,
      }),
      aggregate({ report_month: '1993-09-01', crashes_total: 6, crashes_tow_away: 2 }),
      aggregate({ crashes_total: 99 }),
    ]);
    expect(series).toEqual([
      { month: '1993-09', crashes: 6, injuries: 0, fatalities: 0, towAway: 2, rate: undefined },
      { month: '2026-06', crashes: 2, injuries: 1, fatalities: 0, towAway: 0, rate: 0.14 },
    ]);
  });

  it('is empty without aggregates', () => {
    expect(aggregateSeries(undefined)).toEqual([]);
  });
});
