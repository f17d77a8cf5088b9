/**
 * A tender check attached to a decision record (docs/tender-check.md, "Kept as evidence"): the
 * record names the check, its answer, when and by whom it was made, and a digest of what it found,
 * all inside the record's hashed content, so the chain's verify proves the record said so when it
 * was written; `checkAttachments` proves the stored check still says what the digest says.
 *
 * The digest covers what retention never changes (the answer, every rule's outcome, the cost, the
 * data's date, who and when), not the phone, e-mail or texts it blanks, so a check keeps its digest
 * after its people are removed.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../http/api-error.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { canonicalJson } from '../vetting/store-rules.ts';
import type {
  TenderCheckAnswer,
  TenderDecisionAttachment,
} from '../../../src/lib/tender/contract.ts';
import { createTenderCheckStore } from './store.ts';

/** The SHA-256 of the check's lasting parts. */
export function tenderDigest(check: TenderCheckAnswer): string {
  const lasting = {
    id: check.id,
    checked_at: check.checked_at,
    user: check.user.id,
    dot_number: check.carrier?.dot_number ?? check.input.dot_number,
    answer: check.answer,
    outcomes: check.reasons.map((r) => [r.rule, r.outcome]),
    cost_usd: check.cost_usd,
    snapshot_date: check.snapshot_date,
    pending: check.pending.map((p) => p.check),
  };
  return createHash('sha256').update(canonicalJson(lasting)).digest('hex');
}

function attachmentOf(check: TenderCheckAnswer): TenderDecisionAttachment {
  return {
    id: check.id,
    answer: check.answer,
    identity: check.identity.outcome,
    checked_at: check.checked_at,
    checked_by: check.user.name,
    snapshot_date: check.snapshot_date,
    digest: tenderDigest(check),
  };
}

/**
 * The attachment of check `id` to a decision on `dot`: 400 `invalid_tender_check` when there is
 * no such check or it is about another carrier.
 */
export async function attachTenderCheck(
  sql: SqlEngine,
  id: number,
  dot: string,
): Promise<TenderDecisionAttachment> {
  const check = await createTenderCheckStore(sql).get(id);
  const about = check?.carrier?.dot_number ?? check?.input.dot_number;
  if (!check || about !== dot) {
    throw new ApiError(
      400,
      'invalid_tender_check',
      check
        ? `Tender check ${id} is about DOT ${about ?? '(unread)'}, not DOT ${dot}`
        : `No tender check ${id}`,
      'Attach a tender check made on the same carrier (GET /api/local/tender-checks?dot_number=…).',
    );
  }
  return attachmentOf(check);
}

/** A record whose attached check no longer matches its digest (or is gone). */
export interface AttachmentProblem {
  decision_id: number;
  tender_check_id: number;
  problem: 'missing' | 'changed';
}

/** Every decision record with an attached check, checked against the stored check. */
export async function checkAttachments(sql: SqlEngine): Promise<AttachmentProblem[]> {
  const rows = await sql.query<{ id: number | string; content: string }>(
    'SELECT id, content FROM vetting_decision WHERE tender_check_id IS NOT NULL ORDER BY id',
  );
  const store = createTenderCheckStore(sql);
  const problems: AttachmentProblem[] = [];
  for (const row of rows) {
    const content = JSON.parse(row.content) as { tender_check?: TenderDecisionAttachment };
    const attached = content.tender_check;
    if (!attached) continue;
    const check = await store.get(attached.id);
    const base = { decision_id: Number(row.id), tender_check_id: attached.id };
    if (!check) problems.push({ ...base, problem: 'missing' });
    else if (tenderDigest(check) !== attached.digest)
      problems.push({ ...base, problem: 'changed' });
  }
  return problems;
}
