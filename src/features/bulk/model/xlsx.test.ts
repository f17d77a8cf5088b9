import { readSheet } from 'read-excel-file/browser';
import { describe, expect, it } from 'vitest';
import { xlsxBlob, xlsxFileName } from './xlsx.ts';

describe('the XLSX export', () => {
  it('writes a header row and one row per result, formulas kept as text', async () => {
    const rows = [
      { name: 'HANSEN', dot: 568253, oos: false },
      { name: '=HYPERLINK("x")', dot: undefined, oos: true },
    ];
    const blob = await xlsxBlob(rows, [
      { header: 'name', value: (row) => row.name },
      { header: 'dot_number', value: (row) => row.dot },
      { header: 'out_of_service', value: (row) => row.oos },
    ]);
    const sheet = await readSheet(await blob.arrayBuffer());
    expect(sheet).toEqual([
      ['name', 'dot_number', 'out_of_service'],
      ['HANSEN', 568253, 'no'],
      ['=HYPERLINK("x")', null, 'yes'],
    ]);
    expect(xlsxFileName('bulk-7', new Date('2026-11-26T03:00:00Z'))).toBe('bulk-7-2026-11-26.xlsx');
  });
});
