import { describe, expect, it } from 'vitest';
import { csvFileName, tableCsv, type CsvColumn } from './csv.ts';

interface Row {
  name: string;
  count?: number;
  ok?: boolean;
}

const COLUMNS: CsvColumn<Row>[] = [
  { header: 'name', value: (r) => r.name },
  { header: 'count', value: (r) => r.count },
  { header: 'ok', value: (r) => r.ok },
];

describe('tableCsv', () => {
  it('writes a header line and one CRLF line per row; yes/no for flags, blank for missing', () => {
    expect(
      tableCsv(
        [
          { name: 'A', count: 3, ok: true },
          { name: 'B', ok: false },
        ],
        COLUMNS,
      ),
    ).toBe('name,count,ok\r\nA,3,yes\r\nB,,no');
  });

  it('quotes separators and neutralises spreadsheet formulas', () => {
    expect(tableCsv([{ name: 'HANSEN, INC "2"' }, { name: '=HYPERLINK("x")' }], COLUMNS)).toBe(
      'name,count,ok\r\n"HANSEN, INC ""2""",,\r\n"\'=HYPERLINK(""x"")",,',
    );
  });

  it('is only the header for no rows', () => {
    expect(tableCsv([], COLUMNS)).toBe('name,count,ok');
  });
});

describe('csvFileName', () => {
  it('dates the file', () => {
    expect(csvFileName('inspections-568253', new Date('2026-11-25T18:00:00Z'))).toBe(
      'inspections-568253-2026-11-25.csv',
    );
  });
});
