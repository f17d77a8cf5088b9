/**
 * The Decisions page's filters live in the URL
 * (`?dot_number=&carrier=&decision=&user=&from=&to=&page=`). Malformed values are dropped, so a bad
 * URL never reaches the proxy as a 400; writing back keeps only what is set.
 *
 * The carrier box takes what the header's omnibox takes for a carrier: a USDOT number (→
 * `dot_number`, filtered by the proxy), an MC/MX/FF docket (`MC277621`, `MC-277621`, `MC 277621`)
 * or a name (→ `carrier`, matched against the docket, legal name and DBA name each record kept).
 */
import { isDotNumber } from '../../../lib/carrier/paths.ts';
import { classifyEntry } from '../../../lib/service/rules/entries.ts';
import {
  DECISIONS,
  type Decision,
  type DecisionRecord,
} from '../../../lib/vetting/decision-record.ts';
import type { DecisionFilters } from '../../../entities/vetting/decisions.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_CARRIER_CHARS = 100;
const MIN_NAME_CHARS = 2;

export interface PageFilters extends DecisionFilters {
  /** a docket (`MC277621`) or part of a name, matched on the records (not a proxy parameter) */
  carrier?: string | undefined;
}

function text(params: URLSearchParams, key: string): string | undefined {
  const value = params.get(key)?.trim();
  return value ? value : undefined;
}

function isDecision(value: string | undefined): value is Decision {
  return value !== undefined && (DECISIONS as readonly string[]).includes(value);
}

/** What the carrier box asks for: a DOT, a docket or a name, or why it cannot be used. */
type CarrierQuery =
  | { kind: 'none' }
  | { kind: 'dot'; dot: string }
  | { kind: 'docket'; docket: string }
  | { kind: 'name'; name: string }
  | { kind: 'invalid'; message: string };

export function readCarrierQuery(input: string | undefined): CarrierQuery {
  const value = (input ?? '').trim().replace(/\s+/g, ' ');
  if (value === '') return { kind: 'none' };
  const entry = classifyEntry(value);
  if (entry.kind === 'dot') return { kind: 'dot', dot: entry.dot };
  if (entry.kind === 'docket') return { kind: 'docket', docket: entry.docket };
  // `568253-MC277621`, a profile id: its DOT says which carrier
  if (entry.kind === 'profile_id') return { kind: 'dot', dot: entry.profileId.split('-')[0] ?? '' };
  if (value.length > MAX_CARRIER_CHARS) {
    return { kind: 'invalid', message: `A name is at most ${MAX_CARRIER_CHARS} characters.` };
  }
  if (value.replace(/[^\p{L}\p{N}]/gu, '').length < MIN_NAME_CHARS) {
    return {
      kind: 'invalid',
      message: `Type a USDOT number, an MC number (MC277621) or at least ${MIN_NAME_CHARS} letters of a name.`,
    };
  }
  return { kind: 'name', name: value };
}

/** The filters a carrier query sets: a DOT goes to the proxy, a docket or a name stays here. */
export function carrierFilters(query: CarrierQuery): Pick<PageFilters, 'dot_number' | 'carrier'> {
  if (query.kind === 'dot') return { dot_number: query.dot, carrier: undefined };
  if (query.kind === 'docket') return { dot_number: undefined, carrier: query.docket };
  if (query.kind === 'name') return { dot_number: undefined, carrier: query.name };
  return { dot_number: undefined, carrier: undefined };
}

export function readFilters(params: URLSearchParams): PageFilters {
  const dot = text(params, 'dot_number');
  const carrier = readCarrierQuery(text(params, 'carrier'));
  const decision = text(params, 'decision');
  const from = text(params, 'from');
  const to = text(params, 'to');
  const page = Number(text(params, 'page') ?? '1');
  const fromCarrier = carrierFilters(carrier);
  return {
    dot_number: dot && isDotNumber(dot) ? dot : fromCarrier.dot_number,
    carrier: fromCarrier.carrier,
    decision: isDecision(decision) ? decision : undefined,
    user: text(params, 'user')?.slice(0, 200),
    from: from && DAY.test(from) ? from : undefined,
    to: to && DAY.test(to) ? to : undefined,
    page: Number.isInteger(page) && page > 1 && page < 1_000_000 ? page : undefined,
  };
}

export function writeFilters(filters: PageFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ['dot_number', 'carrier', 'decision', 'user', 'from', 'to', 'page'] as const) {
    const value = filters[key];
    if (value !== undefined && value !== '' && !(key === 'page' && value === 1)) {
      params.set(key, String(value));
    }
  }
  return params;
}

/** "From" after "To": no record can match. The message the filter form shows, or undefined. */
export function dateRangeProblem(
  filters: Pick<DecisionFilters, 'from' | 'to'>,
): string | undefined {
  const { from, to } = filters;
  if (!from || !to || from <= to) return undefined;
  return `“From” (${from}) is after “To” (${to}). Change one of them; the date filter is not applied.`;
}

/**
 * What is asked of the proxy: a backwards date range is left out (it would match nothing), and the
 * carrier match is not a proxy parameter.
 */
export function appliedFilters(filters: PageFilters): DecisionFilters {
  const { carrier: _carrier, ...asked } = filters;
  return dateRangeProblem(asked) ? { ...asked, from: undefined, to: undefined } : asked;
}

function identityText(record: DecisionRecord, name: string): string | undefined {
  const value = record.profile.identity.find((field) => field.name === name)?.value;
  return typeof value === 'string' ? value : undefined;
}

/** `MC-0277621`, `mc 277621` → `MC277621`; undefined when not a docket. */
function docketKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const entry = classifyEntry(value);
  return entry.kind === 'docket' ? entry.docket : undefined;
}

function nameKey(value: string): string {
  return value.toLocaleLowerCase('en-US').replace(/\s+/g, ' ').trim();
}

/**
 * Whether a record is of the carrier asked for: its kept docket equals the docket, or its kept
 * legal or DBA name contains the name (case and spacing aside).
 */
export function matchesCarrier(record: DecisionRecord, carrier: string): boolean {
  const query = readCarrierQuery(carrier);
  if (query.kind === 'docket') return docketKey(identityText(record, 'docket')) === query.docket;
  if (query.kind !== 'name') return false;
  const wanted = nameKey(query.name);
  return ['legal_name', 'dba_name'].some((field) => {
    const name = identityText(record, field);
    return name !== undefined && nameKey(name).includes(wanted);
  });
}
