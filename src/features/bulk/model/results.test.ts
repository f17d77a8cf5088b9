import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { tableCsv } from '../../../components/data-table/csv.ts';
import type { BulkItem } from '../../../lib/bulk/contract.ts';
import { formatDuration, formatRate } from './format.ts';
import { progressOf } from './progress.ts';
import {
  exportColumns,
  filterRows,
  jobRows,
  readResultParams,
  resultRow,
  sortRows,
  writeResultParams,
  type ResultParams,
} from './results.ts';

function item(position: number, over: Partial<BulkItem> = {}): BulkItem {
  return { position, identifier: String(position), status: 'pending', attempts: 0, ...over };
}

function done(position: number, name: string, verdict: 'pass' | 'review' | 'fail'): BulkItem {
  return item(position, {
    status: 'done',
    dot_number: String(100 + position),
    verdict,
    result: {
      name,
      verdict,
      policy_version: 1,
      reasons: verdict === 'pass' ? [] : ['Unsafe driving over threshold'],
      usdot_status: 'ACTIVE',
      authority: 'Active',
      insurance: 'On file',
      safety_rating: null,
      basic_alerts: verdict === 'pass' ? [] : ['unsafe_driving', 'vehicle_maintence'],
      out_of_service: verdict === 'fail',
      linked_warnings: verdict === 'fail' ? 2 : 0,
      snapshot_date: '2026-11-20',
    },
  });
}

const ITEMS = [
  done(1, 'Hansen', 'pass'),
  done(2, 'Acme', 'fail'),
  item(3, { status: 'failed', error: { code: 'not_found', message: 'No carrier has DOT 3.' } }),
  done(4, 'beta', 'review'),
  item(5),
];
const ROWS = ITEMS.map(resultRow);
const ALL: ResultParams = { verdict: undefined, status: undefined, q: '', sort: undefined };

describe('the result filters in the URL', () => {
  it('round-trip and keep other parameters', () => {
    const params = writeResultParams(new URLSearchParams('page=2'), {
      verdict: 'fail',
      q: 'acme',
      sort: { id: 'name', desc: true },
    });
    expect(params.toString()).toBe('page=2&verdict=fail&q=acme&sort=name&dir=desc');
    expect(readResultParams(params)).toEqual({
      verdict: 'fail',
      status: undefined,
      q: 'acme',
      sort: { id: 'name', desc: true },
    });
    const cleared = writeResultParams(params, { verdict: undefined, sort: undefined, q: ' ' });
    expect(cleared.toString()).toBe('page=2');
  });

  it('drop unknown values', () => {
    const read = readResultParams(new URLSearchParams('verdict=maybe&status=gone&sort=nope'));
    expect(read).toEqual(ALL);
  });
});

describe('filtering and sorting the rows', () => {
  it('filters by verdict, status and text (identifier, DOT or name, any case)', () => {
    expect(filterRows(ROWS, { ...ALL, verdict: 'fail' }).map((r) => r.name)).toEqual(['Acme']);
    expect(filterRows(ROWS, { ...ALL, status: 'failed' }).map((r) => r.id)).toEqual(['item-3']);
    expect(filterRows(ROWS, { ...ALL, q: 'BETA' }).map((r) => r.id)).toEqual(['item-4']);
    expect(filterRows(ROWS, { ...ALL, q: '102' }).map((r) => r.id)).toEqual(['item-2']);
  });

  it('sorts like the table, missing values last in both directions', () => {
    const byName = sortRows(ROWS, { id: 'name', desc: false }).map((r) => r.name ?? '-');
    expect(byName).toEqual(['Acme', 'beta', 'Hansen', '-', '-']);
    const worst = sortRows(ROWS, { id: 'verdict', desc: true }).map((r) => r.verdict ?? '-');
    expect(worst).toEqual(['fail', 'review', 'pass', '-', '-']);
    expect(sortRows(ROWS, undefined)).toBe(ROWS);
  });

  it('exports the rows shown with their line, reasons, failures and BASIC names in words', () => {
    const csv = tableCsv(
      sortRows(filterRows(ROWS, { ...ALL, q: 'a' }), undefined),
      exportColumns('line'),
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'line,identifier,dot_number,name,status,verdict,authority,insurance,safety_rating,basic_alerts,out_of_service,linked_carrier_warnings,reasons,error,inputs,left_out',
    );
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe(
      '2,2,102,Acme,done,Fail,Active,On file,,Unsafe Driving; Vehicle Maintenance,yes,2,Unsafe driving over threshold,,,',
    );
  });

  it('lists the entries left out among the carriers by their row, and a carrier given twice once', () => {
    const items: BulkItem[] = [
      {
        ...done(1, 'Hansen', 'pass'),
        row: 3,
        identifier: '568253',
        inputs: [
          { identifier: '568253', row: 3 },
          { identifier: 'MC123456', row: 9 },
        ],
      },
      { ...done(2, 'Acme', 'fail'), row: 34 },
    ];
    const rejected = [
      { input: 'junk', position: 5, reason: 'invalid' as const, message: 'Not a USDOT number.' },
      { input: '568253', position: 40, reason: 'duplicate' as const, message: 'Repeats row 3.' },
    ];
    const rows = jobRows(items, rejected);
    expect(rows.map((r) => [r.row, r.identifier, r.status])).toEqual([
      [3, '568253', 'done'],
      [5, 'junk', 'left_out'],
      [34, '2', 'done'],
      [40, '568253', 'left_out'],
    ]);
    expect(filterRows(rows, { ...ALL, status: 'left_out' })).toHaveLength(2);
    expect(filterRows(rows, { ...ALL, q: 'mc123' }).map((r) => r.row)).toEqual([3]);
    expect(readResultParams(new URLSearchParams('status=left_out')).status).toBe('left_out');
    const csv = Papa.parse<Record<string, string>>(tableCsv(rows, exportColumns('row')), {
      header: true,
    }).data;
    expect(csv[0]).toMatchObject({ row: '3', inputs: '568253 (row 3); MC123456 (row 9)' });
    expect(csv[1]).toMatchObject({
      row: '5',
      identifier: 'junk',
      status: 'left_out',
      left_out: 'Left out (invalid): Not a USDOT number.',
    });
    expect(csv[3]).toMatchObject({ row: '40', left_out: 'Left out (duplicate): Repeats row 3.' });
  });
});

describe('progress wording', () => {
  it('counts done and failed items as checked', () => {
    expect(progressOf({ total: 8, done: 3, failed: 1 })).toEqual({ finished: 4, percent: 50 });
    expect(progressOf({ total: 0, done: 0, failed: 0 }).percent).toBe(100);
  });

  it('says durations and rates plainly', () => {
    expect(formatDuration(30)).toBe('under a minute');
    expect(formatDuration(3_900)).toBe('1 h 5 min');
    expect(formatDuration(3 * 86_400)).toBe('3 days');
    expect(formatDuration(null)).toBe('—');
    expect(formatRate(4.96)).toBe('5 a minute');
    expect(formatRate(120.4)).toBe('120 a minute');
    expect(formatRate(null)).toBe('—');
  });
});
