import { describe, expect, it } from 'vitest';
import { csvFileName, neutralised, tableCsv, type CsvColumn } from './csv.ts';

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

  it("neutralises a formula followed by more lines (papaparse's own pattern stops at a line break)", () => {
    expect(tableCsv([{ name: '=HYPERLINK("http://evil","x")\nsecond line' }], COLUMNS)).toBe(
      'name,count,ok\r\n"\'=HYPERLINK(""http://evil"",""x"")\nsecond line",,',
    );
  });

  it('keeps numbers as numbers: a -3 count, and "-3" or "+1.5" as text, are not prefixed', () => {
    expect(
      tableCsv(
        [
          { name: '-3', count: -3 },
          { name: '+1.5', count: -0.5 },
        ],
        COLUMNS,
      ),
    ).toBe('name,count,ok\r\n-3,-3,\r\n+1.5,-0.5,');
  });

  it('neutralises a header that starts like a formula', () => {
    const columns: CsvColumn<Row>[] = [{ header: '@SUM(1+1) (DOT 1)', value: (r) => r.name }];
    expect(tableCsv([{ name: 'A' }], columns)).toBe("'@SUM(1+1) (DOT 1)\r\nA");
  });

  it('is only the header for no rows', () => {
    expect(tableCsv([], COLUMNS)).toBe('name,count,ok');
  });
});

describe('neutralised', () => {
  it.each([
    ['=1+1'],
    ["+cmd|' /C calc'!A0"],
    ["-2+3+cmd|' /C calc'!A0"],
    ['@SUM(1+1)'],
    ['\t=1+1'],
    ['\r=1+1'],
    ['\tplain'],
    ['\rplain'],
    [' =1+1'],
    ['\n=1+1'],
    ['\u00a0\u3000=1+1'],
    ['\uFF1D1+1'],
    ['\uFF0B1'],
    ['\uFF201'],
    ['=1\nline two'],
    ['-'],
    ['- 3'],
    ['-3 days'],
  ])('prefixes %j with an apostrophe', (text) => {
    expect(neutralised(text)).toBe(`'${text}`);
  });

  it.each([['HANSEN'], ['-3'], ['+1.5'], ['12'], ['a=b'], ["'=already text"], ['\nplain'], ['']])(
    'leaves %j as it is',
    (text) => {
      expect(neutralised(text)).toBe(text);
    },
  );
});

describe('csvFileName', () => {
  it('dates the file', () => {
    expect(csvFileName('inspections-568253', new Date('2026-11-25T18:00:00Z'))).toBe(
      'inspections-568253-2026-11-25.csv',
    );
  });
});
