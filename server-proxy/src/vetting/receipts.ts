/**
 * Receipts and checkpoints of the decision record (docs/vetting.md, "An anchored record").
 *
 * - A record's **signature** covers its hash (`decision-record`), written with the record: the hash
 *   covers the record's content and the hash before it, so the whole history up to it.
 * - A **receipt** for a record (`decision-receipt`) states the record's id, position and hash and the
 *   chain's length and head hash at the moment it was issued.
 * - A **checkpoint** (`decision-checkpoint`) states the chain's length and head hash.
 *
 * Whoever kept a receipt or a checkpoint can later show that the chain was cut (it is shorter than
 * it was), that a record was deleted (a record is no longer at its position) or that records were
 * edited and every hash after them recomputed (a hash differs): the database alone cannot forge a
 * statement, because the key is not in it.
 */
import {
  canonicalPayload,
  signStatement,
  verifyStatement,
  type Signed,
  type SigningKey,
} from './signing.ts';

const RECORD_STATEMENT = 'decision-record';
const RECEIPT_STATEMENT = 'decision-receipt';
const CHECKPOINT_STATEMENT = 'decision-checkpoint';

/** The head hash of an empty chain (the first record's previous hash). */
const GENESIS_HEAD = '0'.repeat(64);

/** A record as the chain reader gives it. */
export interface ChainEntry {
  id: number;
  hash: string;
}

/** What checking statements needs to read of the chain now (one store query each). */
export interface ChainReader {
  /** Records in the chain now, and the newest one. */
  head(): Promise<{ length: number; head: ChainEntry | undefined }>;
  /** The record with this id, with its 1-based position in the chain (ids ascend in chain order). */
  byId(id: number): Promise<(ChainEntry & { position: number }) | undefined>;
  /** The record at this 1-based position. */
  atPosition(position: number): Promise<ChainEntry | undefined>;
}

/** The statement a record's signature covers (its payload is rebuilt from the stored row). */
function recordStatement(record: Pick<ChainEntry, 'hash'>): Record<string, string> {
  return { type: RECORD_STATEMENT, record_hash: record.hash };
}

/** A record's signature, made before it is inserted (its hash is known, its id not yet). */
export function signRecord(key: SigningKey, record: Pick<ChainEntry, 'hash'>): Signed {
  return signStatement(key, recordStatement(record));
}

/** Check a stored record signature (base64) made with `key_id`. */
export function recordSignatureProblem(
  key: Pick<SigningKey, 'id' | 'publicKey'>,
  record: Pick<ChainEntry, 'hash'>,
  stored: { signature: string | null; key_id: string | null },
): string | undefined {
  if (stored.signature === null || stored.key_id === null) return 'the record is not signed';
  if (stored.key_id !== key.id)
    return `signed with key ${stored.key_id}, not this proxy's ${key.id}`;
  const payload = canonicalPayload({ ...recordStatement(record), key_id: stored.key_id });
  const check = verifyStatement(key, { payload, signature: stored.signature });
  return check.ok ? undefined : check.problem;
}

export interface Receipt extends Signed {
  type: typeof RECEIPT_STATEMENT;
  record_id: number;
  record_position: number;
  record_hash: string;
  chain_length: number;
  head_hash: string;
  issued_at: string;
}

export interface Checkpoint extends Signed {
  type: typeof CHECKPOINT_STATEMENT;
  chain_length: number;
  head_hash: string;
  issued_at: string;
}

/** The receipt for record `id` now, or undefined when there is no such record. */
export async function issueReceipt(
  key: SigningKey,
  chain: ChainReader,
  id: number,
  now: Date,
): Promise<Receipt | undefined> {
  const record = await chain.byId(id);
  if (!record) return undefined;
  const { length, head } = await chain.head();
  const fields = {
    type: RECEIPT_STATEMENT,
    record_id: record.id,
    record_position: record.position,
    record_hash: record.hash,
    chain_length: length,
    head_hash: head?.hash ?? record.hash,
    issued_at: now.toISOString(),
  } as const;
  return { ...fields, ...signStatement(key, fields) };
}

export async function issueCheckpoint(
  key: SigningKey,
  chain: ChainReader,
  now: Date,
): Promise<Checkpoint> {
  const { length, head } = await chain.head();
  const fields = {
    type: CHECKPOINT_STATEMENT,
    chain_length: length,
    head_hash: head?.hash ?? GENESIS_HEAD,
    issued_at: now.toISOString(),
  } as const;
  return { ...fields, ...signStatement(key, fields) };
}

export interface StatementResult {
  /** Index in the list given. */
  index: number;
  type: string;
  record_id?: number;
  ok: boolean;
  problem?: string;
}

function int(value: string | number | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Check receipts and checkpoints someone kept against the chain now. Each answers ok, or the first
 * thing wrong: a bad signature, the chain shorter than it was, the record missing, changed or no
 * longer at its position, or the chain's record at the stated length no longer the stated head.
 */
export async function checkStatements(
  key: Pick<SigningKey, 'id' | 'publicKey'>,
  chain: ChainReader,
  statements: readonly unknown[],
): Promise<StatementResult[]> {
  const results: StatementResult[] = [];
  const { length } = await chain.head();
  for (const [index, statement] of statements.entries()) {
    const given = (statement ?? {}) as { payload?: unknown; signature?: unknown };
    const check = verifyStatement(key, given);
    if (!check.ok) {
      results.push({ index, type: 'unknown', ok: false, problem: check.problem });
      continue;
    }
    const f = check.fields;
    const type = String(f.type);
    const chainLength = int(f.chain_length);
    const headHash = typeof f.head_hash === 'string' ? f.head_hash : undefined;
    if (
      (type !== RECEIPT_STATEMENT && type !== CHECKPOINT_STATEMENT) ||
      chainLength === undefined ||
      headHash === undefined
    ) {
      results.push({ index, type, ok: false, problem: 'not a receipt or checkpoint' });
      continue;
    }
    const problem = await statementProblem(chain, length, f, type, chainLength, headHash);
    const recordId = int(f.record_id);
    results.push({
      index,
      type,
      ...(recordId === undefined ? {} : { record_id: recordId }),
      ok: problem === undefined,
      ...(problem === undefined ? {} : { problem }),
    });
  }
  return results;
}

async function statementProblem(
  chain: ChainReader,
  length: number,
  f: Record<string, string | number>,
  type: string,
  chainLength: number,
  headHash: string,
): Promise<string | undefined> {
  if (length < chainLength) {
    return `the chain holds ${length} records; it held ${chainLength} when this ${type === RECEIPT_STATEMENT ? 'receipt' : 'checkpoint'} was issued (records were removed)`;
  }
  if (type === RECEIPT_STATEMENT) {
    const id = int(f.record_id);
    const position = int(f.record_position);
    if (id === undefined || position === undefined || typeof f.record_hash !== 'string') {
      return 'not a receipt or checkpoint';
    }
    const record = await chain.byId(id);
    if (!record) return `record ${id} is missing`;
    if (record.hash !== f.record_hash) return `record ${id} was changed (its hash differs)`;
    if (record.position !== position) {
      return `record ${id} is at position ${record.position}, not ${position}: records before it were removed`;
    }
  }
  if (chainLength === 0) return undefined;
  const atHead = await chain.atPosition(chainLength);
  if (!atHead || atHead.hash !== headHash) {
    return `the chain's record ${chainLength} is not the head this statement names: records up to it were changed or removed`;
  }
  return undefined;
}
