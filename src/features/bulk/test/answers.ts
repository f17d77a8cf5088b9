/**
 * The proxy's bulk-job answers for tests that stub `fetch`, built with the routes' contract
 * (src/lib/bulk/contract.ts): each factory fills in what a test does not care about and parses
 * the result, so a stub that drifts from what the proxy sends fails where it is built.
 */
import {
  bulkEstimateSchema,
  bulkJobSchema,
  bulkJobSummarySchema,
  type BulkEstimate,
  type BulkJob,
  type BulkJobSummary,
} from '../../../lib/bulk/contract.ts';

/** A run's estimate: nothing left out, nothing billed (sandbox). */
export function estimateAnswer(over: Partial<BulkEstimate> = {}): BulkEstimate {
  return bulkEstimateSchema.parse({
    carriers: 1,
    rejected: [],
    numbering: 'line',
    already_fetched: 0,
    billable: 1,
    unit_price_usd: 0.25,
    cost_usd: 0,
    metered_cost_usd: 0.25,
    billed: false,
    rate_per_minute: null,
    duration_seconds: 12,
    budget_usd: null,
    spent_usd: 0,
    left_usd: null,
    within_budget: true,
    ...over,
  });
}

/** `GET /api/local/bulk-jobs/:id`: a queued job of no items unless `over` says otherwise. */
export function jobAnswer(over: Partial<BulkJob> = {}): BulkJob {
  return bulkJobSchema.parse({
    id: 'job-1',
    status: 'queued',
    created_at: '2026-11-26T01:00:00Z',
    updated_at: '2026-11-26T01:00:00Z',
    created_by: 'local',
    total: 0,
    done: 0,
    failed: 0,
    merged: 0,
    rate_per_minute: null,
    eta_seconds: null,
    estimate: estimateAnswer(),
    pause_reason: null,
    items: [],
    offset: 0,
    limit: 5000,
    ...over,
  });
}

/** A job without its items: in `GET /api/local/bulk-jobs`, and the answer of an action. */
export function summaryAnswer(job: BulkJob): BulkJobSummary {
  // the schema drops what it does not hold: the items and their page
  return bulkJobSummarySchema.parse(job);
}
