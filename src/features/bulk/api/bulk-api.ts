/**
 * The bulk-vetting routes of the proxy (docs/bulk-vetting.md), each answer parsed with the shared
 * contract (src/lib/bulk/contract.ts), and the queries and mutations the pages use.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type Query,
} from '@tanstack/react-query';
import { apiGet, apiPost, parseBody } from '../../../lib/api-client.ts';
import {
  MAX_ITEMS_LIMIT,
  bulkJobListSchema,
  bulkJobSchema,
  bulkJobSummarySchema,
  createdAnswerSchema,
  dryRunAnswerSchema,
  type BulkEstimate,
  type BulkJob,
  type BulkJobSummary,
  type CreateJobInput,
  type JobAction,
} from '../../../lib/bulk/contract.ts';
import type { ListEntry, Numbering } from '../../../lib/bulk/list.ts';
import { FRESHNESS } from '../../../lib/freshness.ts';
import { isActive } from '../model/format.ts';
import { bulkKeys } from './keys.ts';

const BULK_JOBS_PATH = '/api/local/bulk-jobs';

function jobPath(id: string, action?: JobAction): string {
  const path = `${BULK_JOBS_PATH}/${encodeURIComponent(id)}`;
  return action ? `${path}/${action}` : path;
}

/**
 * A list as sent: every entry (the ones left out too, so the job keeps them with their reason),
 * each with its line or row in the user's list.
 */
export interface ListBody extends CreateJobInput {
  identifiers: string[];
  rows: number[];
  numbering: Numbering;
}

export function listBody(entries: readonly ListEntry[], numbering: Numbering): ListBody {
  return {
    identifiers: entries.map((entry) => entry.input),
    rows: entries.map((entry) => entry.position),
    numbering,
  };
}

/** The dry run: what running these identifiers would cost and take. Nothing is looked up. */
async function estimateBulk(list: ListBody): Promise<BulkEstimate> {
  const body = await apiPost(BULK_JOBS_PATH, { ...list, dry_run: true });
  return parseBody(dryRunAnswerSchema, body, 'the estimate').estimate;
}

/** Queues the job; the proxy refuses it (402) when it would cross the monthly budget. */
async function createBulkJob(list: ListBody): Promise<string> {
  const body = await apiPost(BULK_JOBS_PATH, list);
  return parseBody(createdAnswerSchema, body, 'the new job').id;
}

/**
 * A job with all its items: a job holds at most MAX_ITEMS_LIMIT identifiers, so one page does;
 * further pages are read only if the proxy answers with fewer than it holds.
 */
async function getBulkJob(id: string, signal?: AbortSignal): Promise<BulkJob> {
  const first = parseBody(
    bulkJobSchema,
    await apiGet(jobPath(id), { offset: 0, limit: MAX_ITEMS_LIMIT }, { signal }),
    'the job',
  );
  const items = [...first.items];
  // inputs merged into another item's carrier are listed in its `inputs`, not as items
  while (items.length < first.total - first.merged) {
    const page = parseBody(
      bulkJobSchema,
      await apiGet(jobPath(id), { offset: items.length, limit: MAX_ITEMS_LIMIT }, { signal }),
      'the job',
    );
    if (page.items.length === 0) break;
    items.push(...page.items);
  }
  return { ...first, items, offset: 0, limit: items.length };
}

export type { BulkJobSummary, JobAction };

async function listBulkJobs(signal?: AbortSignal): Promise<BulkJobSummary[]> {
  return parseBody(bulkJobListSchema, await apiGet(BULK_JOBS_PATH, {}, { signal }), 'the jobs')
    .jobs;
}

/** The job as the action left it. */
async function actOnJob(id: string, action: JobAction): Promise<BulkJobSummary> {
  return parseBody(bulkJobSummarySchema, await apiPost(jobPath(id, action), {}), 'the job');
}

/** Polled while it runs (and while it waits its turn); left alone once it stopped. */
function pollInterval(query: Query<BulkJob, Error>): number | false {
  const status = query.state.data?.status;
  if (status === undefined) return query.state.status === 'error' ? false : FRESHNESS.bulkJobPoll;
  return isActive(status) ? FRESHNESS.bulkJobPoll : false;
}

function bulkJobQuery(id: string) {
  return queryOptions({
    queryKey: bulkKeys.job(id),
    queryFn: ({ signal }) => getBulkJob(id, signal),
    refetchInterval: pollInterval,
    // a free read of the proxy's own store: always current when the page opens
    staleTime: 0,
    // thousands of items: comparing each answer with the last costs more than it saves
    structuralSharing: false,
  });
}

export function useBulkJob(id: string) {
  return useQuery(bulkJobQuery(id));
}

export function useBulkJobs() {
  return useQuery({
    queryKey: bulkKeys.list(),
    queryFn: ({ signal }) => listBulkJobs(signal),
    staleTime: 0,
  });
}

export function useEstimate() {
  return useMutation({ mutationFn: estimateBulk });
}

export function useCreateJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createBulkJob,
    onSuccess: () => client.invalidateQueries({ queryKey: bulkKeys.list() }),
  });
}

export function useJobAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: JobAction) => actOnJob(id, action),
    onSettled: () => client.invalidateQueries({ queryKey: bulkKeys.all() }),
  });
}
