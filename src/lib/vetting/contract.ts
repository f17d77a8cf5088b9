/**
 * The vetting routes' contract (docs/vetting.md): the shape of every answer of `/api/local/verdict`,
 * `/api/local/policy*` and `/api/local/decisions*`, as zod schemas the proxy's routes and the SPA
 * both import, so neither side can drift from the other. Runtime-neutral (zod only).
 *
 * A decision record's own shape is `decisionRecordSchema` (decision-record.ts): the alerts poller
 * reads stored records with it too.
 */
import { z } from 'zod';
import { DECISIONS, decisionRecordSchema, outcomeSchema, reasonSchema } from './decision-record.ts';
import { STANDINGS } from './standing.ts';
import { CARGO_CLASSES, HAZMAT_MODES, RULE_IDS } from './types.ts';

// ---------------------------------------------------------------------------------------------
// GET /api/local/verdict

/**
 * The verdict of the current policy on a carrier's profile (the proxy's cached copy: free on a
 * hit). `reasons` are every enabled rule's result, worst first.
 */
export const verdictAnswerSchema = z.object({
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  /** when the profile the verdict was computed on was fetched */
  fetched_at: z.string(),
  /** `YYYY-MM-DD` of the monitoring change the profile was fetched anew after, if it was */
  refreshed_after_change: z.string().nullable(),
  evaluated_at: z.string(),
  verdict: outcomeSchema,
  policy_version: z.number().int(),
  snapshot_date: z.string().nullable(),
  /** the day "N days ago" is counted from: the snapshot date, else the evaluation day */
  reference_date: z.string(),
  reasons: z.array(reasonSchema),
});
export type VerdictAnswer = z.infer<typeof verdictAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// The policy: GET /api/local/policy, …/versions, …/versions/:version, PUT, POST …/preview

const HIT_OUTCOMES = ['review', 'fail'] as const;

/** One rule's team settings (src/lib/vetting/types.ts `RuleSettings`). */
const ruleSettingsSchema = z.object({
  enabled: z.boolean(),
  outcome: z.enum(HIT_OUTCOMES),
  no_data: z.enum(['pass', 'review']),
  threshold: z.number().optional(),
  cargo_required: z.array(z.enum(CARGO_CLASSES)).optional(),
  cargo_refused: z.array(z.enum(CARGO_CLASSES)).optional(),
  hazmat: z.enum(HAZMAT_MODES).optional(),
});

/** Every rule's settings, keyed by rule id (all of them: the proxy fills in the defaults). */
const policySettingsSchema = z.record(z.enum(RULE_IDS), ruleSettingsSchema);

/** One numbered version of the policy (version 1, the default, exists without a stored row). */
export const policyVersionSchema = z.object({
  version: z.number().int(),
  settings: policySettingsSchema,
  options: z.object({ max_revet_days: z.number().int() }),
  created_by: z.string(),
  /** null for the default version */
  created_at: z.string().nullable(),
  /** one line per changed setting ("New entrant: threshold 540 → 365") */
  changes: z.array(z.string()),
  note: z.string().nullable(),
});
export type PolicyVersion = z.infer<typeof policyVersionSchema>;

/** What the Policy page shows of a rule: its description, defaults and the choices it offers. */
const ruleInfoSchema = z.object({
  id: z.enum(RULE_IDS),
  label: z.string(),
  description: z.string(),
  tab: z.string(),
  defaults: ruleSettingsSchema,
  /** outcomes a team may choose when the rule fires */
  outcomes: z.array(z.enum(HIT_OUTCOMES)),
  threshold: z
    .object({
      label: z.string(),
      unit: z.string(),
      min: z.number(),
      max: z.number(),
      step: z.number(),
    })
    .nullable(),
  /** the choices of a list setting (`cargo_classes`), else null */
  cargo_classes: z.array(z.object({ id: z.enum(CARGO_CLASSES), label: z.string() })).nullable(),
  /** the choices of a one-of setting (`hazmat`), else null */
  hazmat_modes: z.array(z.object({ id: z.enum(HAZMAT_MODES), label: z.string() })).nullable(),
});
export type RuleInfo = z.infer<typeof ruleInfoSchema>;

/** `GET /api/local/policy` and the `201` of `PUT /api/local/policy`: a version and the rules. */
export const currentPolicySchema = policyVersionSchema.extend({ rules: z.array(ruleInfoSchema) });
export type CurrentPolicy = z.infer<typeof currentPolicySchema>;

/** `GET /api/local/policy/versions`: every version, newest first. */
export const policyVersionsSchema = z.object({ items: z.array(policyVersionSchema) });

/** One current decision whose standing or verdict a proposed policy would change. */
const previewEntrySchema = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  decision: z.enum(DECISIONS),
  decision_id: z.number().int(),
  standing_before: z.enum(STANDINGS),
  standing_after: z.enum(STANDINGS),
  verdict_before: outcomeSchema,
  verdict_after: outcomeSchema,
  /** the non-pass rule results under the proposed policy */
  reasons: z.array(reasonSchema),
});
export type PreviewEntry = z.infer<typeof previewEntrySchema>;

/** `POST /api/local/policy/preview`: what saving the change would do (nothing stored). */
export const policyPreviewSchema = z.object({
  version_from: z.number().int(),
  would_fail: z.array(previewEntrySchema),
  would_review: z.array(previewEntrySchema),
  would_pass: z.array(previewEntrySchema),
  /** current decisions whose standing and verdict stay as they are (or nothing is held of) */
  unchanged: z.number().int(),
});
export type PolicyPreview = z.infer<typeof policyPreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Decisions: GET /api/local/decisions, …/:id, POST, …/current, …/revet-due

