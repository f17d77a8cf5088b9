import { describe, expect, it } from 'vitest';
import {
  dateRangeProblem,
  DEFAULT_INBOX_PARAMS,
  listQuery,
  readDate,
  readInboxParams,
  updateInboxParams,
  writeInboxParams,
} from './inbox-params.ts';

const read = (query: string) => readInboxParams(new URLSearchParams(query));

describe('readInboxParams', () => {
  it('gives the defaults for an empty query', () => {
    expect(read('')).toEqual(DEFAULT_INBOX_PARAMS);
  });

  it('reads every filter', () => {
    expect(
      read(
        'page=3&pageSize=250&view_changes=false&view_changes_risk=true&view_changes_insurance=1' +
          '&date_type=mcs150_date_current&date_min=20260101&date_max=20261231' +
          '&sortBy=profile_id&sortOrder=asc&profile_id=568253-mc277621&triage=escalated',
      ),
    ).toEqual({
      page: 3,
      pageSize: 250,
      changedOnly: false,
      channels: ['insurance', 'risk'],
      dateType: 'mcs150_date_current',
      dateMin: '2026-01-01',
      dateMax: '2026-12-31',
      sortBy: 'profile_id',
      sortOrder: 'asc',
      profileId: '568253-MC277621',
      triage: 'escalated',
    });
  });

  it('falls back to defaults on garbage instead of failing', () => {
    const params = read(
      'page=-2&pageSize=abc&view_changes=yes&view_changes_bogus=true&date_type=x' +
        '&date_min=20260231&date_max=tomorrow&sortBy=name&sortOrder=up&profile_id=MC1&triage=done',
    );
    expect(params).toEqual(DEFAULT_INBOX_PARAMS);
  });

  it('clamps the page size to 500', () => {
    expect(read('pageSize=100000').pageSize).toBe(500);
  });

  it('keeps a backwards date range as given, says what is wrong, and does not send it', () => {
    const params = read('date_min=20261201&date_max=20260101');
    expect([params.dateMin, params.dateMax]).toEqual(['2026-12-01', '2026-01-01']);
    expect(writeInboxParams(params).toString()).toBe('date_min=20261201&date_max=20260101');
    expect(dateRangeProblem(params)).toMatch(/“From” \(2026-12-01\) is after “To” \(2026-01-01\)/);
    const query = listQuery(params);
    expect([query.date_min, query.date_max, query.date_type]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(dateRangeProblem(read('date_min=20260101&date_max=20260101'))).toBeUndefined();
  });
});

describe('readDate', () => {
  it('accepts real dates in both forms only', () => {
    expect(readDate('20240229')).toBe('2024-02-29');
    expect(readDate('2024-02-29')).toBe('2024-02-29');
    expect(readDate('20230229')).toBeUndefined();
    expect(readDate('2024-13-01')).toBeUndefined();
    expect(readDate('')).toBeUndefined();
  });
});

describe('writeInboxParams', () => {
  it('round-trips and leaves defaults out', () => {
    expect(writeInboxParams(DEFAULT_INBOX_PARAMS).toString()).toBe('');
    const query =
      'page=2&view_changes=false&view_changes_safety=true&date_type=started_monitoring_at' +
      '&date_min=20260102&sortOrder=asc&triage=new';
    const params = read(query);
    expect(read(writeInboxParams(params).toString())).toEqual(params);
    expect(writeInboxParams(params).get('date_min')).toBe('20260102');
  });
});

describe('updateInboxParams', () => {
  it('goes back to page 1 when a filter changes, not when only the page does', () => {
    const onPage3 = { ...DEFAULT_INBOX_PARAMS, page: 3 };
    expect(updateInboxParams(onPage3, { channels: ['fleet'] }).page).toBe(1);
    expect(updateInboxParams(onPage3, { page: 4 }).page).toBe(4);
    expect(updateInboxParams(onPage3, { triage: 'new' }).page).toBe(3);
  });
});

describe('listQuery', () => {
  it('maps to the service parameters, date type only with a bound', () => {
    expect(listQuery(DEFAULT_INBOX_PARAMS)).toEqual({
      page: 1,
      pageSize: 100,
      sortBy: 'last_changed_date',
      sortOrder: 'desc',
      view_changes: 'true',
    });
    const query = listQuery(
      read(
        'view_changes=false&view_changes_contact=true&date_type=last_acknowledged_at&date_max=20261120&profile_id=1234567',
      ),
    );
    expect(query).toMatchObject({
      view_changes_contact: 'true',
      date_type: 'last_acknowledged_at',
      date_max: '20261120',
      profile_id: '1234567',
    });
    expect(query).not.toHaveProperty('view_changes');
    expect(query).not.toHaveProperty('triage');
  });
});
