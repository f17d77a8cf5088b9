// @vitest-environment node
/**
 * Every export of the dashboard with spreadsheet-formula payloads in each free-text field it carries
 * (issue 31 item 3): the file, parsed back, has no cell a spreadsheet would run as a formula, and the
 * text is otherwise kept. The app may import every feature, so the table of exports lives here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { exportColumns, type ResultRow as BulkRow } from '../features/bulk/model/results.ts';
import { xlsxBlob } from '../features/bulk/model/xlsx.ts';
import { comparisonCsv, type CompareSection } from '../features/compare/model/compare-model.ts';
import { decisionsCsv } from '../features/decisions/model/csv.ts';
import { toCsv } from '../features/monitoring/model/csv.ts';
import { CRASH_CSV } from '../features/profile/components/tabs/crashes/model.ts';
import { EQUIPMENT_CSV } from '../features/profile/components/tabs/fleet/model.ts';
import { INSPECTION_CSV } from '../features/profile/components/tabs/inspections/model.ts';
import { resultsCsv } from '../features/search/lib/results-csv.ts';
import { tenderChecksCsv } from '../features/tender/model/csv.ts';
import { tableCsv } from '../components/data-table/csv.ts';
import type { TriageEntry } from '../lib/monitoring/inbox.ts';
import type { DecisionRecord } from '../lib/vetting/decision-record.ts';

const PAYLOADS = [
  '=HYPERLINK("http://evil","x")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '=HYPERLINK("http://evil","x")\nsecond line',
];

/**
 * Would a spreadsheet run this cell? Written here on its own (not csv.ts's rule): OWASP's leading
 * `=`, `+`, `-`, `@`, tab or carriage return, also after leading white space; a plain number such
 * as `-3` is a number, not a formula.
 */
function runsAsFormula(cell: string): boolean {
  if (/^[+-]?\d+(\.\d+)?$/.test(cell)) return false;
  return /^[\t\r]/.test(cell) || /^[=+\-@]/.test(cell.trimStart());
}

