/**
 * Vetting state in the proxy database: numbered policy versions (`vetting_policy`) and the
 * append-only, hash-chained decision records (`vetting_decision`).
 *
 * Chain: each record's `hash` is SHA-256 over its previous record's hash and the canonical JSON of
 * its content (`content`, which holds everything the record says; the indexed columns repeat parts
 * of it). The first record's previous hash is 64 zeros. A record is inserted in one
 * `BEGIN IMMEDIATE` transaction that reads the last hash and writes the row, so two writers never
 * fork the chain and a killed process leaves either the whole row or nothing.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  defaultSettings,
  describeChanges,
  readStoredSettings,
  type PolicySettings,
} from '../../../src/lib/vetting/index.ts';

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
}

interface DecisionRecord extends DecisionContent {
  id: number;
  hash: string;
  prev_hash: string;
}

interface DecisionRow {
  id: number;
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

function toRecord(row: DecisionRow): DecisionRecord {
  const content = readContent(row.content);
  return { ...(content as DecisionContent), id: row.id, hash: row.hash, prev_hash: row.prev_hash };
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
    row.policy_version === content.policy_version &&
    row.verdict === verdict
  );
}

export interface VettingStore {
  currentPolicy(): PolicyVersion;
  policyVersion(version: number): PolicyVersion | undefined;
  policyVersions(): PolicyVersion[];
  /** Store `settings` as the next version; undefined when nothing changed. */
  savePolicy(
    actor: Actor,
    settings: PolicySettings,
    note: string | null,
    at: Date,
  ): PolicyVersion | undefined;
  appendDecision(content: DecisionContent): DecisionRecord;
  decision(id: number): DecisionRecord | undefined;
  decisions(filter: DecisionFilter): { items: DecisionRecord[]; total: number };
  /** The newest record of each of these DOTs (its current decision). */
  currentDecisions(dots: readonly string[]): DecisionRecord[];
  verifyChain(): ChainCheck;
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

function toPolicy(row: PolicyRow): PolicyVersion {
  const changes = parseJson(row.changes);
  return {
    version: row.version,
    settings: readStoredSettings(parseJson(row.settings)),
    created_by: row.created_by,
    created_at: row.created_at,
    changes: Array.isArray(changes)
      ? changes.filter((c): c is string => typeof c === 'string')
      : [],
    note: row.note,
  };
}

const FILTER_WHERE = `WHERE (@dot_number IS NULL OR dot_number = @dot_number)
  AND (@decision IS NULL OR decision = @decision)
  AND (@user IS NULL OR user = @user)
  AND (@from IS NULL OR substr(decided_at, 1, 10) >= @from)
  AND (@to IS NULL OR substr(decided_at, 1, 10) <= @to)`;

