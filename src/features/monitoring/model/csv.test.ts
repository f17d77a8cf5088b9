import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvFileName, csvRows, toCsv } from './csv.ts';
import type { InboxChange, TriageEntry } from '../../../lib/monitoring/inbox.ts';

const change = (field: string, prior: InboxChange['prior'], current: InboxChange['current']) => ({
  id: `c1-${field}`,
  profileId: '568253-MC277621',
  dot: '568253',
  docket: 'MC277621',
  date: '2026-11-20',
  field,
  prior,
  current,
  channel: undefined,
});

const changes: InboxChange[] = [
  { ...change('insurance_bipd_on_file', 750000, 0), channel: 'insurance' },
  { ...change('physical_address', '1 A ST, X, CA', '2 "B" ST,\nY, CA'), channel: 'contact' },
];
const triage = new Map<string, TriageEntry>([
  [
    'c1-physical_address',
    {
      id: 'c1-physical_address',
      state: 'escalated',
      note: 'call, now',
      by: 'ana',
      at: '2026-11-21T09:00:00.000Z',
    },
  ],
]);

describe('CSV export', () => {
  it('has one row per field change with labels, formatted values and triage', () => {
    const rows = csvRows({
      changes,
      triage,
      nameOf: (dot) => (dot === '568253' ? 'HANSEN' : undefined),
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      field_label: 'BIPD insurance on file',
      prior: '$750,000',
      current: '$0',
      triage_state: 'New',
      name: 'HANSEN',
    });
    expect(rows[1]).toMatchObject({
      triage_state: 'Escalated',
      triage_note: 'call, now',
      triaged_by: 'ana',
    });
  });

  it('survives a round trip through a CSV parser (quotes, commas, line breaks)', () => {
    const text = toCsv({ changes, triage, nameOf: () => undefined });
    const parsed = Papa.parse<Record<string, string>>(text, { header: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    expect(parsed.data[1]?.current).toBe('2 "B" ST,\nY, CA');
    expect(parsed.data[1]?.triage_note).toBe('call, now');
  });

  it('names the file by day', () => {
    expect(csvFileName(new Date('2026-11-22T10:00:00Z'))).toBe('monitoring-changes-2026-11-22.csv');
  });
});

describe('CSV export with spreadsheet formulas in the data', () => {
  it('neutralises names, values and notes that start with =, +, -, @, a tab or a carriage return', () => {
    const payloads = ['=HYPERLINK("x")', "+cmd|' /C calc'!A0", '-1+1', '@SUM(A1)', '\t=1', '\r=1'];
    const hostile: InboxChange[] = payloads.map((payload, index) => ({
      ...change('email_address', 'a@b.example', payload),
      id: `c${index}`,
    }));
    const notes = new Map<string, TriageEntry>(
      hostile.map((c, index) => [
        c.id,
        { id: c.id, state: 'reviewed', note: payloads[index], by: 'ana', at: '2026-11-21' },
      ]),
    );
    const text = toCsv({ changes: hostile, triage: notes, nameOf: () => payloads[0] });
    const parsed = Papa.parse<Record<string, string>>(text, { header: true });
    expect(parsed.errors).toEqual([]);
    parsed.data.forEach((row, index) => {
      expect(row.current).toBe(`'${payloads[index]}`);
      expect(row.triage_note).toBe(`'${payloads[index]}`);
      expect(row.name).toBe(`'${payloads[0]}`);
    });
  });
});
