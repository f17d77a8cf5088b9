/**
 * The spend ledger's SQL (`spend_ledger`), one small function per statement, the same on SQLite
 * and PostgreSQL, with each answer mapped to numbers (PostgreSQL answers COUNT, SUM and BIGINT as
 * strings, SQLite as numbers; SUM of nothing is null on both).
 */
import type { Endpoint, ServiceMode } from '../context.ts';
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import { insertRows } from '../sql/insert-rows.ts';
import { placeholders } from '../sql/placeholders.ts';
import type { EndpointSums, LedgerRow, LedgerState, MonthSums } from './spend-rules.ts';

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

// A DOT is billed by settled or uncertain rows. Another call's reservation (pending) does not
// count: that call may still be released, so each call in flight reserves the DOT itself.
const BILLED_DOT = `SELECT COUNT(*) AS n FROM spend_ledger
  WHERE mode = ? AND month = ? AND endpoint = ? AND dot = ? AND price_mills > 0
    AND state <> 'pending'`;
// DOTs whose last monitoring event before the month started was an add: still watched, so the
// service bills them again for the new month. Ties in time go to the later row, as in retention.
const CARRIED = `SELECT DISTINCT dot FROM spend_ledger AS last
  WHERE last.mode = ? AND last.at < ? AND last.dot IS NOT NULL AND last.cache_hit = 0
    AND last.endpoint = 'monitoring/add'
    AND NOT EXISTS (
      SELECT 1 FROM spend_ledger AS later
      WHERE later.mode = last.mode AND later.dot = last.dot AND later.at < ?
        AND later.cache_hit = 0 AND later.endpoint IN ('monitoring/add', 'monitoring/remove')
        AND (later.at > last.at OR (later.at = last.at AND later.id > last.id)))`;
const LEDGER_COLUMNS = [
  'call_id',
  'at',
  'month',
  'day',
  'mode',
  'endpoint',
  'dot',
  '"user"',
  'cache_hit',
  'price_mills',
  'state',
];
const INSERT = `INSERT INTO spend_ledger (${LEDGER_COLUMNS.join(', ')})
  VALUES (${placeholders(LEDGER_COLUMNS.length)})`;
const SPENT = 'SELECT SUM(price_mills) AS mills FROM spend_ledger WHERE mode = ? AND month = ?';
const UNSETTLED = `SELECT state, SUM(price_mills) AS mills FROM spend_ledger
  WHERE mode = ? AND month = ? AND state <> 'settled' GROUP BY state`;
const DROP_CALL = 'DELETE FROM spend_ledger WHERE call_id = ?';
const MARK_UNCERTAIN =
  "UPDATE spend_ledger SET state = 'uncertain' WHERE call_id = ? AND state = 'pending'";
const RECOVER_PENDING =
  "UPDATE spend_ledger SET state = 'uncertain' WHERE state = 'pending' AND at < ?";
const CATEGORIES = `SELECT endpoint, COUNT(DISTINCT call_id) AS calls,
    COUNT(DISTINCT CASE WHEN cache_hit = 1 THEN call_id END) AS cache_hits,
    SUM(CASE WHEN price_mills > 0 THEN 1 ELSE 0 END) AS billed_units, SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY endpoint`;
const DAYS = `SELECT day, COUNT(DISTINCT call_id) AS calls, SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY day ORDER BY day`;
const USERS = `SELECT "user" AS "user", COUNT(DISTINCT call_id) AS calls,
    SUM(price_mills) AS mills
  FROM spend_ledger WHERE mode = ? AND month = ? GROUP BY "user" ORDER BY mills DESC, "user"`;

/**
 * Hold the (mode, month) turn until `tx` ends: a transaction-scoped advisory lock on PostgreSQL;
 * SQLite's transaction (BEGIN IMMEDIATE) already holds the file's write lock.
 */
export async function lockMonth(
  kind: SqlEngine['kind'],
  tx: SqlExecutor,
  mode: ServiceMode,
  month: string,
): Promise<void> {
  if (kind !== 'postgres') return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext(?)) AS locked', [
    `spend_ledger:${mode}:${month}`,
  ]);
}