/** Every cell, header line included. */
function cells(csv: string): string[][] {
  const parsed = Papa.parse<string[]>(csv, { header: false, newline: '\r\n' });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

interface CsvExport {
  name: string;
  /** the export's file with the payload in every free-text field it carries */
  write: (payload: string) => string;
  /** the columns that carry the payload as the whole cell */
  carriers: readonly string[];
}

const decisionRecord = (payload: string): DecisionRecord => ({
  id: 7,
  hash: 'a'.repeat(64),
  prev_hash: '0'.repeat(64),
  dot_number: '2214589',
  decision: 'approved_with_conditions',
  note: payload,
  conditions: payload,
  override_reason: payload,
  expires_on: '2027-02-01',
  supersedes: null,
  user: { id: 'mallory', name: payload },
  decided_at: '2026-11-25T10:00:00.000Z',
  policy_version: 2,
  verdict: {
    verdict: 'review',
    policy_version: 2,
    evaluated_at: '2026-11-25T10:00:00.000Z',
    snapshot_date: '2026-11-16',
    reasons: [],
  },
  profile: {
    snapshot_date: '2026-11-16',
    fetched_at: '2026-11-25T09:59:00.000Z',
    identity: [{ name: 'legal_name', value: payload }],
    authority: [],
    insurance: [],
    safety: [],
  },
});

const bulkRow = (payload: string): BulkRow => ({
  id: 'item-1',
  row: 2,
  identifier: payload,
  inputs: [],
  dot: '568253',
  name: payload,
  status: 'done',
  verdict: undefined,
  authority: payload,
  insurance: payload,
  safetyRating: payload,
  basicAlerts: [payload],
  outOfService: false,
  linkedWarnings: -3,
  reasons: [payload],
  error: payload,
  leftOut: payload,
});
const BULK_CARRIERS = [
  'identifier',
  'name',
  'authority',
  'insurance',
  'safety_rating',
  'basic_alerts',
  'reasons',
  'error',
  'left_out',
];

const compareSections = (payload: string): CompareSection[] => [
  {
    id: 'identity',
    title: payload,
    rows: [
      {
        id: 'legal_name',
        label: payload,
        cells: [{ text: payload, state: 'value' }],
        differs: false,
      },
    ],
  },
];

const EXPORTS: readonly CsvExport[] = [
  {
    name: 'decisions (decisionsCsv)',
    write: (payload) => decisionsCsv([decisionRecord(payload)]),
    carriers: ['legal_name', 'note', 'conditions', 'override_reason', 'user'],
  },
  {
    name: 'monitoring inbox (toCsv)',
    write: (payload) =>
      toCsv({
        changes: [
          {
            id: 'c1',
            profileId: '568253-MC277621',
            dot: '568253',
            docket: 'MC277621',
            date: '2026-11-20',
            field: 'email_address',
            prior: payload,
            current: payload,
            channel: undefined,
          },
        ],
        triage: new Map<string, TriageEntry>([
          ['c1', { id: 'c1', state: 'reviewed', note: payload, by: payload, at: '2026-11-21' }],
        ]),
        nameOf: () => payload,
      }),
    carriers: ['name', 'prior', 'current', 'triage_note', 'triaged_by'],
  },
  {
    name: 'bulk results, numbered by line (exportColumns)',
    write: (payload) => tableCsv([bulkRow(payload)], exportColumns('line')),
    carriers: BULK_CARRIERS,
  },
  {
    name: 'compare (comparisonCsv)',
    write: (payload) => comparisonCsv(compareSections(payload), [{ dot: '1', name: payload }]),
    carriers: ['Section', 'Attribute'],
  },
  {
    name: 'search results (resultsCsv)',
    write: (payload) =>
      resultsCsv([
        {
          dot_number: '568253',
          legal_name: payload,
          dba_name: payload,
          physical_address_city: payload,
          physical_address_state: payload,
          usdot_status: payload,
        },
      ]),
    carriers: ['legal_name', 'dba_name', 'city', 'state', 'usdot_status'],
  },
  {
    name: 'profile crashes (CRASH_CSV)',
    write: (payload) =>
      tableCsv(
        [
          {
            id: 'c0',
            crash: {
              extra: {},
              report_number: payload,
              report_date: '2026-03-03',
              city: payload,
              state: payload,
              location: payload,
              fatalities: 0,
              vehicle_identification_number: payload,
            },
          },
        ],
        CRASH_CSV,
      ),
    carriers: ['report_number', 'city', 'state', 'location', 'vin'],
  },
  {
    name: 'profile inspections (INSPECTION_CSV)',
    write: (payload) =>
      tableCsv(
        [
          {
            id: 'i0',
            inspection: {
              extra: {},
              report_number: payload,
              insp_date: '2026-03-03',
              report_state: payload,
              location_desc: payload,
              viol_total: 2,
            },
          },
        ],
        INSPECTION_CSV,
      ),
    carriers: ['report_number', 'state', 'location'],
  },
  {
    name: 'profile fleet (EQUIPMENT_CSV)',
    write: (payload) =>
      tableCsv(
        [
          {
            extra: {},
            vin: payload,
            unit_type_desc: payload,
            primary_category: payload,
            make: payload,
            model: payload,
            insp_unit_license: payload,
            insp_unit_license_state: payload,
            insp_unit_company: payload,
          },
        ],
        EQUIPMENT_CSV,
      ),
    carriers: [
      'vin',
      'unit_type',
      'primary_category',
      'make',
      'model',
      'plate',
      'plate_state',
      'unit',
    ],
  },
  {
    name: 'tender checks (tenderChecksCsv)',
    write: (payload) =>
      tenderChecksCsv([
        {
          id: 1,
          checked_at: '2026-11-29T10:00:00.000Z',
          user: { id: 'mallory', name: payload },
          dot_number: '568253',
          legal_name: payload,
          answer: 'call_back',
          // who made the offer chooses these: the most likely place for a planted formula
          phone: payload,
          email: payload,
          cost_usd: 0.5,
          snapshot_date: '2026-11-16',
          pending: 0,
          decision_ids: [],
        },
      ]),
    carriers: ['user', 'legal_name', 'phone', 'email'],
  },
];

describe('every CSV export with spreadsheet formulas in its free-text fields', () => {
  const cases = EXPORTS.flatMap((entry) =>
    PAYLOADS.map((payload) => ({ ...entry, payload, label: JSON.stringify(payload) })),
  );

  it.each(cases)('$name, payload $label', ({ write, payload, carriers }) => {
    const [header = [], ...rows] = cells(write(payload));
    expect(rows.length).toBeGreaterThan(0);
    for (const cell of [...header, ...rows.flat()]) {
      expect(runsAsFormula(cell), `cell ${JSON.stringify(cell)}`).toBe(false);
    }
    // the text is kept: each field carrying it reads `'` and the payload, whole
    for (const column of carriers) {
      const index = header.indexOf(column);
      expect(index, `column ${column}`).toBeGreaterThanOrEqual(0);
      for (const row of rows) expect(row[index]).toBe(`'${payload}`);
    }
  });

  it('compare names a column after the carrier: the header cell is neutralised too', () => {
    for (const payload of PAYLOADS) {
      const [header = [], row = []] = cells(
        comparisonCsv(compareSections(payload), [{ dot: '1', name: payload }]),
      );
      expect(header[2]).toBe(`'${payload} (DOT 1)`);
      expect(row[2]).toBe(`'${payload}`);
    }
  });

  it('keeps numbers as numbers (a -3 count is not written as text)', () => {
    const [header = [], row = []] = cells(tableCsv([bulkRow('HANSEN')], exportColumns('line')));
    expect(row[header.indexOf('linked_carrier_warnings')]).toBe('-3');
  });
});

/** The files of a .xlsx (a zip), read through its central directory. */
function unzip(bytes: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < count; i += 1) {
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

describe('the bulk XLSX export with spreadsheet formulas in its free-text fields', () => {
  // An xlsx cell is a formula only as an <f> element; write-excel-file writes text as a shared
  // string (t="s"), so the payload stays text as it is (no apostrophe, which Excel would show).
  it.each(PAYLOADS.map((payload) => ({ payload, label: JSON.stringify(payload) })))(
    'stores payload $label as text cells, never as a formula',
    async ({ payload }) => {
      const columns = exportColumns('line');
      const bytes = Buffer.from(await (await xlsxBlob([bulkRow(payload)], columns)).arrayBuffer());
      const files = unzip(bytes);
      const sheet = files.get('xl/worksheets/sheet1.xml') ?? '';
      expect(sheet).toMatch(/<row r="2"/);
      expect(sheet).not.toMatch(/<f[\s>/]/);
      const cellsOfRow2 = [...sheet.matchAll(/<c r="([A-Z]+)2"([^>]*)>/g)];
      for (const column of BULK_CARRIERS) {
        const letter = String.fromCharCode(65 + columns.findIndex((c) => c.header === column));
        const attributes = cellsOfRow2.find((match) => match[1] === letter)?.[2] ?? '';
        expect(attributes, `${column} (${letter}2)`).toMatch(/\bt="s"/);
      }
      // the text is kept: each carrying column reads back as the payload, white space and all
      const [header = [], row = []] = await readSheet(bytes, { trim: false });
      for (const column of BULK_CARRIERS) {
        expect(row[header.indexOf(column)], column).toBe(payload);
      }
      expect(row[header.indexOf('linked_carrier_warnings')]).toBe(-3);
    },
  );
});

describe('one CSV writer', () => {
  it('no file in src/ writes CSV but through csv.ts, nor a workbook but through xlsx.ts', () => {
    expect(writersOutside()).toEqual([]);
  });

  it('the scan finds a planted writer of each kind', () => {
    const planted = [
      'const text = Papa.unparse(rows);',
      "const text = rows.map((r) => r.join(',')).join('\\r\\n');",
      'downloadCsv(rows.map(String).join(), "x.csv");',
      "new Blob([text], { type: 'text/csv' });",
      "await import('write-excel-file/browser');",
    ].join('\n');
    expect(offences('src/features/x/export.ts', planted)).toEqual([
      'src/features/x/export.ts:1: Papa.unparse outside csv.ts',
      "src/features/x/export.ts: cells joined with ',' and lines with a line break",
      'src/features/x/export.ts:3: downloadCsv of text no tested export wrote',
      'src/features/x/export.ts:4: a text/csv file outside src/lib/download.ts',
      'src/features/x/export.ts:5: write-excel-file outside the bulk xlsx writer',
    ]);
  });
});

const SRC = join(import.meta.dirname, '..');
const ROOT = join(SRC, '..');
/** The exports the table above runs; a `downloadCsv` call must take its text from one of them. */
const TESTED_WRITERS = new Set([
  'tableCsv',
  'decisionsCsv',
  'toCsv',
  'comparisonCsv',
  'resultsCsv',
  'tenderChecksCsv',
]);

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * What writes CSV (or a workbook) without the one writer: `unparse(` outside csv.ts; cells joined
 * with `','` and lines with a line break in one file; `downloadCsv(` of anything but a tested
 * export's call; a `text/csv` file made elsewhere than src/lib/download.ts (an upload's `accept`
 * aside); write-excel-file outside bulk/model/xlsx.ts.
 */
function offences(path: string, text: string): string[] {
  const found: string[] = [];
  if (path !== 'src/components/data-table/csv.ts') {
    for (const match of text.matchAll(/\bunparse\s*\(/g)) {
      found.push(`${path}:${lineOf(text, match.index)}: Papa.unparse outside csv.ts`);
    }
  }
  if (/\.join\(\s*(['"`]),\1\s*\)/.test(text) && /\.join\(\s*(['"`])(\\r)?\\n\1\s*\)/.test(text)) {
    found.push(`${path}: cells joined with ',' and lines with a line break`);
  }
  for (const match of text.matchAll(/\bdownloadCsv\(\s*(?:(\w+)\()?/g)) {
    if (path !== 'src/lib/download.ts' && !TESTED_WRITERS.has(match[1] ?? '')) {
      found.push(
        `${path}:${lineOf(text, match.index)}: downloadCsv of text no tested export wrote`,
      );
    }
  }
  if (path !== 'src/lib/download.ts') {
    for (const match of text.matchAll(/text\/csv/g)) {
      const line = text.split('\n')[lineOf(text, match.index) - 1] ?? '';
      if (!/\baccept=/.test(line)) {
        found.push(
          `${path}:${lineOf(text, match.index)}: a text/csv file outside src/lib/download.ts`,
        );
      }
    }
  }
  if (path !== 'src/features/bulk/model/xlsx.ts') {
    for (const match of text.matchAll(/['"]write-excel-file/g)) {
      found.push(
        `${path}:${lineOf(text, match.index)}: write-excel-file outside the bulk xlsx writer`,
      );
    }
  }
  return found;
}

/** Every source file of src/ (tests aside). */
function writersOutside(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
    .flatMap((name) => {
      const path = join(SRC, name);
      return offences(relative(ROOT, path), readFileSync(path, 'utf8'));
    });
}