/** `GET /api/local/decisions`: one page of records matching the filters, newest first. */
export const decisionPageSchema = z.object({
  items: z.array(decisionRecordSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** A current decision's re-vet date has passed, or falls within 14 days. */
const REVET_DUE = ['overdue', 'soon'] as const;

/**
 * The verdict of a carrier's freshest held data under the current policy (never a billed call):
 * its cached profile (`source: "profile"`), else the record's evidence with the monitoring changes
 * seen since laid over (`"record"`). `reasons` are the non-pass rule results.
 */
const heldVerdictSchema = z.object({
  verdict: outcomeSchema,
  policy_version: z.number().int(),
  reasons: z.array(reasonSchema),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  source: z.enum(['profile', 'record']),
  /** the held profile is marked stale after a reported change (refetched on its next view) */
  stale: z.boolean().optional(),
});
export type HeldVerdict = z.infer<typeof heldVerdictSchema>;

/** A current (newest) decision with its standing now. */
export const currentDecisionSchema = decisionRecordSchema.extend({
  now: heldVerdictSchema.nullable(),
  standing: z.enum(STANDINGS),
  /** a saved policy changed its standing and no newer decision was recorded since */
  needs_revet: z.boolean(),
  /** the record carries an override reason */
  override: z.boolean(),
  revet_due: z.enum(REVET_DUE).nullable(),
});
export type CurrentDecision = z.infer<typeof currentDecisionSchema>;

/**
 * `GET /api/local/decisions/current?dot_numbers=`: the current decisions of the carriers asked
 * that have one.
 */
export const currentDecisionsSchema = z.object({ items: z.array(currentDecisionSchema) });

/** `GET /api/local/decisions/current?all=1`: one page of every current decision, newest first. */
export const currentDecisionPageSchema = currentDecisionsSchema.extend({
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** Either answer of `GET /api/local/decisions/current` (the page when `all=1` was asked). */
export const currentAnswerSchema = z.union([currentDecisionPageSchema, currentDecisionsSchema]);

/**
 * `GET /api/local/decisions/revet-due`: the current decisions whose re-vet date has passed or
 * falls within `within_days` of `as_of` (the proxy's UTC day), most overdue first.
 */
export const revetDueSchema = z.object({
  as_of: z.string(),
  within_days: z.number().int(),
  overdue: z.number().int(),
  soon: z.number().int(),
  items: z.array(
    z.object({
      id: z.number().int(),
      dot_number: z.string(),
      legal_name: z.string().nullable(),
      decision: z.enum(DECISIONS),
      decided_at: z.string(),
      expires_on: z.string(),
      due: z.enum(REVET_DUE),
    }),
  ),
});
export type RevetDueAnswer = z.infer<typeof revetDueSchema>;

// ---------------------------------------------------------------------------------------------
// The anchored record: GET …/verify, POST …/verify, GET …/public-key, GET …/:id/receipt

/** `GET /api/local/decisions/verify`: the hash chain and (with a key) every signature checked. */
export const chainCheckSchema = z.object({
  ok: z.boolean(),
  count: z.number().int(),
  first_bad_id: z.number().int().optional(),
  /** why the first bad record is bad */
  problem: z.string().optional(),
  /** records whose signature was checked */
  signed: z.number().int().optional(),
  /** records made before signing began (none may follow a signed one) */
  unsigned_before_signing: z.number().int().optional(),
  /** the key the signatures were checked with */
  key_id: z.string().optional(),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

/** One kept receipt or checkpoint checked against the chain now. */
const statementResultSchema = z.object({
  /** its index in the list given */
  index: z.number().int(),
  type: z.string(),
  record_id: z.number().int().optional(),
  ok: z.boolean(),
  problem: z.string().optional(),
});

/** `POST /api/local/decisions/verify`: the chain check, and each statement given checked. */
export const verifyAnswerSchema = chainCheckSchema.extend({
  receipts: z.array(statementResultSchema),
  receipts_failed: z.number().int(),
});

/** `GET /api/local/decisions/public-key`: the key records and receipts are signed with. */
export const publicKeySchema = z.object({
  algorithm: z.literal('Ed25519'),
  key_id: z.string(),
  /** SPKI PEM */
  public_key: z.string(),
  /** set by DECISION_SIGNING_KEY_FILE, or generated into the data directory */
  source: z.enum(['configured', 'generated']),
});

const HASH = /^[0-9a-f]{64}$/;

/**
 * `GET /api/local/decisions/:id/receipt`: a statement signed by the proxy of the record's id,
 * position and hash and the chain's length and head hash when it was issued.
 */
export const receiptSchema = z.object({
  type: z.literal('decision-receipt'),
  record_id: z.number().int().positive(),
  record_position: z.number().int().positive(),
  record_hash: z.string().regex(HASH),
  chain_length: z.number().int().positive(),
  head_hash: z.string().regex(HASH),
  issued_at: z.string(),
  /** the exact text that was signed (canonical JSON of the fields above and `key_id`) */
  payload: z.string(),
  /** Ed25519 over `payload`, base64 */
  signature: z.string(),
  key_id: z.string(),
});
export type Receipt = z.infer<typeof receiptSchema>;