/** Of `dots`, those billed for `endpoint` in `month` (one lookup per DOT). */
export async function billedDots(
  ex: SqlExecutor,
  mode: ServiceMode,
  month: string,
  endpoint: Endpoint,
  dots: readonly string[],
): Promise<Set<string>> {
  const billed = new Set<string>();
  for (const dot of dots) {
    const [found] = await ex.query<{ n: unknown }>(BILLED_DOT, [mode, month, endpoint, dot]);
    if (num(found?.n) > 0) billed.add(dot);
  }
  return billed;
}

/** DOTs still monitored when the month starting at `since` (ISO) began. */
export async function carriedDots(
  ex: SqlExecutor,
  mode: ServiceMode,
  since: string,
): Promise<string[]> {
  const rows = await ex.query<{ dot: string }>(CARRIED, [mode, since, since]);
  return rows.map(({ dot }) => dot);
}

function valuesOf(line: LedgerRow): SqlParam[] {
  return [
    line.call_id,
    line.at,
    line.month,
    line.day,
    line.mode,
    line.endpoint,
    line.dot,
    line.user,
    line.cache_hit,
    line.price_mills,
    line.state,
  ];
}

/** Insert the rows one statement each (in a transaction that prices them). */
export async function insertLedgerRows(ex: SqlExecutor, lines: readonly LedgerRow[]) {
  for (const line of lines) await ex.run(INSERT, valuesOf(line));
}

/** Insert a batch of rows in as few statements as the engine allows. */
export function insertLedgerBatch(ex: SqlExecutor, lines: readonly LedgerRow[]) {
  return insertRows(ex, 'spend_ledger', LEDGER_COLUMNS, lines.map(valuesOf));
}

/** Mills counted against the month: every state. */
export async function monthMills(
  ex: SqlExecutor,
  mode: ServiceMode,
  month: string,
): Promise<number> {
  const [found] = await ex.query<{ mills: unknown }>(SPENT, [mode, month]);
  return num(found?.mills);
}

export function dropCall(ex: SqlExecutor, callId: string) {
  return ex.run(DROP_CALL, [callId]);
}

export function markUncertain(ex: SqlExecutor, callId: string) {
  return ex.run(MARK_UNCERTAIN, [callId]);
}

/** Rows still pending from before `before` (ISO) were left by a crash: keep them as uncertain. */
export function recoverPending(ex: SqlExecutor, before: string) {
  return ex.run(RECOVER_PENDING, [before]);
}

async function unsettledMills(ex: SqlExecutor, mode: ServiceMode, month: string) {
  const rows = await ex.query<{ state: LedgerState; mills: unknown }>(UNSETTLED, [mode, month]);
  const millsIn = (state: LedgerState) => num(rows.find((line) => line.state === state)?.mills);
  return { pending: millsIn('pending'), uncertain: millsIn('uncertain') };
}

async function endpointSums(
  ex: SqlExecutor,
  mode: ServiceMode,
  month: string,
): Promise<EndpointSums[]> {
  const rows = await ex.query<Record<keyof EndpointSums, unknown>>(CATEGORIES, [mode, month]);
  return rows.map((line) => ({
    endpoint: line.endpoint as Endpoint,
    calls: num(line.calls),
    cache_hits: num(line.cache_hits),
    billed_units: num(line.billed_units),
    mills: num(line.mills),
  }));
}

async function userSums(ex: SqlExecutor, mode: ServiceMode, month: string) {
  const rows = await ex.query<{ user: string; calls: unknown; mills: unknown }>(USERS, [
    mode,
    month,
  ]);
  return rows.map(({ user, calls, mills }) => ({ user, calls: num(calls), mills: num(mills) }));
}

async function daySums(ex: SqlExecutor, mode: ServiceMode, month: string) {
  const rows = await ex.query<{ day: string; calls: unknown; mills: unknown }>(DAYS, [mode, month]);
  return rows.map(({ day, calls, mills }) => ({ day, calls: num(calls), mills: num(mills) }));
}

/** The month's sums for the usage report, `spent` as already read. */
export async function monthSums(
  ex: SqlExecutor,
  mode: ServiceMode,
  month: string,
  spent: number,
): Promise<MonthSums> {
  const unsettled = await unsettledMills(ex, mode, month);
  const endpoints = await endpointSums(ex, mode, month);
  const users = await userSums(ex, mode, month);
  const days = await daySums(ex, mode, month);
  return { spent, ...unsettled, endpoints, users, days };
}
