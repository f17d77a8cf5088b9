import type Database from 'better-sqlite3';
import type { BillableKind, Ledger } from './context.ts';
import { maskKey } from './auth.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../../src/lib/service/endpoints.ts';

/** The endpoints the ledger bills, each with its kind (the contract's table). */
const BILLED = ENDPOINT_NAMES.flatMap((endpoint) => {
  const { billingKind, price } = ENDPOINTS[endpoint];
  return billingKind === undefined || price.kind === 'free' ? [] : [{ kind: billingKind, price }];
});

/** Published prices in mills (thousandths of a USD), so sums stay exact. */
const PRICE_MILLS = Object.fromEntries(
  BILLED.map(({ kind, price }) => [kind, price.mills]),
) as Readonly<Record<BillableKind, number>>;

/** Kinds billed once per unique DOT per key and calendar month. */
const PER_DOT_KINDS: ReadonlySet<BillableKind> = new Set(
  BILLED.filter(({ price }) => price.kind === 'per-dot-month').map(({ kind }) => kind),
);

interface LedgerLine {
  kind: BillableKind;
  calls: number;
  billed_calls: number;
  unique_dots: number;
  amount_usd: number;
}

interface LedgerMonth {
  month: string;
  total_usd: number;
  lines: LedgerLine[];
}

export interface LedgerSummary {
  currency: 'USD';
  prices_usd: Record<BillableKind, number>;
  keys: { key: string; months: LedgerMonth[] }[];
}

/** The ledger plus the reset used by POST /__sandbox/reset. */
export interface ResettableLedger extends Ledger {
  summary(apiKey?: string): LedgerSummary;
  reset(): void;
}

interface LineRow {
  api_key: string;
  month: string;
  kind: BillableKind;
  calls: number;
  billed_calls: number;
  unique_dots: number;
  amount_mills: number;
}

const toUsd = (mills: number): number => mills / 1000;

/** Calendar month (UTC) of a timestamp, e.g. "2026-11". */
export function billingMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** SQLite-backed ledger: one row per billable call, amounts in mills. */
export function createLedger(db: Database.Database): ResettableLedger {
  db.exec(`CREATE TABLE IF NOT EXISTS ledger_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    api_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    month TEXT NOT NULL,
    dot TEXT,
    amount_mills INTEGER NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS ledger_events_dot ON ledger_events (api_key, kind, month, dot);`);

  const billedBefore = db.prepare<[string, string, string, string], { n: number }>(
    `SELECT COUNT(*) AS n FROM ledger_events
     WHERE api_key = ? AND kind = ? AND month = ? AND dot = ? AND amount_mills > 0`,
  );
  const insert = db.prepare<[string, string, string, string | null, number, string]>(
    'INSERT INTO ledger_events (api_key, kind, month, dot, amount_mills, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const lineSql = `SELECT api_key, month, kind, COUNT(*) AS calls,
      SUM(amount_mills > 0) AS billed_calls, COUNT(DISTINCT dot) AS unique_dots,
      SUM(amount_mills) AS amount_mills
    FROM ledger_events %WHERE% GROUP BY api_key, month, kind ORDER BY api_key, month, kind`;
  const allLines = db.prepare<[], LineRow>(lineSql.replace('%WHERE%', ''));
  const keyLines = db.prepare<[string], LineRow>(lineSql.replace('%WHERE%', 'WHERE api_key = ?'));

  const chargeTx = db.transaction(
    (apiKey: string, kind: BillableKind, at: Date, dot: string | undefined): number => {
      const month = billingMonth(at);
      const perDot = PER_DOT_KINDS.has(kind) && dot !== undefined;
      const free = perDot && (billedBefore.get(apiKey, kind, month, dot)?.n ?? 0) > 0;
      const mills = free ? 0 : PRICE_MILLS[kind];
      insert.run(apiKey, kind, month, dot ?? null, mills, at.toISOString());
      return mills;
    },
  );

  return {
    charge(apiKey, kind, at, dot) {
      return toUsd(chargeTx(apiKey, kind, at, dot));
    },
    summary(apiKey) {
      const rows = apiKey === undefined ? allLines.all() : keyLines.all(apiKey);
      return {
        currency: 'USD',
        prices_usd: pricesUsd(),
        keys: groupByKey(rows),
      };
    },
    reset() {
      db.exec('DELETE FROM ledger_events');
    },
  };
}

function pricesUsd(): Record<BillableKind, number> {
  const out = {} as Record<BillableKind, number>;
  for (const kind of Object.keys(PRICE_MILLS) as BillableKind[])
    out[kind] = toUsd(PRICE_MILLS[kind]);
  return out;
}

function groupByKey(rows: LineRow[]): LedgerSummary['keys'] {
  const byKey = new Map<string, Map<string, LineRow[]>>();
  for (const row of rows) {
    const months = byKey.get(row.api_key) ?? new Map<string, LineRow[]>();
    months.set(row.month, [...(months.get(row.month) ?? []), row]);
    byKey.set(row.api_key, months);
  }
  return [...byKey].map(([key, months]) => ({
    key: maskKey(key),
    months: [...months].map(([month, lines]) => toMonth(month, lines)),
  }));
}

function toMonth(month: string, lines: LineRow[]): LedgerMonth {
  const totalMills = lines.reduce((sum, line) => sum + line.amount_mills, 0);
  return {
    month,
    total_usd: toUsd(totalMills),
    lines: lines.map((line) => ({
      kind: line.kind,
      calls: line.calls,
      billed_calls: line.billed_calls,
      unique_dots: line.unique_dots,
      amount_usd: toUsd(line.amount_mills),
    })),
  };
}
