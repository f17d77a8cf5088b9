import { describe, expect, it } from 'vitest';
import { isCompactDate } from '../../../../src/lib/service/rules/index.ts';
import { monthsAfter, toCompactDay } from './dates.ts';
import { parseProfileId, resolveProfileId } from './ids.ts';
import { fixtureDataset } from './server.test-support.ts';

describe('profile IDs', () => {
  it.each([
    ['568253-MC277621', { dot: '568253', docket: 'MC277621' }],
    ['568253-mc277621', { dot: '568253', docket: 'MC277621' }],
    ['1000002-MX100002', { dot: '1000002', docket: 'MX100002' }],
    ['1000004-FF100004', { dot: '1000004', docket: 'FF100004' }],
    ['1000003', { dot: '1000003' }],
  ])('parses %s', (raw, parsed) => {
    expect(parseProfileId(raw)).toEqual(parsed);
  });

  it.each([
    '',
    'MC277621',
    '0568253-MC277621',
    '568253-',
    '568253-XX1',
    '568253 -MC1',
    '123456789',
  ])('refuses %j', (raw) => {
    expect(parseProfileId(raw)).toBeUndefined();
  });

  it('resolves only the carrier’s own docket, and the bare DOT only without a docket', () => {
    const dataset = fixtureDataset();
    const resolve = (raw: string) => resolveProfileId(parseProfileId(raw) ?? { dot: '' }, dataset);
    expect(resolve('568253-mc277621')).toEqual({
      ok: true,
      profileId: '568253-MC277621',
      dot: '568253',
    });
    expect(resolve('1000003')).toMatchObject({ ok: true, profileId: '1000003' });
    expect(resolve('568253')).toMatchObject({
      ok: false,
      error: expect.stringContaining('MC277621'),
    });
    expect(resolve('568253-MX277621').ok).toBe(false);
    expect(resolve('7654321-MC1')).toEqual({ ok: false, error: 'Profile not found' });
  });
});

describe('dates', () => {
  it('accepts real YYYYMMDD dates only', () => {
    expect(isCompactDate('20240229')).toBe(true);
    expect(isCompactDate('20250229')).toBe(false);
    expect(isCompactDate('20261301')).toBe(false);
    expect(isCompactDate('2026-01-01')).toBe(false);
  });

  it('reads profile dates, timestamps and compact dates as YYYYMMDD', () => {
    expect(toCompactDay('2026-03-02')).toBe('20260302');
    expect(toCompactDay('2026-03-02T10:00:00Z')).toBe('20260302');
    expect(toCompactDay('20260302')).toBe('20260302');
    expect(toCompactDay('March 2')).toBeUndefined();
    expect(toCompactDay(null)).toBeUndefined();
  });

  it('lists the months after one month up to another, across a year end', () => {
    expect(monthsAfter('2026-11', '2027-02')).toEqual(['2026-12', '2027-01', '2027-02']);
    expect(monthsAfter('2026-11', '2026-11')).toEqual([]);
  });
});
