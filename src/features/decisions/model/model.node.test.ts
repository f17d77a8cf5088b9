// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { isExpired, type DecisionRecord } from '../../../lib/vetting/decision-record.ts';
import { csvRow, decisionsCsv } from './csv.ts';
import {
  appliedFilters,
  dateRangeProblem,
  matchesCarrier,
  readCarrierQuery,
  readFilters,
  writeFilters,
} from './filters.ts';

const RECORD: DecisionRecord = {
  id: 7,
  hash: 'a'.repeat(64),
  prev_hash: '0'.repeat(64),
  dot_number: '2214589',
  decision: 'approved_with_conditions',
  note: 'Line one\nline two, with "quotes"',
  conditions: 'Team drivers only',
  expires_on: '2027-02-01',
  supersedes: null,
  user: { id: 'alice', name: 'Alice' },
  decided_at: '2026-11-25T10:00:00.000Z',
  policy_version: 2,
  verdict: {
    verdict: 'review',
    policy_version: 2,
    evaluated_at: '2026-11-25T10:00:00.000Z',
    snapshot_date: '2026-11-16',
    reasons: [
      {
        rule: 'rating_conditional',
        outcome: 'review',
        message: 'FMCSA safety rating Conditional.',
        fields: [],
        tab: 'safety',
      },
      { rule: 'usdot_status', outcome: 'pass', message: 'Active.', fields: [], tab: 'overview' },
    ],
  },
  profile: {
    snapshot_date: '2026-11-16',
    fetched_at: '2026-11-25T09:59:00.000Z',
    identity: [{ name: 'legal_name', value: 'IRONCLAD FREIGHT SYSTEMS INC' }],
    authority: [],
    insurance: [],
    safety: [],
  },
};

describe('decision filters in the URL', () => {
  it('reads valid filters and drops malformed ones', () => {
    expect(
      readFilters(
        new URLSearchParams(
          'dot_number=2214589&decision=rejected&user=alice&from=2026-11-01&to=2026-11-30&page=3',
        ),
      ),
    ).toEqual({
      dot_number: '2214589',
      decision: 'rejected',
      user: 'alice',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 3,
    });
    expect(
      readFilters(new URLSearchParams('dot_number=abc&decision=maybe&from=yesterday&page=-2')),
    ).toEqual({
      dot_number: undefined,
      decision: undefined,
      user: undefined,
      from: undefined,
      to: undefined,
      page: undefined,
    });
  });

  it('writes back only what is set, and round-trips', () => {
    expect(writeFilters({ decision: 'approved', page: 1, user: '' }).toString()).toBe(
      'decision=approved',
    );
    const query = 'dot_number=568253&user=bob&to=2026-12-01&page=2';
    expect(writeFilters(readFilters(new URLSearchParams(query))).toString()).toBe(query);
  });
});

describe('the carrier box', () => {
  it('reads a DOT, a docket in its usual spellings, a profile id or a name', () => {
    expect(readCarrierQuery('2214589')).toEqual({ kind: 'dot', dot: '2214589' });
    expect(readCarrierQuery('USDOT 2214589')).toEqual({ kind: 'dot', dot: '2214589' });
    for (const typed of ['MC745120', 'MC-745120', 'mc 745120', 'MC0745120']) {
      expect(readCarrierQuery(typed), typed).toEqual({ kind: 'docket', docket: 'MC745120' });
    }
    expect(readCarrierQuery('2214589-MC745120')).toEqual({ kind: 'dot', dot: '2214589' });
    expect(readCarrierQuery('  Ironclad   freight ')).toEqual({
      kind: 'name',
      name: 'Ironclad freight',
    });
    expect(readCarrierQuery('')).toEqual({ kind: 'none' });
    expect(readCarrierQuery('x').kind).toBe('invalid');
    expect(readCarrierQuery('—').kind).toBe('invalid');
    expect(readCarrierQuery('a'.repeat(101)).kind).toBe('invalid');
  });

  it('puts a DOT in dot_number and a docket or a name in carrier, and keeps carrier from the proxy', () => {
    expect(readFilters(new URLSearchParams('carrier=mc-745120&page=2'))).toMatchObject({
      dot_number: undefined,
      carrier: 'MC745120',
      page: 2,
    });
    expect(readFilters(new URLSearchParams('carrier=2214589'))).toMatchObject({
      dot_number: '2214589',
      carrier: undefined,
    });
    expect(readFilters(new URLSearchParams('carrier=x')).carrier).toBeUndefined();
    expect(writeFilters({ carrier: 'ironclad', decision: 'approved' }).toString()).toBe(
      'carrier=ironclad&decision=approved',
    );
    expect(appliedFilters({ carrier: 'ironclad', user: 'ann' })).toEqual({ user: 'ann' });
  });

  it('matches a record on the docket, legal name or DBA name it kept', () => {
    const kept = {
      ...RECORD,
      profile: {
        ...RECORD.profile,
        identity: [
          { name: 'legal_name', value: 'IRONCLAD FREIGHT SYSTEMS INC' },
          { name: 'dba_name', value: 'IRONCLAD XPRESS' },
          { name: 'docket', value: 'MC745120' },
        ],
      },
    };
    expect(matchesCarrier(kept, 'MC-745120')).toBe(true);
    expect(matchesCarrier(kept, 'MC74512')).toBe(false);
    expect(matchesCarrier(kept, 'ironclad   freight')).toBe(true);
    expect(matchesCarrier(kept, 'Xpress')).toBe(true);
    expect(matchesCarrier(kept, 'Swiftpath')).toBe(false);
    expect(matchesCarrier(RECORD, 'MC745120')).toBe(false);
  });
});

