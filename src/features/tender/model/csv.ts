/**
 * The CSV export of the Tender checks page: one row per stored check matching the filter, through
 * the dashboard's one CSV writer (quoting, and text a spreadsheet would run as a formula
 * neutralised: the phone, e-mail and name come from whoever made the offer).
 */
import { tableCsv } from '../../../components/data-table/csv.ts';
import { TENDER_ANSWER_LABELS, type TenderCheckListItem } from '../../../lib/tender/contract.ts';

const COLUMNS = [
  'id',
  'checked_at',
  'user',
  'dot_number',
  'legal_name',
  'answer',
  'phone',
  'email',
  'cost_usd',
  'pending_checks',
  'snapshot_date',
  'decision_ids',
] as const;

type CsvRow = Record<(typeof COLUMNS)[number], string>;

function csvRow(check: TenderCheckListItem): CsvRow {
  return {
    id: String(check.id),
    checked_at: check.checked_at,
    user: check.user.name,
    dot_number: check.dot_number ?? '',
    legal_name: check.legal_name ?? '',
    answer: TENDER_ANSWER_LABELS[check.answer],
    phone: check.phone ?? '',
    email: check.email ?? '',
    cost_usd: check.cost_usd.toFixed(2),
    pending_checks: String(check.pending),
    snapshot_date: check.snapshot_date ?? '',
    decision_ids: check.decision_ids.join(' '),
  };
}

export function tenderChecksCsv(checks: readonly TenderCheckListItem[]): string {
  return tableCsv(
    checks.map(csvRow),
    COLUMNS.map((header) => ({ header, value: (row: CsvRow) => row[header] })),
  );
}
