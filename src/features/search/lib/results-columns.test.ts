import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { describeSort, riskSeverity, sortResults, type ResultRow } from './results-columns.ts';
import { resultsCsv } from './results-csv.ts';

const rows: ResultRow[] = [
  { dot_number: '1', legal_name: 'B', risk_score: 'High' },
  { dot_number: '2', legal_name: 'a', risk_score: 'Low' },
  { dot_number: '3', legal_name: 'C' },
  { dot_number: '4', legal_name: 'D', risk_score: 'Very High' },
  { dot_number: '5', legal_name: 'E', risk_score: 'Medium' },
];

const dots = (list: readonly ResultRow[]) => list.map((row) => row.dot_number);

describe('sorting a page of results', () => {
  it('sorts risk by severity, not alphabetically; not scored last either way', () => {
    expect(riskSeverity('Very  high')).toBe(3);
    expect(riskSeverity('Unknown')).toBeUndefined();
    expect(dots(sortResults(rows, { column: 'risk', desc: false }))).toEqual([
      '2',
      '5',
      '1',
      '4',
      '3',
    ]);
    expect(dots(sortResults(rows, { column: 'risk', desc: true }))).toEqual([
      '4',
      '1',
      '5',
      '2',
      '3',
    ]);
    expect(describeSort({ column: 'risk', desc: true })).toBe('Risk, highest first');
  });

  it('sorts names case-insensitively and DOTs numerically; no sort keeps the service order', () => {
    expect(dots(sortResults(rows, { column: 'name', desc: false }))).toEqual([
      '2',
      '1',
      '3',
      '4',
      '5',
    ]);
    const numbers = [{ dot_number: '10' }, { dot_number: '9' }];
    expect(dots(sortResults(numbers, { column: 'dot', desc: false }))).toEqual(['9', '10']);
    expect(sortResults(rows, undefined)).toBe(rows);
  });
});

describe('the CSV of a page of results', () => {
  it('has one line per row in the order shown, quoted, formulas neutralised', () => {
    const csv = resultsCsv([
      {
        dot_number: '568253',
        docket: 'MC277621',
        legal_name: 'HANSEN & ADKINS, "AUTO"',
        physical_address_city: 'LONG BEACH',
        physical_address_state: 'CA',
        usdot_status: 'Active',
        out_of_service_flag: false,
        authority_common: 'Active',
        indicator_insurance: true,
        risk_score: 'Low',
      },
      { dot_number: '2', legal_name: '=HYPERLINK("x")' },
    ]);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true }).data;
    expect(parsed[0]).toEqual({
      dot_number: '568253',
      docket: 'MC277621',
      legal_name: 'HANSEN & ADKINS, "AUTO"',
      dba_name: '',
      city: 'LONG BEACH',
      state: 'CA',
      usdot_status: 'Active',
      out_of_service: 'no',
      authority: 'Active: common',
      insurance: 'Pass',
      risk_score: 'Low',
    });
    expect(parsed[1]?.legal_name).toBe(`'=HYPERLINK("x")`);
    expect(parsed[1]?.risk_score).toBe('Not scored');
  });
});