describe('a backwards date range', () => {
  it('is named, and left out of what is asked', () => {
    const filters = { from: '2026-12-01', to: '2026-01-01', user: 'ann' };
    expect(dateRangeProblem(filters)).toMatch(/“From” \(2026-12-01\) is after “To” \(2026-01-01\)/);
    expect(appliedFilters(filters)).toEqual({ from: undefined, to: undefined, user: 'ann' });
    expect(dateRangeProblem({ from: '2026-01-01', to: '2026-01-01' })).toBeUndefined();
    expect(appliedFilters({ from: '2026-01-01' })).toEqual({ from: '2026-01-01' });
  });
});

describe('the decisions CSV', () => {
  it('has one row per record with the deciding reasons, quoted safely', () => {
    expect(csvRow(RECORD)).toMatchObject({
      id: '7',
      legal_name: 'IRONCLAD FREIGHT SYSTEMS INC',
      decision: 'Approved with conditions',
      verdict: 'review',
      reasons: 'review: FMCSA safety rating Conditional.',
      user: 'Alice',
      hash: 'a'.repeat(64),
    });
    const text = decisionsCsv([RECORD, { ...RECORD, id: 8, supersedes: 7, note: null }]);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(2);
    expect(parsed.data[0]?.note).toBe(RECORD.note);
    expect(parsed.data[1]).toMatchObject({ id: '8', supersedes: '7', note: '' });
  });
});

describe('an override in the decisions CSV', () => {
  it('is marked "override" with its reason; other records leave both empty', () => {
    const override = { ...RECORD, id: 9, override_reason: '=Owner letter on file' };
    const parsed = Papa.parse<Record<string, string>>(decisionsCsv([override, RECORD]), {
      header: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toMatchObject({
      id: '9',
      override: 'override',
      override_reason: "'=Owner letter on file",
    });
    expect(parsed.data[1]).toMatchObject({ id: '7', override: '', override_reason: '' });
  });
});

describe('the decisions CSV with spreadsheet formulas in what people wrote', () => {
  it('neutralises every cell that starts with =, +, -, @, a tab or a carriage return', () => {
    const payloads = [
      '=HYPERLINK("https://evil.example","x")',
      "+cmd|' /C calc'!A0",
      '-2+3',
      '@SUM(A1:A9)',
      '\t=1+1',
      '\r=1+1',
    ];
    const records = payloads.map((payload, index) => ({
      ...RECORD,
      id: index + 1,
      note: payload,
      conditions: payload,
    }));
    const parsed = Papa.parse<Record<string, string>>(decisionsCsv(records), { header: true });
    expect(parsed.errors).toEqual([]);
    parsed.data.forEach((row, index) => {
      expect(row.note).toBe(`'${payloads[index]}`);
      expect(row.conditions).toBe(`'${payloads[index]}`);
    });
  });
});

describe('expiry', () => {
  it('is expired after the re-vet date, not on it, and never without one', () => {
    expect(isExpired({ expires_on: '2026-11-24' }, '2026-11-25')).toBe(true);
    expect(isExpired({ expires_on: '2026-11-25' }, '2026-11-25')).toBe(false);
    expect(isExpired({ expires_on: null }, '2030-01-01')).toBe(false);
  });
});
