/**
 * The vetting store's model and decisions, with no database: the hash chain of decision records
 * (canonical JSON, each hash over the previous one, what makes a stored record break the chain),
 * the next policy version and what changed in it, and when a decision's re-vet date is due.
 */
import { createHash } from 'node:crypto';
import {
  defaultOptions,
  defaultSettings,
  describeChanges,
  describeOptionChanges,
  type PolicyOptions,
  type PolicySettings,
} from '../../../src/lib/vetting/index.ts';
import type {
  Decision,
  DecisionRecord as RecordShape,
} from '../../../src/lib/vetting/decision-record.ts';
import type {
  ChainCheck,
  PolicyVersion,
  RevetDueAnswer,
} from '../../../src/lib/vetting/contract.ts';
import type { TenderDecisionAttachment } from '../../../src/lib/tender/contract.ts';

export const GENESIS_HASH = '0'.repeat(64);

export type { Decision } from '../../../src/lib/vetting/decision-record.ts';
/** A stored policy version (version 1, the default, exists without a row): the route contract's. */
export type { PolicyVersion } from '../../../src/lib/vetting/contract.ts';

export interface Actor {
  id: string;
  name: string;
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
  /** the tender check the decision was recorded with; absent (not null) when none was */
  tender_check?: TenderDecisionAttachment;
}

export interface DecisionRecord extends DecisionContent {
  id: number;
  hash: string;
  prev_hash: string;
}

/**
 * A stored record as the routes answer it, typed as the contract's record
 * (src/lib/vetting/decision-record.ts). The store keeps content as given (its tests chain any
 * content); the proxy writes records only through `POST /api/local/decisions`, which builds them
 * in that shape, and the contract check (http/contract-route.ts) verifies every answer under tests.
 */
export function recordAnswer<R extends DecisionRecord>(
  record: R,
): Omit<R, 'verdict' | 'profile'> & Pick<RecordShape, 'verdict' | 'profile'> {
  return record as Omit<R, 'verdict' | 'profile'> & Pick<RecordShape, 'verdict' | 'profile'>;
}

/** A record as stored: `id` is a string from PostgreSQL (BIGINT), a number from SQLite. */
export interface DecisionRow {
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
  /** base64 Ed25519 signature of the hash (receipts.ts); NULL before signing began */
  signature: string | null;
  signing_key_id: string | null;
}

/** What `GET /api/local/decisions` filters on, as read: the route contract's. */
export type { DecisionFilter } from '../../../src/lib/vetting/contract.ts';

/** The chain check (`GET /api/local/decisions/verify`): the route contract's. */
export type { ChainCheck };

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

/** The record that follows a record whose hash is `prev`: its content text and its hash. */
export function chainLink(prev: string, content: DecisionContent): { text: string; hash: string } {
  const text = canonicalJson(content);
  return { text, hash: chainHash(prev, text) };
}

/** The verdict word a record's verdict holds (its `verdict` column), else null. */
export function verdictOf(content: DecisionContent): string | null {
  const verdict = (content.verdict as { verdict?: unknown } | null)?.verdict;
  return typeof verdict === 'string' ? verdict : null;
}

export function readContent(text: string): DecisionContent | undefined {
  try {
    return JSON.parse(text) as DecisionContent;
  } catch {
    return undefined;
  }
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

/** Why `row` breaks the chain after a record whose hash is `prev`, else undefined. */
export function problemOf(row: DecisionRow, prev: string): string | undefined {
  if (row.prev_hash !== prev) return 'its previous hash is not the hash of the record before it';
  if (chainHash(prev, row.content) !== row.hash) return 'its hash does not match its content';
  const content = readContent(row.content);
  if (!content || canonicalJson(content) !== row.content) {
    return 'its content is not canonical JSON';
  }
  if (!columnsMatch(row, content)) return 'its columns differ from its hashed content';
  return undefined;
}

export function defaultVersion(): PolicyVersion {
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

/**
 * The version that follows `current` when `actor` saves `settings` (and `asked` options; absent:
 * the current ones), with what changed; undefined when nothing did.
 */
export function nextPolicyVersion(
  current: PolicyVersion,
  saved: { actor: Actor; settings: PolicySettings; note: string | null; at: Date },
  asked?: PolicyOptions,
): PolicyVersion | undefined {
  const options = asked ?? current.options;
  const changes = [
    ...describeChanges(current.settings, saved.settings),
    ...describeOptionChanges(current.options, options),
  ];
  if (changes.length === 0) return undefined;
  return {
    version: current.version + 1,
    settings: saved.settings,
    options,
    created_by: saved.actor.name,
    created_at: saved.at.toISOString(),
    changes,
    note: saved.note,
  };
}

/** How far a re-vet date is: passed (before `asOf`'s day) or within the window. */
export type RevetDue = 'overdue' | 'soon';

/** A current decision whose re-vet date has passed or falls within the window asked. */
export type RevetDueItem = RevetDueAnswer['items'][number];

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

/** The legal name a record's profile kept (its identity fields), else null. */
function legalNameOf(content: DecisionContent): string | null {
  const identity = (content.profile as { identity?: unknown } | null)?.identity;
  if (!Array.isArray(identity)) return null;
  const field = (identity as { name?: unknown; value?: unknown }[]).find(
    (f) => f?.name === 'legal_name',
  );
  return typeof field?.value === 'string' ? field.value : null;
}

/**
 * The re-vet queue's entry for a carrier's current record (its DOT and re-vet date as their
 * columns hold them), or none when the date is not due within `withinDays` of `asOf`.
 */
export function revetDueItems(
  record: DecisionRecord,
  columns: Pick<DecisionRow, 'dot_number' | 'expires_on'>,
  asOf: Date,
  withinDays: number,
): RevetDueItem[] {
  const expiresOn = columns.expires_on;
  const due = revetDueOf(expiresOn, asOf, withinDays);
  if (!due || expiresOn === null) return [];
  return [
    {
      id: record.id,
      dot_number: columns.dot_number,
      legal_name: legalNameOf(record),
      decision: record.decision,
      decided_at: record.decided_at,
      expires_on: expiresOn,
      due,
    },
  ];
}
