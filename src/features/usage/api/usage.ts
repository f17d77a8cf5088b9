/**
 * This month's metered spend from the proxy's `GET /api/local/usage` (see
 * server-proxy/src/governance/spend.ts). Read by hand, tolerantly, rather than with zod: the header's
 * spend figure uses it too, and the shell stays out of the service parsers' chunk. A field that is
 * missing or of the wrong type reads as zero (amounts) or empty (lists), never as a crash. The
 * field names are the route contract's (`usageSchema`, src/lib/governance/contract.ts), imported as
 * a type only (no zod in the bundle): a renamed field there fails to compile here.
 */
import { queryOptions } from '@tanstack/react-query';
import type { UsageAnswer } from '../../../lib/governance/contract.ts';
import { apiGet } from '../../../lib/api-client.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { usageKeys } from './keys.ts';

interface SpendLine {
  /** endpoint (`profile`, `monitoring/add` …) or user name */
  key: string;
  calls: number;
  usd: number;
}

interface EndpointSpend extends SpendLine {
  cacheHits: number;
  billedUnits: number;
}

interface DaySpend {
  day: string;
  calls: number;
  usd: number;
}

export interface Usage {
  /** calendar month, UTC: "2026-11" */
  month: string;
  spentUsd: number;
  reservedUsd: number;
  uncertainUsd: number;
  budgetUsd: number | undefined;
  remainingUsd: number | undefined;
  /** whether these amounts are actually billed (live key) */
  billed: boolean;
  /** the proxy's sentence on what the amounts mean */
  note: string | undefined;
  byEndpoint: EndpointSpend[];
  byUser: SpendLine[];
  /** of those, the API tokens' (key: the token's name), most spent first */
  byToken: (SpendLine & { id: number })[];
  byDay: DaySpend[];
}

const USAGE_PATH = '/api/local/usage';

type Fields = Record<string, unknown>;
/** The answer's members, each of unknown type until read. */
type Answer<T> = { [K in keyof T]?: unknown };
type Item<K extends keyof UsageAnswer> = UsageAnswer[K] extends readonly (infer I)[]
  ? Answer<I>
  : never;

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : {};
}

function amount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

function optionalAmount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function list<T>(value: unknown, read: (item: Fields) => T | undefined): T[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => read(fields(item))).filter((item) => item !== undefined);
}

function line(key: string | undefined, item: Fields): SpendLine | undefined {
  return key === undefined ? undefined : { key, calls: amount(item.calls), usd: amount(item.usd) };
}

export function readUsage(body: unknown): Usage {
  const record: Answer<UsageAnswer> = fields(body);
  const billing: Answer<UsageAnswer['billing']> = fields(record.billing);
  return {
    month: text(record.month) ?? new Date().toISOString().slice(0, 7),
    spentUsd: amount(record.spentUsd),
    reservedUsd: amount(record.reservedUsd),
    uncertainUsd: amount(record.uncertainUsd),
    budgetUsd: optionalAmount(record.budgetUsd),
    remainingUsd: optionalAmount(record.remainingUsd),
    billed: billing.billed === true,
    note: text(billing.note),
    byEndpoint: list(record.byEndpoint, (item: Item<'byEndpoint'>) => {
      const base = line(text(item.endpoint), item);
      return (
        base && {
          ...base,
          cacheHits: amount(item.cacheHits),
          billedUnits: amount(item.billedUnits),
        }
      );
    }),
    byUser: list(record.byUser, (item: Item<'byUser'>) => line(text(item.user), item)),
    byToken: list(record.byToken, (item: Item<'byToken'>) => {
      const base = line(text(item.name), item);
      return base && typeof item.id === 'number' ? { ...base, id: item.id } : undefined;
    }),
    byDay: list(record.byDay, (item: Item<'byDay'>) => {
      const day = text(item.day);
      return day === undefined
        ? undefined
        : { day, calls: amount(item.calls), usd: amount(item.usd) };
    }),
  };
}

/** How often the spend is read again while it is shown. */
const USAGE_POLL_MS = 60_000;

/**
 * Spend moves with every billed call: read again whenever the Usage page opens (the header's copy
 * updates with it), and polled every minute while shown. Reading it is free.
 */
export const usageQuery = queryOptions({
  queryKey: usageKeys.spend(),
  queryFn: async ({ signal }) => readUsage(await apiGet(USAGE_PATH, {}, { signal })),
  staleTime: FRESHNESS.spend,
  refetchInterval: USAGE_POLL_MS,
});
