// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { toFmcsa } from '../../../../../../server-proxy/src/sandbox/routes/fmcsa.ts';
import { FMCSA_PROFILE_FIELDS, parseFmcsaProfile } from '../../../../../lib/service/index.ts';
import {
  CURATED_DOTS as TEST_DOTS,
  sandboxProfile as testProfile,
} from '../../../../../test/sandbox-profiles.node.ts';
import { buildFmcsaRows, filterFmcsaRows } from './model.ts';

function rowsOf(dot: string) {
  const record = parseFmcsaProfile(toFmcsa(testProfile(dot).raw as Record<string, unknown>)).value;
  if (!record) throw new Error('no FMCSA record');
  return buildFmcsaRows(record);
}

describe('FMCSA rows', () => {
  it.each(TEST_DOTS)('lists all 236 keys of carrier %s, nulls as "—"', (dot) => {
    const rows = rowsOf(dot);
    expect(rows.map((row) => row.key)).toEqual([...FMCSA_PROFILE_FIELDS]);
    expect(rows).toHaveLength(236);
    expect(rows.every((row) => row.value.length > 0)).toBe(true);
  });

  it('formats by kind: dollars, percentiles, dates, flags and missing values', () => {
    const rows = new Map(rowsOf('568253').map((row) => [row.key, row.value]));
    expect(rows.get('insurance_bipd_on_file')).toBe('$1,000,000');
    expect(rows.get('basic_percentile_unsafe_driving')).toBe('31%');
    expect(rows.get('safety_rating_date')).toBe('11 Jun 2019');
    expect(rows.get('passenger')).toBe('No');
    expect(rows.get('basic_percentile_controlled_substance')).toBe('—');
  });

  it('filters by key or displayed value, case-insensitively', () => {
    const rows = rowsOf('568253');
    const insurance = filterFmcsaRows(rows, 'Insurance_');
    expect(insurance.length).toBeGreaterThan(0);
    expect(insurance.every((row) => row.key.includes('insurance_'))).toBe(true);
    expect(filterFmcsaRows(rows, 'legal name').map((row) => row.key)).toEqual(['legal_name']);
    const byValue = filterFmcsaRows(rows, 'hansen & adkins');
    expect(byValue.map((row) => row.key)).toContain('legal_name');
    expect(filterFmcsaRows(rows, '  ')).toHaveLength(236);
    expect(filterFmcsaRows(rows, 'no-such-thing-xyz')).toEqual([]);
  });
});
