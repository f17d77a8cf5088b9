/**
 * The CSV export of the inbox's current view: one row per field change, through the dashboard's
 * one CSV writer (quoting, line breaks inside values, and values a spreadsheet would run as a
 * formula — a triage note, a name, a changed e-mail — neutralised).
 */
import { tableCsv } from '../../../components/data-table/csv.ts';
import { fieldLabel, formatFieldValue } from '../../../lib/field-labels.ts';
import {
  stateOf,
  TRIAGE_LABELS,
  type InboxChange,
  type TriageEntry,
} from '../../../lib/monitoring/inbox.ts';

export const CSV_COLUMNS = [
  'profile_id',
  'dot',
  'docket',
  'name',
  'change_date',
  'channel',
  'field',
  'field_label',
  'prior',
  'current',
  'triage_state',
  'triage_note',
  'triaged_by',
  'triaged_at',
] as const;

export type CsvRow = Record<(typeof CSV_COLUMNS)[number], string>;

export interface CsvInput {
  changes: readonly InboxChange[];
  triage: ReadonlyMap<string, TriageEntry>;
  nameOf: (dot: string) => string | undefined;
}

export function csvRows({ changes, triage, nameOf }: CsvInput): CsvRow[] {
  return changes.map((change) => {
    const entry = triage.get(change.id);
    return {
      profile_id: change.profileId,
      dot: change.dot,
      docket: change.docket ?? '',
      name: nameOf(change.dot) ?? '',
      change_date: change.date ?? '',
      channel: change.channel ?? '',
      field: change.field,
      field_label: fieldLabel(change.field),
      prior: formatFieldValue(change.field, change.prior),
      current: formatFieldValue(change.field, change.current),
      triage_state: TRIAGE_LABELS[stateOf(change, triage)],
      triage_note: entry?.note ?? '',
      triaged_by: entry?.by ?? '',
      triaged_at: entry?.at ?? '',
    };
  });
}

export function toCsv(input: CsvInput): string {
  return tableCsv(
    csvRows(input),
    CSV_COLUMNS.map((header) => ({ header, value: (row: CsvRow) => row[header] })),
  );
}

/** `monitoring-changes-2026-11-22.csv` */
export function csvFileName(now: Date = new Date()): string {
  return `monitoring-changes-${now.toISOString().slice(0, 10)}.csv`;
}
