/** Small wordings of the bulk pages: durations, rates, verdicts, statuses. Pure. */
import type { ItemStatus, JobStatus } from '../../../lib/bulk/contract.ts';

export type Verdict = 'pass' | 'review' | 'fail';

export const VERDICT_LABELS: Record<Verdict, string> = {
  pass: 'Pass',
  review: 'Review',
  fail: 'Fail',
};

/** A results row's status: its item's, or left out of the job before it ran. */
export type RowStatus = ItemStatus | 'left_out';

export const ROW_STATUS_LABELS: Record<RowStatus, string> = {
  pending: 'Waiting',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  left_out: 'Left out',
};

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  paused: 'Paused',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

/** A job still moving: its page polls it. */
export function isActive(status: JobStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** "under a minute", "12 min", "1 h 5 min", "2 days 3 h" */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} days ${hours % 24} h` : `${days} days`;
}

/** "12.5 a minute", "—" before the first */
export function formatRate(perMinute: number | null | undefined): string {
  if (perMinute === null || perMinute === undefined) return '—';
  const shown = perMinute >= 10 ? Math.round(perMinute) : Math.round(perMinute * 10) / 10;
  return `${shown.toLocaleString('en-US')} a minute`;
}
