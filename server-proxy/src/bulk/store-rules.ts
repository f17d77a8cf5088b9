/**
 * The bulk store's model and decisions, with no database: which user action each job state allows
 * (and why not), what an allowed action does to the job and its items, where each item's line or
 * row is kept, and how items merged into another item's carrier are shown among its inputs.
 */
import type {
  BulkEstimate,
  BulkItem,
  ItemResult,
  ItemStatus,
  JobAction,
  JobStatus,
} from '../../../src/lib/bulk/contract.ts';

/** the routes' contract's (src/lib/bulk/contract.ts) */
export type { JobAction };

/** Why an action cannot apply to a job in its current state (→ 409 with this hint). */
export interface Refusal {
  code: string;
  message: string;
  hint: string;
}

export interface JobRow {
  seq: number;
  id: string;
  status: JobStatus;
  created_at: string;
  updated_at: string;
  created_by: string;
  total: number;
  estimate: BulkEstimate;
  done: number;
  failed: number;
  /** items folded into another item's carrier (a docket whose DOT the job also lists) */
  merged: number;
  pause_reason: { code: string; message: string } | null;
}

/** The next item the runner works on. */
export interface PendingItem {
  position: number;
  kind: 'dot' | 'docket';
  /** the DOT number or the docket, as the service's profile search takes it */
  lookup: string;
  attempts: number;
}

export type ItemOutcome =
  | {
      status: 'done';
      dot: string | null;
      result: ItemResult;
      source: 'cache' | 'stored' | 'upstream';
    }
  | { status: 'failed'; dot: string | null; code: string; message: string };

/** A result stored by an earlier item: reused instead of a new call while fresh. */
export interface StoredResult {
  dot: string;
  result: ItemResult;
  finished_at: string;
}

/**
 * The line or row of each item (by position) is kept in the job's estimate JSON as `item_rows`
 * (no schema change on either engine); the estimate the contract shows goes without it.
 */
export interface StoredEstimate extends BulkEstimate {
  item_rows?: number[];
}

/** The estimate as stored with a new job: with each item's line or row (default: its place). */
export function storedEstimate(
  estimate: BulkEstimate,
  identifiers: readonly { position?: number }[],
): StoredEstimate {
  return {
    ...estimate,
    item_rows: identifiers.map((identifier, index) => identifier.position ?? index + 1),
  };
}

/** The line or row of the item at `position` (its position when none was kept). */
export function rowOf(itemRows: readonly number[], position: number): number {
  return itemRows[position - 1] ?? position;
}

/*
 * The job state machine (user actions; the runner's own moves are guarded in their statements):
 *   queued → running → done | failed;  queued | running ⇄ paused;  failed → queued (resume);
 *   queued | running | paused → cancelled
 */
const CAN: Record<JobAction, readonly JobStatus[]> = {
  pause: ['queued', 'running'],
  // a job the runner failed (its own errors) may be tried again
  resume: ['paused', 'failed'],
  cancel: ['queued', 'running', 'paused'],
  'retry-failed': ['queued', 'running', 'paused', 'done', 'failed'],
};

const HINTS: Record<JobAction, string> = {
  pause: 'Only a queued or running job can be paused.',
  resume: 'Only a paused (or failed) job can be resumed.',
  cancel: 'A finished or cancelled job cannot be cancelled; start a new job instead.',
  'retry-failed':
    'Failed items of a cancelled job are not retried; start a new job with those identifiers.',
};

/** Why `action` cannot apply to job `id` as it stands, or undefined when it can. */
export function refusalOf(
  id: string,
  job: Pick<JobRow, 'status' | 'failed'>,
  action: JobAction,
): Refusal | undefined {
  if (!CAN[action].includes(job.status)) {
    return {
      code: 'invalid_transition',
      message: `Job ${id} is ${job.status}: it cannot ${action === 'retry-failed' ? 'retry its failed items' : action}`,
      hint: HINTS[action],
    };
  }
  if (action === 'retry-failed' && job.failed === 0) {
    return {
      code: 'nothing_to_retry',
      message: `Job ${id} has no failed item`,
      hint: 'Only failed items are retried; done items keep their result.',
    };
  }
  return undefined;
}

/** What an allowed action writes. */
export interface ActionEffect {
  /** pending items cancelled, or failed items made pending again (their error cleared) */
  items: 'cancel-pending' | 'retry-failed' | null;
  /** the job's new status (its pause reason cleared); null: it keeps its status */
  status: JobStatus | null;
}

/** What an allowed action does to a job in `status`. */
export function effectOf(action: JobAction, status: JobStatus): ActionEffect {
  switch (action) {
    case 'pause':
      return { items: null, status: 'paused' };
    case 'resume':
      return { items: null, status: 'queued' };
    case 'cancel':
      return { items: 'cancel-pending', status: 'cancelled' };
    case 'retry-failed':
      // A finished job runs again for its failed items; a paused one stays paused.
      return {
        items: 'retry-failed',
        status: status === 'done' || status === 'failed' ? 'queued' : null,
      };
  }
}

/**
 * What a done item whose carrier is `dot` does in its job: nothing when it is no longer pending;
 * merged into the item that already has the carrier done; else written as its own, and when it
 * is a docket, the pending DOT items naming the same carrier are merged into it (a DOT item's DOT
 * is no other pending DOT item's: equal keys are one item).
 */
export type DoneMerge = 'not-pending' | 'into-holder' | 'own' | 'own-and-absorb';

export function doneMergeOf(
  own: { status: ItemStatus; kind: 'dot' | 'docket' } | undefined,
  holderFound: boolean,
): DoneMerge {
  if (own?.status !== 'pending') return 'not-pending';
  if (holderFound) return 'into-holder';
  return own.kind === 'dot' ? 'own' : 'own-and-absorb';
}

/** An item merged into another item's carrier, as its job lists it. */
export interface MergedInput {
  position: number;
  identifier: string;
  dot_number: string;
}

/**
 * Items with the inputs merged into their carrier: each item standing for a DOT that merged
 * items name gets `inputs`, its own input and theirs, in line order.
 */
export function withMergedInputs(
  items: readonly BulkItem[],
  merged: readonly MergedInput[],
  itemRows: readonly number[],
): BulkItem[] {
  if (merged.length === 0) return [...items];
  const byDot = new Map<string, { identifier: string; row: number }[]>();
  for (const input of merged) {
    const list = byDot.get(input.dot_number) ?? [];
    list.push({ identifier: input.identifier, row: rowOf(itemRows, input.position) });
    byDot.set(input.dot_number, list);
  }
  return items.map((item) => {
    const others = item.dot_number === undefined ? undefined : byDot.get(item.dot_number);
    if (!others) return item;
    const own = { identifier: item.identifier, row: item.row ?? item.position };
    return { ...item, inputs: [own, ...others].sort((a, b) => a.row - b.row) };
  });
}
