/**
 * The CSV export of the Decisions page: one row per record matching the filters, through the
 * dashboard's one CSV writer (quoting, line breaks inside notes, and notes, conditions or names
 * that a spreadsheet would run as a formula neutralised). An override (an approval of a Fail or
 * Review verdict) is marked "override" and carries its reason.
 */
import { tableCsv } from '../../../components/data-table/csv.ts';
import { DECISION_LABELS, type DecisionRecord } from '../../../lib/vetting/decision-record.ts';

const COLUMNS = [
  'id',
  'decided_at',
  'dot_number',
  'legal_name',
  'decision',
  'override',
  'verdict',
  'policy_version',
  'reasons',
  'note',
  'conditions',
  'override_reason',
  'expires_on',
  'supersedes',
  'user',
  'snapshot_date',
  'fetched_at',
  'hash',
  'prev_hash',
] as const;

type CsvRow = Record<(typeof COLUMNS)[number], string>;

function legalName(record: DecisionRecord): string {
  const value = record.profile.identity.find((field) => field.name === 'legal_name')?.value;
  return typeof value === 'string' ? value : '';
}

export function csvRow(record: DecisionRecord): CsvRow {
  return {
    id: String(record.id),
    decided_at: record.decided_at,
    dot_number: record.dot_number,
    legal_name: legalName(record),
    decision: DECISION_LABELS[record.decision],
    // an approval recorded against a Fail or Review verdict, with its reason
    override: record.override_reason !== undefined ? 'override' : '',
    verdict: record.verdict.verdict,
    policy_version: String(record.policy_version),
    reasons: record.verdict.reasons
      .filter((reason) => reason.outcome !== 'pass')
      .map((reason) => `${reason.outcome}: ${reason.message}`)
      .join(' | '),
    note: record.note ?? '',
    conditions: record.conditions ?? '',
    override_reason: record.override_reason ?? '',
    expires_on: record.expires_on ?? '',
    supersedes: record.supersedes === null ? '' : String(record.supersedes),
    user: record.user.name,
    snapshot_date: record.profile.snapshot_date ?? '',
    fetched_at: record.profile.fetched_at,
    hash: record.hash,
    prev_hash: record.prev_hash,
  };
}

export function decisionsCsv(records: readonly DecisionRecord[]): string {
  return tableCsv(
    records.map(csvRow),
    COLUMNS.map((header) => ({ header, value: (row: CsvRow) => row[header] })),
  );
}
