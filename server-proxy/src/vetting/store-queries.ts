/**
 * The vetting store's SQL (`vetting_policy`, `vetting_decision`), one small function per
 * statement, the same on SQLite and PostgreSQL, and the mapping of their rows.
 */
import { readStoredOptions, readStoredSettings } from '../../../src/lib/vetting/index.ts';
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import { placeholders } from '../sql/placeholders.ts';
import {
  defaultVersion,
  readContent,
  verdictOf,
  type DecisionContent,
  type DecisionFilter,
  type DecisionRecord,
  type DecisionRow,
  type PolicyVersion,
} from './store-rules.ts';

interface PolicyRow {
  version: number;
  settings: string;
  created_by: string;
  created_at: string;
  changes: string;
  note: string | null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The key of a version's options inside its `settings` JSON: no migration, and a reader that knows
 * only rules drops it like any unknown rule. A version stored before options existed has none.
 */
const OPTIONS_KEY = '$options';

function toPolicy(row: PolicyRow): PolicyVersion {
  const changes = parseJson(row.changes);
  const stored = parseJson(row.settings);
  return {
    version: Number(row.version),
    settings: readStoredSettings(stored),
    options: readStoredOptions((stored as Record<string, unknown> | undefined)?.[OPTIONS_KEY]),
    created_by: row.created_by,
    created_at: row.created_at,
    changes: Array.isArray(changes)
      ? changes.filter((c): c is string => typeof c === 'string')
      : [],
    note: row.note,
  };
}

function toRecord(row: DecisionRow): DecisionRecord {
  const content = readContent(row.content);
  return {
    ...(content as DecisionContent),
    id: Number(row.id),
    hash: row.hash,
    prev_hash: row.prev_hash,
  };
}

/**
 * Keys of the PostgreSQL advisory locks appends and policy saves take turns on (any fixed
 * numbers: "cdvetchn" and "cdvetpol" in ASCII). Transaction-scoped: released at COMMIT or ROLLBACK,
 * also when the connection breaks.
 */
const LOCK_KEYS = { chain: '7161979485542377582', policy: '7161979485543231340' };

/** Rows the chain is read in when verified, so a long chain is never held whole. */
const VERIFY_BATCH = 500;
/** DOTs asked for in one statement by currentDecisions (the route allows 500). */
export const DOTS_PER_QUERY = 500;

const DECISION_COLUMNS = `id, dot_number, decision, "user", decided_at, expires_on, verdict,
  policy_version, content, prev_hash, hash, signature, signing_key_id`;
const POLICY_COLUMNS = 'version, settings, created_by, created_at, changes, note';

const INSERT_DECISION = `INSERT INTO vetting_decision
    (dot_number, decision, "user", decided_at, expires_on, verdict, policy_version, content,
     prev_hash, hash, signature, signing_key_id, tender_check_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING id`;

const INSERT_POLICY = `INSERT INTO vetting_policy (${POLICY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`;

/**
 * Wait for this transaction's turn on the chain or on the policy (PostgreSQL). On SQLite the
 * transaction holds the file's write lock already (BEGIN IMMEDIATE), so there is nothing to take.
 */
export async function takeTurn(
  kind: SqlEngine['kind'],
  tx: SqlExecutor,
  on: keyof typeof LOCK_KEYS,
): Promise<void> {
  if (kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(?)', [LOCK_KEYS[on]]);
}

// ── policy versions ────────────────────────────────────────────────────────────────────────────

export async function currentPolicy(on: SqlExecutor): Promise<PolicyVersion> {
  const [row] = await on.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM vetting_policy ORDER BY version DESC LIMIT 1`,
  );
  return row ? toPolicy(row) : defaultVersion();
}

/** A stored version (version 1 exists without a row); undefined when there is none. */
export async function policyVersion(
  on: SqlExecutor,
  version: number,
): Promise<PolicyVersion | undefined> {
  const [row] = await on.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM vetting_policy WHERE version = ?`,
    [version],
  );
  if (row) return toPolicy(row);
  return version === 1 ? defaultVersion() : undefined;
}

/** Every version, newest first, down to version 1 (the default policy when it has no row). */
export async function policyVersions(on: SqlExecutor): Promise<PolicyVersion[]> {
  const rows = await on.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM vetting_policy ORDER BY version DESC`,
  );
  const versions = rows.map(toPolicy);
  return versions.some((v) => v.version === 1) ? versions : [...versions, defaultVersion()];
}

/** Store a version, its options in the settings JSON under OPTIONS_KEY. */
export function insertPolicy(tx: SqlExecutor, version: PolicyVersion & { created_at: string }) {
  return tx.run(INSERT_POLICY, [
    version.version,
    JSON.stringify({ ...version.settings, [OPTIONS_KEY]: version.options }),
    version.created_by,
    version.created_at,
    JSON.stringify(version.changes),
    version.note,
  ]);
}

// ── decision records ───────────────────────────────────────────────────────────────────────────

/** The hash of the chain's last record, or undefined when the chain is empty. */
export async function lastHash(tx: SqlExecutor): Promise<string | undefined> {
  const [last] = await tx.query<{ hash: string }>(
    'SELECT hash FROM vetting_decision ORDER BY id DESC LIMIT 1',
  );
  return last?.hash;
}

/** Append a record (its canonical text, hashes and signature, if signed); answers its id. */
export async function insertDecision(
  tx: SqlExecutor,
  content: DecisionContent,
  link: { text: string; prev: string; hash: string },
  signed?: { signature: string; key_id: string },
): Promise<number> {
  const [inserted] = await tx.query<{ id: number | string }>(INSERT_DECISION, [
    content.dot_number,
    content.decision,
    content.user.id,
    content.decided_at,
    content.expires_on,
    verdictOf(content),
    content.policy_version,
    link.text,
    link.prev,
    link.hash,
    signed?.signature ?? null,
    signed?.key_id ?? null,
    content.tender_check?.id ?? null,
  ]);
  return Number(inserted?.id);
}

export async function decisionById(
  on: SqlExecutor,
  id: number,
): Promise<DecisionRecord | undefined> {
  const [row] = await on.query<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id = ?`,
    [id],
  );
  return row ? toRecord(row) : undefined;
}

