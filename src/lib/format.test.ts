import { describe, expect, it } from 'vitest';
import {
  MISSING,
  formatAge,
  formatCount,
  formatDate,
  formatDollars,
  formatEin,
  formatFlag,
  formatPercent,
  formatPhone,
  formatRiskScore,
  formatUsd,
  triState,
} from './format.ts';

describe('number formatters', () => {
  it('groups counters and leaves missing values visible as a dash', () => {
    expect(formatCount(101844)).toBe('101,844');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(undefined)).toBe(MISSING);
    expect(formatCount(Number.NaN)).toBe(MISSING);
  });

  it('formats dollars without cents and spend with cents', () => {
    expect(formatDollars(1000000)).toBe('$1,000,000');
    expect(formatUsd(0.5)).toBe('$0.50');
    expect(formatUsd(15)).toBe('$15.00');
    expect(formatDollars(null)).toBe(MISSING);
  });

  it('reads 0-1 rates and percentiles as percentages', () => {
    expect(formatPercent(0.183)).toBe('18.3%');
    expect(formatPercent(0.65)).toBe('65%');
    expect(formatPercent(1)).toBe('100%');
  });
});

describe('dates', () => {
  it('reads calendar dates without a time-zone shift', () => {
    expect(formatDate('2026-11-16')).toBe('16 Nov 2026');
    expect(formatDate('2024-01-01T23:30:00')).toBe('1 Jan 2024');
    expect(formatDate(undefined)).toBe(MISSING);
    expect(formatDate('soon')).toBe('soon');
  });

  it('says how old a moment is', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(formatAge('2026-11-22T11:59:30Z', now)).toBe('just now');
    expect(formatAge('2026-11-22T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAge('2026-11-22T09:00:00Z', now)).toBe('3 h ago');
    expect(formatAge('2026-11-21T12:00:00Z', now)).toBe('1 day ago');
    expect(formatAge('2026-11-19T12:00:00Z', now)).toBe('3 days ago');
  });
});

describe('tri-state and flags', () => {
  it('treats only an explicit false as a failure', () => {
    expect(triState(true)).toBe('pass');
    expect(triState(false)).toBe('fail');
    expect(triState(null)).toBe('not-applicable');
    expect(triState(undefined)).toBe('not-applicable');
  });

  it('keeps unknown flags distinct from No', () => {
    expect(formatFlag(false)).toBe('No');
    expect(formatFlag(undefined)).toBe(MISSING);
  });

  it('reads an absent risk score as not scored', () => {
    expect(formatRiskScore(undefined)).toBe('Not scored');
    expect(formatRiskScore('High')).toBe('High');
  });
});

describe('identifiers', () => {
  it('formats North American phone numbers and keeps others as sent', () => {
    expect(formatPhone('4127478482')).toBe('(412) 747-8482');
    expect(formatPhone('+1 412 747 8482')).toBe('(412) 747-8482');
    expect(formatPhone('12345')).toBe('12345');
  });

  it('formats EINs with the hyphen', () => {
    expect(formatEin('341441019')).toBe('34-1441019');
    expect(formatEin('34-1441019')).toBe('34-1441019');
  });
});
