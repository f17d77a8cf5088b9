/** How far a job is: the carriers finished (checked or failed) of its total. Pure. */
import type { BulkJob } from '../../../lib/bulk/contract.ts';

export interface Progress {
  finished: number;
  /** whole percent, 0–100 */
  percent: number;
}

export function progressOf(job: Pick<BulkJob, 'total' | 'done' | 'failed'>): Progress {
  const finished = Math.min(job.total, job.done + job.failed);
  const percent = job.total === 0 ? 100 : Math.floor((finished / job.total) * 100);
  return { finished, percent };
}

/**
 * A job's counts in carriers: an input merged into another item's carrier (a docket whose DOT
 * the job also lists) is done with it, and counted once.
 */
export function carrierCounts(
  job: Pick<BulkJob, 'total' | 'done' | 'failed' | 'merged'>,
): Pick<BulkJob, 'total' | 'done' | 'failed'> {
  const { merged } = job;
  return { total: job.total - merged, done: job.done - merged, failed: job.failed };
}
