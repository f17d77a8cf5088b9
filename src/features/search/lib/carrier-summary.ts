/**
 * One-line readings of a carrier for the results table and the preview panel. Both the full and
 * the lite profile carry these fields, so the helpers take the fields they read, not a whole shape.
 */
import { MISSING } from '../../../lib/format.ts';

const AUTHORITY_TYPES = ['common', 'contract', 'broker'] as const;

export interface SummaryFields {
  dot_number?: string | undefined;
  legal_name?: string | undefined;
  docket?: string | undefined;
  docket_prefix?: string | undefined;
  docket_number?: string | undefined;
  usdot_status?: string | undefined;
  out_of_service_flag?: boolean | undefined;
  authority_common?: string | undefined;
  authority_contract?: string | undefined;
  authority_broker?: string | undefined;
  physical_address_city?: string | undefined;
  physical_address_state?: string | undefined;
}

/** "MC277621", from `docket` or its prefix and number. */
export function docketOf(carrier: SummaryFields): string | undefined {
  if (carrier.docket) return carrier.docket;
  if (!carrier.docket_number) return undefined;
  return `${carrier.docket_prefix ?? ''}${carrier.docket_number}`;
}

/** "Active: common, broker" when some authority is active, else the common status ("Inactive"). */
export function authoritySummary(carrier: SummaryFields): string {
  const active = AUTHORITY_TYPES.filter(
    (type) => carrier[`authority_${type}`]?.toLowerCase() === 'active',
  );
  if (active.length > 0) return `Active: ${active.join(', ')}`;
  const statuses = AUTHORITY_TYPES.map((type) => carrier[`authority_${type}`]).filter(Boolean);
  return statuses[0] ?? MISSING;
}

/** USDOT status, with "out of service" when flagged. */
export function usdotSummary(carrier: SummaryFields): string {
  const status = carrier.usdot_status ?? MISSING;
  return carrier.out_of_service_flag === true ? `${status}, out of service` : status;
}

/** "MEMPHIS, TN". */
export function placeOf(carrier: SummaryFields): string {
  const parts = [carrier.physical_address_city, carrier.physical_address_state].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : MISSING;
}
