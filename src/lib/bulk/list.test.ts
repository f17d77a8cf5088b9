import { describe, expect, it } from 'vitest';
import { boxEntries, checkList, splitNumbered } from './list.ts';

describe('a bulk list numbered as the user sees it', () => {
  it('numbers pasted entries by their line, blank lines counted, several on a line sharing it', () => {
    expect(splitNumbered('DOT numbers\n568253\n\n\n2214589, MC-277621\r\n 4418207 ')).toEqual([
      { input: 'DOT numbers', position: 1 },
      { input: '568253', position: 2 },
      { input: '2214589', position: 5 },
      { input: 'MC-277621', position: 5 },
      { input: '4418207', position: 6 },
    ]);
  });

  it('names entries left out, and the entry a repeat repeats, by line or row', () => {
    const { valid, rejected } = checkList(
      splitNumbered('header\n568253\n\n123456789\nUSDOT 568253\nMC-277621'),
      'line',
    );
    expect(valid.map((v) => [v.position, v.input, v.key])).toEqual([
      [2, '568253', 'dot:568253'],
      [6, 'MC-277621', 'docket:MC277621'],
    ]);
    expect(rejected.map((r) => [r.position, r.reason, r.message.slice(0, 20)])).toEqual([
      [1, 'invalid', 'Not a USDOT number o'],
      [4, 'invalid', 'Not a USDOT number o'],
      [5, 'duplicate', 'Repeats line 2 (5682'],
    ]);
    const rows = checkList(
      [
        { input: '568253', position: 3 },
        { input: '568253', position: 34 },
      ],
      'row',
    );
    expect(rows.rejected[0]).toMatchObject({ position: 34, message: 'Repeats row 3 (568253).' });
  });

  it('numbers a box filled from a file by the file rows of its lines', () => {
    expect(boxEntries('568253\n2214589', [2, 34])).toEqual({
      entries: [
        { input: '568253', position: 2 },
        { input: '2214589', position: 34 },
      ],
      numbering: 'row',
    });
    expect(boxEntries('568253\n2214589', undefined).numbering).toBe('line');
  });
});
