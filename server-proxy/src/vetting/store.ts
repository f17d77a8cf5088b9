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
 *
 * The SQL and its row mapping are in store-queries.ts; the chain, policy and re-vet decisions in
 * store-rules.ts; this file composes them.
 */
import type { PolicyOptions, PolicySettings } from '../../../src/lib/vetting/index.ts';
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { recordSignatureProblem, signRecord } from './receipts.ts';
import type { SigningKey } from './signing.ts';
import * as q from './store-queries.ts';
import {
  GENESIS_HASH,
  REVET_WINDOW_DAYS,
  chainLink,
  dayOf,
  nextPolicyVersion,
  problemOf,
  revetDueItems,
  type Actor,
  type ChainCheck,
  type DecisionContent,
  type DecisionFilter,
  type DecisionRecord,
  type DecisionRow,
  type PolicyVersion,
  type RevetDueItem,
} from './store-rules.ts';

export {
  GENESIS_HASH,
  REVET_WINDOW_DAYS,
  canonicalJson,
  chainHash,
  dayOf,
  revetDueOf,
} from './store-rules.ts';
export type { Actor, Decision, DecisionContent, RevetDue } from './store-rules.ts';
export { recordAnswer } from './store-rules.ts';

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
    also?: AlsoOnSave,
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

/** Append a record after the chain's last one (signed, with a key), taking the chain's turn. */
function appendDecision(
  sql: SqlEngine,
  content: DecisionContent,
  key: SigningKey | undefined,
): Promise<DecisionRecord> {
  return sql.transaction(async (tx) => {
    await q.takeTurn(sql.kind, tx, 'chain');
    const prev = (await q.lastHash(tx)) ?? GENESIS_HASH;
    const { text, hash } = chainLink(prev, content);
    const signed = key ? signRecord(key, { hash }) : undefined;
    const id = await q.insertDecision(tx, content, { text, prev, hash }, signed);
    return { ...content, id, hash, prev_hash: prev };
  });
}

/**
 * What else a policy save writes in its own transaction: `within` runs after the version is stored
 * (the standing changes it causes), and `basedOn` is the version those were worked out against —
 * another save landing first makes this one fail with PolicyChangedError, writing nothing.
 */
interface AlsoOnSave {
  basedOn: number;
  within: (tx: SqlExecutor, saved: PolicyVersion) => Promise<void>;
}

/** A save whose changes were worked out against a version that is no longer the current one. */
export class PolicyChangedError extends Error {
  override name = 'PolicyChangedError';
  constructor(
    readonly basedOn: number,
    readonly current: number,
  ) {
    super(`the policy is at version ${current}, not ${basedOn}, since this save was prepared`);
  }
}

/** Store the next policy version when anything changed, taking the policy's turn. */
function savePolicy(
  sql: SqlEngine,
  saved: { actor: Actor; settings: PolicySettings; note: string | null; at: Date },
  asked?: PolicyOptions,
  also?: AlsoOnSave,
): Promise<PolicyVersion | undefined> {
  return sql.transaction(async (tx) => {
    await q.takeTurn(sql.kind, tx, 'policy');
    const current = await q.currentPolicy(tx);
    if (also && current.version !== also.basedOn) {
      throw new PolicyChangedError(also.basedOn, current.version);
    }
    const version = nextPolicyVersion(current, saved, asked);
    if (!version) return undefined;
    await q.insertPolicy(tx, { ...version, created_at: saved.at.toISOString() });
    await also?.within(tx, version);
    return version;
  });
}

/** The newest record of each DOT asked (each once), in the order asked, DOTS_PER_QUERY a time. */
async function currentDecisions(
  sql: SqlEngine,
  dots: readonly string[],
): Promise<DecisionRecord[]> {
  const wanted = [...new Set(dots)];
  const newest = new Map<string, DecisionRecord>();
  for (let i = 0; i < wanted.length; i += q.DOTS_PER_QUERY) {
    const found = await q.newestRecords(sql, wanted.slice(i, i + q.DOTS_PER_QUERY));
    for (const { dot, record } of found) newest.set(dot, record);
  }
  return wanted.flatMap((dot) => {
    const record = newest.get(dot);
    return record ? [record] : [];
  });
}

/**
 * Check the records committed now, in batches: an append committing meanwhile gets a larger id
 * (ids are taken in chain order), so it is neither counted nor checked. With a key, every
 * record's signature too: records made before signing began may have none, but none may follow a
 * signed one (taking signatures off would otherwise pass an edited record as an old one).
 */
async function verifyChain(sql: SqlEngine, key: SigningKey | undefined): Promise<ChainCheck> {
  const { count, last } = await q.chainHead(sql);
  let prev = GENESIS_HASH;
  let after = 0;
  let signed = 0;
  let unsigned = 0;
  const signing = key ? { key_id: key.id } : {};
  while (after < last) {
    const rows = await q.chainBatch(sql, after, last);
    if (rows.length === 0) break;
    for (const row of rows) {
      const problem =
        problemOf(row, prev) ?? (key ? signatureProblem(key, row, signed) : undefined);
      if (problem) {
        return { ok: false, count, first_bad_id: Number(row.id), problem, ...signing };
      }
      if (row.signature === null) unsigned += 1;
      else signed += 1;
      prev = row.hash;
    }
    after = Number(rows.at(-1)?.id);
  }
  return key
    ? { ok: true, count, signed, unsigned_before_signing: unsigned, ...signing }
    : { ok: true, count };
}

function signatureProblem(
  key: SigningKey,
  row: DecisionRow,
  signedBefore: number,
): string | undefined {
  if (row.signature === null && row.signing_key_id === null) {
    return signedBefore > 0 ? 'it is not signed, but records before it are' : undefined;
  }
  const problem = recordSignatureProblem(key, row, {
    signature: row.signature,
    key_id: row.signing_key_id,
  });
  return problem === undefined ? undefined : `its signature does not hold: ${problem}`;
}

/**
 * The store over `sql`. With `key` (the proxy's; signing.ts) every record appended is signed and
 * `verifyChain` checks every signature; without, neither (import-sqlite and the alerts only read).
 */
export function createVettingSqlStore(sql: SqlEngine, key?: SigningKey): VettingSqlStore {
  return {
    currentPolicy: () => q.currentPolicy(sql),
    policyVersion: (version) => q.policyVersion(sql, version),
    policyVersions: () => q.policyVersions(sql),
    savePolicy: (actor, settings, note, at, options, also) =>
      savePolicy(sql, { actor, settings, note, at }, options, also),
    appendDecision: (content) => appendDecision(sql, content, key),
    decision: (id) => q.decisionById(sql, id),
    decisions: (filter) => q.decisionPage(sql, filter),
    currentDecisions: (dots) => currentDecisions(sql, dots),
    verifyChain: () => verifyChain(sql, key),
    async revetDue({ asOf, withinDays = REVET_WINDOW_DAYS }) {
      const found = await q.currentRecordsDueBy(sql, dayOf(asOf, withinDays));
      return found.flatMap(({ record, columns }) =>
        revetDueItems(record, columns, asOf, withinDays),
      );
    },
  };
}
