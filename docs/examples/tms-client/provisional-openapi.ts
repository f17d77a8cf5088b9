/**
 * A provisional OpenAPI 3.1 document for the routes the worked integration uses, written by hand
 * (zod schemas turned into JSON Schema) until the proxy serves its own at `GET /api/openapi.json`
 * (issue 32 item 3). `schema.d.ts` is generated from it; `tender-time.test.ts` checks they agree.
 */
import { z } from 'zod';
import {
  createdAnswerSchema,
  dryRunAnswerSchema,
  bulkJobSchema,
} from '../../../src/lib/bulk/contract.ts';
import {
  DECISIONS,
  decisionRecordSchema,
  reasonSchema,
} from '../../../src/lib/vetting/decision-record.ts';
import { OUTCOMES } from '../../../src/lib/vetting/index.ts';
import { CHANNELS } from '../../../src/lib/service/channels.ts';

const apiError = z.object({ error: z.string(), code: z.string(), hint: z.string() });

const verdictAnswer = z.object({
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  fetched_at: z.string(),
  refreshed_after_change: z.string().nullable(),
  verdict: z.enum(OUTCOMES),
  policy_version: z.number(),
  evaluated_at: z.string(),
  snapshot_date: z.string().nullable(),
  reference_date: z.string().nullable(),
  reasons: z.array(reasonSchema),
});

const decisionBody = z.object({
  dot_number: z.string(),
  decision: z.enum(DECISIONS),
  note: z.string().nullable().optional(),
  conditions: z.string().nullable().optional(),
  expires_on: z.string().nullable().optional(),
  supersedes: z.number().int().nullable().optional(),
  override_reason: z.string().nullable().optional(),
});

const signed = { payload: z.string(), signature: z.string(), key_id: z.string() };
const receipt = z.object({
  type: z.literal('decision-receipt'),
  record_id: z.number(),
  record_position: z.number(),
  record_hash: z.string(),
  chain_length: z.number(),
  head_hash: z.string(),
  issued_at: z.string(),
  ...signed,
});
const checkpoint = z.object({
  type: z.literal('decision-checkpoint'),
  chain_length: z.number(),
  head_hash: z.string(),
  issued_at: z.string(),
  ...signed,
});
const verifyAnswer = z.object({
  ok: z.boolean(),
  count: z.number(),
  first_bad_id: z.number().optional(),
  problem: z.string().optional(),
  receipts: z.array(
    z.object({
      index: z.number(),
      type: z.string(),
      record_id: z.number().optional(),
      ok: z.boolean(),
      problem: z.string().optional(),
    }),
  ),
  receipts_failed: z.number(),
});

const bulkBody = z.object({
  identifiers: z.array(z.string()),
  rows: z.array(z.number()).optional(),
  numbering: z.enum(['line', 'row']).optional(),
  dry_run: z.boolean().optional(),
});

const subscriptionBody = z.object({
  kind: z.enum(['email', 'webhook']),
  target: z.string(),
  channels: z.array(z.enum(CHANNELS)),
  severity: z.enum(['all', 'attention', 'fails']),
  schedule: z.enum(['immediate', 'daily']),
  digest_time: z.string().nullable().optional(),
  time_zone: z.string().nullable().optional(),
});
const subscription = subscriptionBody.extend({
  id: z.number(),
  user: z.string(),
  digest_time: z.string().nullable(),
  time_zone: z.string().nullable(),
  last_digest_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
const testAnswer = z.object({
  deliveries_queued: z.number(),
  ids: z.array(z.string()),
  skipped: z.array(z.object({ subscription_id: z.number().nullable(), code: z.string() })),
});

const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'output' }) } },
});
const body = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: z.toJSONSchema(schema, { io: 'input' }) } },
});
const errors = {
  '4XX': { $ref: '#/components/responses/Error' },
  '5XX': { $ref: '#/components/responses/Error' },
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

export function provisionalDocument() {
  return {
    openapi: '3.1.0',
    info: { title: 'carrier-desk (provisional)', version: '0' },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { ApiError: z.toJSONSchema(apiError) },
      responses: {
        Error: {
          description: '{error, code, hint}',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
        },
      },
    },
    paths: {
      '/api/local/verdict': {
        get: {
          summary: "A carrier's verdict under the team's policy",
          parameters: [
            { name: 'dot_number', in: 'query', schema: { type: 'string' } },
            { name: 'docket_number', in: 'query', schema: { type: 'string' } },
          ],
          responses: { 200: json(verdictAnswer, 'the verdict with its reasons'), ...errors },
        },
      },
      '/api/local/decisions': {
        post: {
          summary: 'Record a decision',
          requestBody: body(decisionBody),
          responses: { 201: json(decisionRecordSchema, 'the stored record'), ...errors },
        },
      },
      '/api/local/decisions/{id}/receipt': {
        get: {
          summary: 'A signed receipt for one record',
          parameters: [idParam],
          responses: { 200: json(receipt, 'the receipt'), ...errors },
        },
      },
      '/api/local/decisions/verify': {
        post: {
          summary: 'Check the chain and the receipts or checkpoints kept',
          requestBody: body(z.object({ receipts: z.array(z.union([receipt, checkpoint])) })),
          responses: { 200: json(verifyAnswer, 'the check'), ...errors },
        },
      },
      '/api/local/bulk-jobs': {
        post: {
          summary: 'Estimate or queue a bulk job',
          requestBody: body(bulkBody),
          responses: {
            200: json(dryRunAnswerSchema, 'the estimate (dry run)'),
            202: json(createdAnswerSchema, 'the job is queued'),
            ...errors,
          },
        },
      },
      '/api/local/bulk-jobs/{id}': {
        get: {
          summary: 'A job with a page of its items',
          parameters: [
            idParam,
            { name: 'offset', in: 'query', schema: { type: 'integer' } },
            { name: 'limit', in: 'query', schema: { type: 'integer' } },
          ],
          responses: { 200: json(bulkJobSchema, 'the job'), ...errors },
        },
      },
      '/api/local/alerts/subscriptions': {
        post: {
          summary: 'Subscribe to alerts',
          requestBody: body(subscriptionBody),
          responses: { 201: json(subscription, 'the subscription'), ...errors },
        },
      },
      '/api/local/alerts/test': {
        post: {
          summary: 'Send a test alert',
          requestBody: body(z.object({ subscription_id: z.number().int().optional() })),
          responses: { 202: json(testAnswer, 'queued'), ...errors },
        },
      },
    },
  };
}
