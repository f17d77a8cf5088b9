/**
 * Vetting state in the proxy database: numbered policy versions (`vetting_policy`) and the
 * append-only, hash-chained decision records (`vetting_decision`). Written once over SqlEngine:
 * SQLite (the proxy's file) by default, PostgreSQL with DATABASE_URL (migration 4), so a decision
 * recorded on one replica is listed, and verified, on every other.
 *
 * Chain: each record's `hash` is SHA-256 over its previous record's hash and the canonical JSON of
 * its content (`content`, which holds everything the record says; the indexed columns repeat parts
 * of it). The first record's previous hash is 64 zeros. A record is inserted in one transaction
 * that reads the last hash and writes the row, and appends take turns: SQLite's `BEGIN IMMEDIATE`
 * holds the file's write lock, PostgreSQL's appends first take one transaction-scoped advisory
 * lock, so writers on any number of connections or replicas never fork the chain, ids grow in
 * chain order, and a killed process leaves either the whole row or nothing. Policy versions are
 * numbered under a second lock the same way.
 */
import { createHash } from 'node:crypto';
import type { SqlEngine, SqlExecutor, SqlParam } from '../sql/engine.ts';
import {
  defaultOptions,
  defaultSettings,
  describeChanges,
  describeOptionChanges,
  readStoredOptions,
  readStoredSettings,
  type PolicyOptions,
  type PolicySettings,
} from '../../../src/lib/vetting/index.ts';
import { placeholders } from '../sql/placeholders.ts';

export const GENESIS_HASH = '0'.repeat(64);

export const DECISIONS = [
  'approved',
  'approved_with_conditions',
  'rejected',
  'do_not_use',
] as const;
export type Decision = (typeof DECISIONS)[number];

export interface Actor {
  id: string;
  name: string;
}

/** A stored policy version. Version 1 is the default policy and exists without a row. */
interface PolicyVersion {
  version: number;
  settings: PolicySettings;
  /** stored in the `settings` column's JSON under OPTIONS_KEY (no rule has that id) */
  options: PolicyOptions;
  created_by: string;
  created_at: string | null;
  changes: string[];
  note: string | null;
}

/** What a decision record says; hashed as canonical JSON. */
export interface DecisionContent {
  dot_number: string;
  decision: Decision;
  note: string | null;
  conditions: string | null;
  expires_on: string | null;
  supersedes: number | null;
  user: Actor;
  decided_at: string;
  /** the verdict seen, with every rule result and its evidence values */
  verdict: unknown;
  policy_version: number;
  /** the profile seen: snapshot date, fetch time and the key fields */
  profile: unknown;
  /**
   * why an approval was recorded against a Fail or Review verdict; absent (not null) on every
   * other record, so records made before it existed hash as they did
   */
  override_reason?: string;
}

interface DecisionRecord extends DecisionContent {
  id: number;
  hash: string;
  prev_hash: string;
}

/** A row as read: `id` is a string from PostgreSQL (BIGINT), a number from SQLite. */
interface DecisionRow {
  id: number | string;
  dot_number: string;
  decision: string;
  user: string;
  decided_at: string;
  expires_on: string | null;
  verdict: string;
  policy_version: number;
  content: string;
  prev_hash: string;
  hash: string;
}