/** The WHERE clause of a decision filter, with only the conditions asked for. */
function filterWhere(filter: DecisionFilter): { where: string; params: SqlParam[] } {
  const conditions: string[] = [];
  const params: SqlParam[] = [];
  const add = (condition: string, value: string | undefined) => {
    if (value === undefined) return;
    conditions.push(condition);
    params.push(value);
  };
  add('dot_number = ?', filter.dot_number);
  add('decision = ?', filter.decision);
  add('"user" = ?', filter.user);
  add('substr(decided_at, 1, 10) >= ?', filter.from);
  add('substr(decided_at, 1, 10) <= ?', filter.to);
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  return { where, params };
}

/** A page of the records the filter matches, newest first, and how many match. */
export async function decisionPage(
  on: SqlExecutor,
  filter: DecisionFilter,
): Promise<{ items: DecisionRecord[]; total: number }> {
  const { where, params } = filterWhere(filter);
  const [counted] = await on.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM vetting_decision ${where}`,
    params,
  );
  const rows = await on.query<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM vetting_decision ${where}
     ORDER BY id DESC LIMIT ? OFFSET ?`,
    [...params, filter.pageSize, (filter.page - 1) * filter.pageSize],
  );
  return { items: rows.map(toRecord), total: Number(counted?.n ?? 0) };
}

/**
 * The newest record of each of these DOTs (at most DOTS_PER_QUERY), in no particular order, each
 * with the DOT its column holds.
 */
export async function newestRecords(
  on: SqlExecutor,
  dots: readonly string[],
): Promise<{ dot: string; record: DecisionRecord }[]> {
  const rows = await on.query<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id IN (
       SELECT MAX(id) FROM vetting_decision
        WHERE dot_number IN (${placeholders(dots.length)}) GROUP BY dot_number)`,
    dots,
  );
  return rows.map((row) => ({ dot: row.dot_number, record: toRecord(row) }));
}

/** How many records are committed now, and the last one's id (0 when none). */
export async function chainHead(on: SqlExecutor): Promise<{ count: number; last: number }> {
  const [head] = await on.query<{ n: number | string; last: number | string | null }>(
    'SELECT COUNT(*) AS n, MAX(id) AS last FROM vetting_decision',
  );
  return { count: Number(head?.n ?? 0), last: Number(head?.last ?? 0) };
}

/** The stored records with ids after `after` up to `last`, in chain order, VERIFY_BATCH at most. */
export function chainBatch(on: SqlExecutor, after: number, last: number): Promise<DecisionRow[]> {
  return on.query<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id > ? AND id <= ?
     ORDER BY id LIMIT ${VERIFY_BATCH}`,
    [after, last],
  );
}

/**
 * Each carrier's current (newest) record whose re-vet date is on or before `through`
 * (YYYY-MM-DD), earliest date first, with the columns it was found by.
 */
export async function currentRecordsDueBy(
  on: SqlExecutor,
  through: string,
): Promise<{ record: DecisionRecord; columns: DecisionRow }[]> {
  const rows = await on.query<DecisionRow>(
    `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id IN (
       SELECT MAX(id) FROM vetting_decision GROUP BY dot_number)
     AND expires_on IS NOT NULL AND expires_on <= ?
     ORDER BY expires_on, id`,
    [through],
  );
  return rows.map((row) => ({ record: toRecord(row), columns: row }));
}
