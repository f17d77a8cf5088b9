/**
 * The CSV of a page of search results, as shown (in the order shown), through the dashboard's one
 * table CSV writer. A chunk of its own, loaded when the user asks for the file.
 */
import { tableCsv, type CsvColumn } from '../../../components/data-table/csv.ts';
import { TRI_STATE_LABELS, formatRiskScore, triState } from '../../../lib/format.ts';
import { authoritySummary, docketOf } from './carrier-summary.ts';
import type { ResultRow } from './results-columns.ts';

const COLUMNS: readonly CsvColumn<ResultRow>[] = [
  { header: 'dot_number', value: (row) => row.dot_number },
  { header: 'docket', value: (row) => docketOf(row) },
  { header: 'legal_name', value: (row) => row.legal_name },
  { header: 'dba_name', value: (row) => row.dba_name },
  { header: 'city', value: (row) => row.physical_address_city },
  { header: 'state', value: (row) => row.physical_address_state },
  { header: 'usdot_status', value: (row) => row.usdot_status },
  { header: 'out_of_service', value: (row) => row.out_of_service_flag },
  { header: 'authority', value: (row) => authoritySummary(row) },
  { header: 'insurance', value: (row) => TRI_STATE_LABELS[triState(row.indicator_insurance)] },
  { header: 'risk_score', value: (row) => formatRiskScore(row.risk_score) },
];

/** One line per row, in the order given; formulas in values are neutralised. */
export function resultsCsv(rows: readonly ResultRow[]): string {
  return tableCsv(rows, COLUMNS);
}
