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
    const grid = await parseCsvText(CSV);
    expect(grid).toHaveLength(5);
    expect(grid[1]).toEqual(['Hansen', '568253', 'long, quoted']);
  });

  it('has its identifier column and header found', async () => {
    const grid = await parseCsvText(CSV);
    expect(likelyColumn(grid)).toBe(1);
    expect(detectHeader(grid, 1)).toBe(true);
    // a column of names has no identifiers under its first row: no header to detect there
    expect(detectHeader(grid, 0)).toBe(false);
    expect(columnEntries(grid, 1, true)).toEqual([
      '568253',
      '2214589',
      'not a number',
      'MC-277621',
    ]);
  });

  it('without a header keeps its first row as an entry', async () => {
    const grid = await parseCsvText('568253\n2214589\n');
    expect(detectHeader(grid, 0)).toBe(false);
    expect(columnEntries(grid, 0, false)).toEqual(['568253', '2214589']);
  });

  it('previews each column with its header and first values', async () => {
    const grid = await parseCsvText(CSV);
    const previews = columnPreviews(grid, true, 2);
    expect(previews.map((p) => p.label)).toEqual(['Company', 'DOT number', 'Notes']);
    expect(previews[1]).toMatchObject({ sample: ['568253', '2214589'], filled: 4 });
    expect(columnPreviews(grid, false)[0]?.label).toBe('Column 1');
  });

  it('reads semicolon- and tab-separated files too', async () => {
    expect((await parseCsvText('a;b\n1;568253\n2;2214589'))[1]).toEqual(['1', '568253']);
    expect((await parseCsvText('a\tb\n1\t568253\n2\t2214589'))[2]).toEqual(['2', '2214589']);
  });
});

describe('an uploaded workbook', () => {
  it('is read from its first sheet, numbers as text', async () => {
    const blob = await writeXlsxFile(
      [
        [{ value: 'Name' }, { value: 'USDOT' }],
        [{ value: 'Hansen' }, { value: 568253 }],
        [{ value: 'Beta' }, { value: 'MC277621' }],
      ],
      { sheet: 'Carriers' },
    ).toBlob();
    const file = new File([await blob.arrayBuffer()], 'carriers.xlsx');
    const grid = await readUpload(file);
    expect(grid).toEqual([
      ['Name', 'USDOT'],
      ['Hansen', '568253'],
      ['Beta', 'MC277621'],
    ]);
    expect(likelyColumn(grid)).toBe(1);
    expect(detectHeader(grid, 1)).toBe(true);
  });

  it('that is no workbook is refused with a reason', async () => {
    const file = new File(['not a zip'], 'broken.xlsx');
    await expect(readUpload(file)).rejects.toBeInstanceOf(UploadError);
    await expect(readUpload(new File(['x'], 'old.xls'))).rejects.toThrow(/\.xlsx or CSV/);
  });
});