export function createVettingStore(db: Database.Database): VettingStore {
  const policyRows = db.prepare<[], PolicyRow>(
    'SELECT * FROM vetting_policy ORDER BY version DESC',
  );
  const policyRow = db.prepare<[number], PolicyRow>(
    'SELECT * FROM vetting_policy WHERE version = ?',
  );
  const lastPolicy = db.prepare<[], PolicyRow>(
    'SELECT * FROM vetting_policy ORDER BY version DESC LIMIT 1',
  );
  const insertPolicy = db.prepare(
    `INSERT INTO vetting_policy (version, settings, created_by, created_at, changes, note)
     VALUES (@version, @settings, @created_by, @created_at, @changes, @note)`,
  );
  const lastHash = db.prepare<[], { hash: string }>(
    'SELECT hash FROM vetting_decision ORDER BY id DESC LIMIT 1',
  );
  const insertDecision = db.prepare(
    `INSERT INTO vetting_decision
       (dot_number, decision, user, decided_at, expires_on, verdict, policy_version, content, prev_hash, hash)
     VALUES (@dot_number, @decision, @user, @decided_at, @expires_on, @verdict, @policy_version, @content,
       @prev_hash, @hash)`,
  );
  const byId = db.prepare<[number], DecisionRow>('SELECT * FROM vetting_decision WHERE id = ?');
  type FilterParams = Record<'dot_number' | 'decision' | 'user' | 'from' | 'to', string | null>;
  const count = db.prepare<[FilterParams], { n: number }>(
    `SELECT COUNT(*) AS n FROM vetting_decision ${FILTER_WHERE}`,
  );
  const page = db.prepare<[FilterParams & { limit: number; offset: number }], DecisionRow>(
    `SELECT * FROM vetting_decision ${FILTER_WHERE} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
  );
  const all = db.prepare<[], DecisionRow>('SELECT * FROM vetting_decision ORDER BY id');
  const countAll = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM vetting_decision');
  const newestOf = db.prepare<[string], DecisionRow>(
    'SELECT * FROM vetting_decision WHERE dot_number = ? ORDER BY id DESC LIMIT 1',
  );

  const currentPolicy = () => {
    const row = lastPolicy.get();
    return row ? toPolicy(row) : defaultVersion();
  };

  const append = db.transaction((content: DecisionContent) => {
    const prev = lastHash.get()?.hash ?? GENESIS_HASH;
    const text = canonicalJson(content);
    const hash = chainHash(prev, text);
    const verdict = (content.verdict as { verdict?: unknown } | null)?.verdict;
    const info = insertDecision.run({
      dot_number: content.dot_number,
      decision: content.decision,
      user: content.user.id,
      decided_at: content.decided_at,
      expires_on: content.expires_on,
      verdict: typeof verdict === 'string' ? verdict : null,
      policy_version: content.policy_version,
      content: text,
      prev_hash: prev,
      hash,
    });
    return { ...content, id: Number(info.lastInsertRowid), hash, prev_hash: prev };
  });

  const save = db.transaction(
    (actor: Actor, settings: PolicySettings, note: string | null, at: Date) => {
      const current = currentPolicy();
      const changes = describeChanges(current.settings, settings);
      if (changes.length === 0) return undefined;
      const version: PolicyVersion = {
        version: current.version + 1,
        settings,
        created_by: actor.name,
        created_at: at.toISOString(),
        changes,
        note,
      };
      insertPolicy.run({
        ...version,
        settings: JSON.stringify(settings),
        changes: JSON.stringify(changes),
      });
      return version;
    },
  );

  return {
    currentPolicy,
    policyVersion(version) {
      if (version === 1 && !policyRow.get(1)) return defaultVersion();
      const row = policyRow.get(version);
      return row ? toPolicy(row) : undefined;
    },
    policyVersions() {
      const rows = policyRows.all().map(toPolicy);
      return rows.some((row) => row.version === 1) ? rows : [...rows, defaultVersion()];
    },
    savePolicy: (actor, settings, note, at) => save.immediate(actor, settings, note, at),
    appendDecision: (content) => append.immediate(content),
    decision(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : undefined;
    },
    decisions(filter) {
      const params: FilterParams = {
        dot_number: filter.dot_number ?? null,
        decision: filter.decision ?? null,
        user: filter.user ?? null,
        from: filter.from ?? null,
        to: filter.to ?? null,
      };
      const total = count.get(params)?.n ?? 0;
      const rows = page.all({
        ...params,
        limit: filter.pageSize,
        offset: (filter.page - 1) * filter.pageSize,
      });
      return { items: rows.map(toRecord), total };
    },
    currentDecisions(dots) {
      return [...new Set(dots)].flatMap((dot) => {
        const row = newestOf.get(dot);
        return row ? [toRecord(row)] : [];
      });
    },
    verifyChain() {
      const total = countAll.get()?.n ?? 0;
      let prev = GENESIS_HASH;
      for (const row of all.iterate()) {
        const content = readContent(row.content);
        const problem =
          row.prev_hash !== prev
            ? 'its previous hash is not the hash of the record before it'
            : chainHash(prev, row.content) !== row.hash
              ? 'its hash does not match its content'
              : !content || canonicalJson(content) !== row.content
                ? 'its content is not canonical JSON'
                : !columnsMatch(row, content)
                  ? 'its columns differ from its hashed content'
                  : undefined;
        if (problem) return { ok: false, count: total, first_bad_id: row.id, problem };
        prev = row.hash;
      }
      return { ok: true, count: total };
    },
  };
}
