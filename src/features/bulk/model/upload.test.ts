import writeXlsxFile from 'write-excel-file/browser';
import { describe, expect, it } from 'vitest';
import {
  UploadError,
  columnEntries,
  columnPreviews,
  detectHeader,
  likelyColumn,
  parseCsvText,
  readUpload,
} from './upload.ts';

const CSV = [
  'Company,DOT number,Notes',
  'Hansen,568253,"long, quoted"',
  'Acme,2214589,',
  ',,',
  'Junk Ltd,not a number,x',
  'Beta,MC-277621,y',
].join('\r\n');

describe('an uploaded CSV', () => {
  it('is read into rows of trimmed cells, blank rows dropped, quotes understood', async () => {
    const { grid, rows } = await parseCsvText(CSV);
    expect(grid).toHaveLength(5);
    expect(grid[1]).toEqual(['Hansen', '568253', 'long, quoted']);
    // the blank row 4 is left out, and counted
    expect(rows).toEqual([1, 2, 3, 5, 6]);
  });

  it('has its identifier column and header found; entries named by their row in the file', async () => {
    const sheet = await parseCsvText(CSV);
    const { grid } = sheet;
    expect(likelyColumn(grid)).toBe(1);
    expect(detectHeader(grid, 1)).toBe(true);
    // a column of names has no identifiers under its first row: no header to detect there
    expect(detectHeader(grid, 0)).toBe(false);
    expect(columnEntries(sheet, 1, true)).toEqual([
      { input: '568253', position: 2 },
      { input: '2214589', position: 3 },
      { input: 'not a number', position: 5 },
      { input: 'MC-277621', position: 6 },
    ]);
  });

  it('without a header keeps its first row as an entry', async () => {
    const sheet = await parseCsvText('\n568253\n\n\n2214589\n');
    expect(detectHeader(sheet.grid, 0)).toBe(false);
    expect(columnEntries(sheet, 0, false)).toEqual([
      { input: '568253', position: 2 },
      { input: '2214589', position: 5 },
    ]);
  });

  it('previews each column with its header and first values', async () => {
    const { grid } = await parseCsvText(CSV);
    const previews = columnPreviews(grid, true, 2);
    expect(previews.map((p) => p.label)).toEqual(['Company', 'DOT number', 'Notes']);
    expect(previews[1]).toMatchObject({ sample: ['568253', '2214589'], filled: 4 });
    expect(columnPreviews(grid, false)[0]?.label).toBe('Column 1');
  });

  it('reads semicolon- and tab-separated files too', async () => {
    expect((await parseCsvText('a;b\n1;568253\n2;2214589')).grid[1]).toEqual(['1', '568253']);
    expect((await parseCsvText('a\tb\n1\t568253\n2\t2214589')).grid[2]).toEqual(['2', '2214589']);
  });
});

describe('an uploaded workbook', () => {
  it('is read from its first sheet, numbers as text', async () => {
    const blob = await writeXlsxFile(
      [
        [{ value: 'Name' }, { value: 'USDOT' }],
        [{ value: 'Hansen' }, { value: 568253 }],
        [null, null],
        [{ value: 'Beta' }, { value: 'MC277621' }],
      ],
      { sheet: 'Carriers' },
    ).toBlob();
    const file = new File([await blob.arrayBuffer()], 'carriers.xlsx');
    const sheet = await readUpload(file);
    const { grid } = sheet;
    expect(grid).toEqual([
      ['Name', 'USDOT'],
      ['Hansen', '568253'],
      ['Beta', 'MC277621'],
    ]);
    expect(likelyColumn(grid)).toBe(1);
    expect(detectHeader(grid, 1)).toBe(true);
    expect(columnEntries(sheet, 1, true)).toEqual([
      { input: '568253', position: 2 },
      { input: 'MC277621', position: 4 },
    ]);
  });

  it('that is no workbook is refused with a reason', async () => {
    const file = new File(['not a zip'], 'broken.xlsx');
    await expect(readUpload(file)).rejects.toBeInstanceOf(UploadError);
    await expect(readUpload(new File(['x'], 'old.xls'))).rejects.toThrow(/\.xlsx or CSV/);
  });
});
