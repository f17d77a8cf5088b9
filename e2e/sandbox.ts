/**
 * The embedded sandbox's test-only endpoints, for e2e tests that need upstream faults or new change
 * records: this worker's sandbox (e2e/slots.ts pins each worker's sandbox to its proxy's port + 1).
 */
import { SANDBOX_URL } from './slots.ts';

/** The embedded sandbox's key: a fixture key of the sandbox, never a real one. */
const SANDBOX_KEY = 'sk_test_sandbox';

export interface FaultRule {
  path: string;
  method?: string;
  status?: 429 | 503 | 500 | 207;
  count?: number;
  retry_after?: number;
  delay_ms?: number;
  body?: 'malformed' | 'empty';
  reset_connection?: boolean;
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${SANDBOX_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${SANDBOX_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(
      `sandbox ${method} ${path} answered ${response.status}: ${await response.text()}`,
    );
  }
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : null;
}

/** One billable kind of one month in the sandbox's ledger (`GET /__sandbox/ledger`). */
interface LedgerLine {
  kind: string;
  calls: number;
  billed_calls: number;
  unique_dots: number;
  amount_usd: number;
}

export interface LedgerSummary {
  currency: 'USD';
  prices_usd: Record<string, number>;
  keys: { key: string; months: { month: string; total_usd: number; lines: LedgerLine[] }[] }[];
}

export const sandbox = {
  /** Arm fault rules (paths as the sandbox sees them, e.g. '/v2/profile'). */
  faults: (rules: FaultRule[]) => call('POST', '/__sandbox/faults', { rules }),
  clearFaults: () => call('DELETE', '/__sandbox/faults'),
  /** Move the sandbox clock; scripted regulator events hit watched carriers. */
  advance: (days: number) => call('POST', '/__sandbox/advance', { days }),
  reset: () => call('POST', '/__sandbox/reset'),
  /** What the sandbox billed the embedded key, per month and kind. */
  ledger: () => call('GET', '/__sandbox/ledger') as Promise<LedgerSummary>,
};