export interface DecisionFilter {
  dot_number?: string;
  decision?: Decision;
  user?: string;
  /** YYYY-MM-DD, inclusive, on the decision's UTC day */
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

/** How far a re-vet date is: passed (before `asOf`'s day) or within the window. */
export type RevetDue = 'overdue' | 'soon';

/** A current decision whose re-vet date has passed or falls within the window asked. */
interface RevetDueItem {
  id: number;
  dot_number: string;
  legal_name: string | null;
  decision: Decision;
  decided_at: string;
  expires_on: string;
  due: RevetDue;
}

/** Days ahead a re-vet date counts as due soon. */
export const REVET_WINDOW_DAYS = 14;

/** The UTC day of `at` plus `days`, as YYYY-MM-DD. */
export function dayOf(at: Date, days = 0): string {
  return new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * `overdue` when `expiresOn` is before `asOf`'s UTC day, `soon` when it is that day or within
 * `withinDays` after it, else null (no date, or later).
 */
export function revetDueOf(
  expiresOn: string | null | undefined,
  asOf: Date,
  withinDays = REVET_WINDOW_DAYS,
): RevetDue | null {
  if (!expiresOn) return null;
  if (expiresOn < dayOf(asOf)) return 'overdue';
  return expiresOn <= dayOf(asOf, withinDays) ? 'soon' : null;
}

interface ChainCheck {
  ok: boolean;
  count: number;
  first_bad_id?: number;
  /** why the first bad record is bad */
  problem?: string;
}

/** JSON with object keys sorted at every level: the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function chainHash(prevHash: string, content: string): string {
  return createHash('sha256').update(prevHash).update('\n').update(content).digest('hex');
}

function readContent(text: string): DecisionContent | undefined {
  try {
    return JSON.parse(text) as DecisionContent;
  } catch {
    return undefined;
  }
}

/** The legal name a record's profile kept (its identity fields), else null. */
function legalNameOf(content: DecisionContent): string | null {
  const identity = (content.profile as { identity?: unknown } | null)?.identity;
  if (!Array.isArray(identity)) return null;
  const field = (identity as { name?: unknown; value?: unknown }[]).find(
    (f) => f?.name === 'legal_name',
  );
  return typeof field?.value === 'string' ? field.value : null;
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

/** The columns a record's content must agree with (so editing a column is detected too). */
function columnsMatch(row: DecisionRow, content: DecisionContent): boolean {
  const verdict = (content.verdict as { verdict?: unknown } | null)?.verdict;
  return (
    row.dot_number === content.dot_number &&
    row.decision === content.decision &&
    row.user === content.user?.id &&
    row.decided_at === content.decided_at &&
    row.expires_on === content.expires_on &&
    Number(row.policy_version) === content.policy_version &&
    row.verdict === verdict
  );
}

export interface VettingSqlStore {
  currentPolicy(): Promise<PolicyVersion>;
  policyVersion(version: number): Promise<PolicyVersion | undefined>;
  policyVersions(): Promise<PolicyVersion[]>;
  /**
   * Store `settings` (and `options`; absent: the current version's) as the next version;
   * undefined when nothing changed.
   */
  savePolicy(
    actor: Actor,
    settings: PolicySettings,
    note: string | null,
    at: Date,
    options?: PolicyOptions,
  ): Promise<PolicyVersion | undefined>;
  appendDecision(content: DecisionContent): Promise<DecisionRecord>;
  decision(id: number): Promise<DecisionRecord | undefined>;
  decisions(filter: DecisionFilter): Promise<{ items: DecisionRecord[]; total: number }>;
  /** The newest record of each of these DOTs (its current decision), in the order asked. */
  currentDecisions(dots: readonly string[]): Promise<DecisionRecord[]>;
  verifyChain(): Promise<ChainCheck>;
  /**
   * The current decision (newest record) of every carrier whose re-vet date has passed or falls
   * within `withinDays` (default 14) of `asOf`'s UTC day: most overdue first.
   */
  revetDue(options: { asOf: Date; withinDays?: number }): Promise<RevetDueItem[]>;
}

interface PolicyRow {
  version: number;
  settings: string;
  created_by: string;
  created_at: string;
  changes: string;
  note: string | null;
}

function defaultVersion(): PolicyVersion {
  return {
    version: 1,
    settings: defaultSettings(),
    options: defaultOptions(),
    created_by: 'default policy',
    created_at: null,
    changes: [],
    note: 'The default policy (docs/vetting.md).',
  };
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

/**
 * Keys of the PostgreSQL advisory locks appends and policy saves take turns on (any fixed
 * numbers: "cdvetchn" and "cdvetpol" in ASCII). Transaction-scoped: released at COMMIT or ROLLBACK,
 * also when the connection breaks.
 */
const CHAIN_LOCK_KEY = '7161979485542377582';
const POLICY_LOCK_KEY = '7161979485543231340';

/** Rows the chain is read in when verified, so a long chain is never held whole. */
const VERIFY_BATCH = 500;
/** DOTs asked for in one statement by currentDecisions (the route allows 500). */
const DOTS_PER_QUERY = 500;

const DECISION_COLUMNS = `id, dot_number, decision, "user", decided_at, expires_on, verdict,
  policy_version, content, prev_hash, hash`;
const POLICY_COLUMNS = 'version, settings, created_by, created_at, changes, note';

const INSERT_DECISION = `INSERT INTO vetting_decision
    (dot_number, decision, "user", decided_at, expires_on, verdict, policy_version, content,
     prev_hash, hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING id`;

const INSERT_POLICY = `INSERT INTO vetting_policy (${POLICY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`;

/**
 * Wait for this transaction's turn on `key` (PostgreSQL). On SQLite the transaction holds the
 * file's write lock already (BEGIN IMMEDIATE), so there is nothing to take.
 */
async function takeTurn(sql: SqlEngine, tx: SqlExecutor, key: string): Promise<void> {
  if (sql.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(?)', [key]);
}

/** `?, ?, ?` for an IN list. */

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

/** Why `row` breaks the chain after a record whose hash is `prev`, else undefined. */
function problemOf(row: DecisionRow, prev: string): string | undefined {
  if (row.prev_hash !== prev) return 'its previous hash is not the hash of the record before it';
  if (chainHash(prev, row.content) !== row.hash) return 'its hash does not match its content';
  const content = readContent(row.content);
  if (!content || canonicalJson(content) !== row.content) {
    return 'its content is not canonical JSON';
  }
  if (!columnsMatch(row, content)) return 'its columns differ from its hashed content';
  return undefined;
}

async function readCurrentPolicy(on: SqlExecutor): Promise<PolicyVersion> {
  const [row] = await on.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM vetting_policy ORDER BY version DESC LIMIT 1`,
  );
  return row ? toPolicy(row) : defaultVersion();
}

export function createVettingSqlStore(sql: SqlEngine): VettingSqlStore {
  const append = (content: DecisionContent) =>
    sql.transaction(async (tx) => {
      await takeTurn(sql, tx, CHAIN_LOCK_KEY);
      const [last] = await tx.query<{ hash: string }>(
        'SELECT hash FROM vetting_decision ORDER BY id DESC LIMIT 1',
      );
      const prev = last?.hash ?? GENESIS_HASH;
      const text = canonicalJson(content);
      const hash = chainHash(prev, text);
      const verdict = (content.verdict as { verdict?: unknown } | null)?.verdict;
      const [inserted] = await tx.query<{ id: number | string }>(INSERT_DECISION, [
        content.dot_number,
        content.decision,
        content.user.id,
        content.decided_at,
        content.expires_on,
        typeof verdict === 'string' ? verdict : null,
        content.policy_version,
        text,
        prev,
        hash,
      ]);
      return { ...content, id: Number(inserted?.id), hash, prev_hash: prev };
    });

  const save = (
    actor: Actor,
    settings: PolicySettings,
    note: string | null,
    at: Date,
    asked?: PolicyOptions,
  ) =>
    sql.transaction(async (tx) => {
      await takeTurn(sql, tx, POLICY_LOCK_KEY);
      const current = await readCurrentPolicy(tx);
      const options = asked ?? current.options;
      const changes = [
        ...describeChanges(current.settings, settings),
        ...describeOptionChanges(current.options, options),
      ];
      if (changes.length === 0) return undefined;
      const version: PolicyVersion = {
        version: current.version + 1,
        settings,
        options,
        created_by: actor.name,
        created_at: at.toISOString(),
        changes,
        note,
      };
      await tx.run(INSERT_POLICY, [
        version.version,
        JSON.stringify({ ...settings, [OPTIONS_KEY]: options }),
        version.created_by,
        at.toISOString(),
        JSON.stringify(changes),
        note,
      ]);
      return version;
    });

  return {
    currentPolicy: () => readCurrentPolicy(sql),
    async policyVersion(version) {
      const [row] = await sql.query<PolicyRow>(
        `SELECT ${POLICY_COLUMNS} FROM vetting_policy WHERE version = ?`,
        [version],
      );
      if (row) return toPolicy(row);
      return version === 1 ? defaultVersion() : undefined;
    },
    async policyVersions() {
      const rows = await sql.query<PolicyRow>(
        `SELECT ${POLICY_COLUMNS} FROM vetting_policy ORDER BY version DESC`,
      );
      const versions = rows.map(toPolicy);
      return versions.some((v) => v.version === 1) ? versions : [...versions, defaultVersion()];
    },
    savePolicy: save,
    appendDecision: append,
    async decision(id) {
      const [row] = await sql.query<DecisionRow>(
        `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id = ?`,
        [id],
      );
      return row ? toRecord(row) : undefined;
    },
    async decisions(filter) {
      const { where, params } = filterWhere(filter);
      const [counted] = await sql.query<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM vetting_decision ${where}`,
        params,
      );
      const rows = await sql.query<DecisionRow>(
        `SELECT ${DECISION_COLUMNS} FROM vetting_decision ${where}
         ORDER BY id DESC LIMIT ? OFFSET ?`,
        [...params, filter.pageSize, (filter.page - 1) * filter.pageSize],
      );
      return { items: rows.map(toRecord), total: Number(counted?.n ?? 0) };
    },
    async currentDecisions(dots) {
      const wanted = [...new Set(dots)];
      const newest = new Map<string, DecisionRecord>();
      for (let i = 0; i < wanted.length; i += DOTS_PER_QUERY) {
        const slice = wanted.slice(i, i + DOTS_PER_QUERY);
        const rows = await sql.query<DecisionRow>(
          `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id IN (
             SELECT MAX(id) FROM vetting_decision
              WHERE dot_number IN (${placeholders(slice.length)}) GROUP BY dot_number)`,
          slice,
        );
        for (const row of rows) newest.set(row.dot_number, toRecord(row));
      }
      return wanted.flatMap((dot) => {
        const record = newest.get(dot);
        return record ? [record] : [];
      });
    },
    async verifyChain() {
      // The records committed now: an append committing meanwhile gets a larger id (ids are
      // taken in chain order), so it is neither counted nor checked.
      const [head] = await sql.query<{ n: number | string; last: number | string | null }>(
        'SELECT COUNT(*) AS n, MAX(id) AS last FROM vetting_decision',
      );
      const count = Number(head?.n ?? 0);
      const last = Number(head?.last ?? 0);
      let prev = GENESIS_HASH;
      let after = 0;
      while (after < last) {
        const rows = await sql.query<DecisionRow>(
          `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id > ? AND id <= ?
           ORDER BY id LIMIT ${VERIFY_BATCH}`,
          [after, last],
        );
        if (rows.length === 0) break;
        for (const row of rows) {
          const problem = problemOf(row, prev);
          if (problem) return { ok: false, count, first_bad_id: Number(row.id), problem };
          prev = row.hash;
        }
        after = Number(rows.at(-1)?.id);
      }
      return { ok: true, count };
    },
    async revetDue({ asOf, withinDays = REVET_WINDOW_DAYS }) {
      const rows = await sql.query<DecisionRow>(
        `SELECT ${DECISION_COLUMNS} FROM vetting_decision WHERE id IN (
           SELECT MAX(id) FROM vetting_decision GROUP BY dot_number)
         AND expires_on IS NOT NULL AND expires_on <= ?
         ORDER BY expires_on, id`,
        [dayOf(asOf, withinDays)],
      );
      return rows.flatMap((row): RevetDueItem[] => {
        const record = toRecord(row);
        const due = revetDueOf(row.expires_on, asOf, withinDays);
        if (!due || row.expires_on === null) return [];
        return [
          {
            id: record.id,
            dot_number: row.dot_number,
            legal_name: legalNameOf(record),
            decision: record.decision,
            decided_at: record.decided_at,
            expires_on: row.expires_on,
            due,
          },
        ];
      });
    },
  };
}
