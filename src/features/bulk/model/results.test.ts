import { describe, expect, it } from 'vitest';
import { tableCsv } from '../../../components/data-table/csv.ts';
import type { BulkItem } from '../../../lib/bulk/contract.ts';
import { formatDuration, formatRate } from './format.ts';
import { progressOf } from './progress.ts';
import {
  EXPORT_COLUMNS,
  filterRows,
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
      basic_alerts: verdict === 'pass' ? [] : ['Unsafe driving'],
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
    expect(filterRows(ROWS, { ...ALL, status: 'failed' }).map((r) => r.id)).toEqual(['3']);
    expect(filterRows(ROWS, { ...ALL, q: 'BETA' }).map((r) => r.id)).toEqual(['4']);
    expect(filterRows(ROWS, { ...ALL, q: '102' }).map((r) => r.id)).toEqual(['2']);
  });

  it('sorts like the table, missing values last in both directions', () => {
    const byName = sortRows(ROWS, { id: 'name', desc: false }).map((r) => r.name ?? '-');
    expect(byName).toEqual(['Acme', 'beta', 'Hansen', '-', '-']);
    const worst = sortRows(ROWS, { id: 'verdict', desc: true }).map((r) => r.verdict ?? '-');
    expect(worst).toEqual(['fail', 'review', 'pass', '-', '-']);
    expect(sortRows(ROWS, undefined)).toBe(ROWS);
  });

  it('exports the rows shown with reasons and failures in words', () => {
    const csv = tableCsv(sortRows(filterRows(ROWS, { ...ALL, q: 'a' }), undefined), EXPORT_COLUMNS);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'identifier,dot_number,name,status,verdict,authority,insurance,safety_rating,basic_alerts,out_of_service,linked_carrier_warnings,reasons,error',
    );
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe(
      '2,102,Acme,done,Fail,Active,On file,,Unsafe driving,yes,2,Unsafe driving over threshold,',
    );
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
