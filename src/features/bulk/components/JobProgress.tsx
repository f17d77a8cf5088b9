import { useCanActOn } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { useEffect, useRef, useState } from 'react';
import { BUTTON, MUTED } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import type { BulkJob } from '../../../lib/bulk/contract.ts';
import { formatCount } from '../../../lib/format.ts';
import { useJobAction, type JobAction } from '../api/bulk-api.ts';
import { JOB_STATUS_LABELS, formatDuration, formatRate, isActive } from '../model/format.ts';
import { carrierCounts, progressOf } from '../model/progress.ts';

/** Progress announced to screen readers at most every this many percent (and on each status). */
const ANNOUNCE_STEP = 10;

function describe(job: BulkJob, finished: number): string {
  const failed = job.failed ? `, ${formatCount(job.failed)} failed` : '';
  return `${JOB_STATUS_LABELS[job.status]}: ${formatCount(finished)} of ${formatCount(carrierCounts(job).total)} carriers checked${failed}.`;
}

/** What a screen reader hears: each status change, and progress in coarse steps, not every poll. */
function useAnnouncement(job: BulkJob, finished: number, percent: number): string {
  const key = `${job.status}:${Math.floor(percent / ANNOUNCE_STEP)}`;
  const [said, setSaid] = useState(() => ({ key, text: describe(job, finished) }));
  if (said.key !== key) setSaid({ key, text: describe(job, finished) });
  return said.text;
}

export function JobProgress({ job }: { job: BulkJob }) {
  const counts = carrierCounts(job);
  const progress = progressOf(counts);
  const announcement = useAnnouncement(job, progress.finished, progress.percent);
  return (
    <section aria-labelledby="bulk-progress-title" className="flex flex-col gap-2">
      <h2 id="bulk-progress-title" className="text-lg font-semibold">
        Progress
      </h2>
      <div
        role="progressbar"
        aria-label="Carriers checked"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={progress.finished}
        aria-valuetext={`${formatCount(progress.finished)} of ${formatCount(counts.total)}`}
        className="h-3 w-full overflow-hidden rounded-full bg-neutral-200 dark:bg-neutral-800"
      >
        <div
          className="h-full bg-emerald-700 transition-[width] dark:bg-emerald-400"
          style={{ width: `${progress.percent}%` }}
        />
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div>
          <dt className="inline font-medium">Status: </dt>
          <dd className="inline" data-testid="job-status">
            {JOB_STATUS_LABELS[job.status]}
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">Checked: </dt>
          <dd className="inline tabular-nums">
            {formatCount(progress.finished)} of {formatCount(counts.total)} ({progress.percent}%)
          </dd>
        </div>
        <div>
          <dt className="inline font-medium">Failed: </dt>
          <dd className="inline tabular-nums">{formatCount(job.failed)}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Rate: </dt>
          {/* how fast depends on the machine: e2e/visual.spec.ts shows a fixed text here */}
          <dd className="inline" data-visual="dynamic">
            {formatRate(job.rate_per_minute)}
          </dd>
        </div>
        {isActive(job.status) ? (
          <div>
            <dt className="inline font-medium">Time left: </dt>
            <dd className="inline">{formatDuration(job.eta_seconds)}</dd>
          </div>
        ) : null}
      </dl>
      {job.pause_reason ? (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          {job.status === 'failed' ? 'Stopped' : 'Paused'}: {job.pause_reason.message}
        </p>
      ) : null}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <JobControls job={job} />
    </section>
  );
}

const ACTION_LABELS: Record<JobAction, string> = {
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel job',
  'retry-failed': 'Retry failed',
};

function actionsFor(job: BulkJob): JobAction[] {
  const actions: JobAction[] = [];
  if (isActive(job.status)) actions.push('pause');
  if (job.status === 'paused') actions.push('resume');
  if (isActive(job.status) || job.status === 'paused') actions.push('cancel');
  if (job.failed > 0 && job.status !== 'cancelled') actions.push('retry-failed');
  return actions;
}

function JobControls({ job }: { job: BulkJob }) {
  const act = useJobAction(job.id);
  const can = useCanActOn(job.created_by, 'run bulk jobs');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirmCancel) cancelButton.current?.focus();
  }, [confirmCancel]);
  const actions = actionsFor(job);
  if (actions.length === 0 && !act.isError) return null;
  const run = (action: JobAction) => {
    setConfirmCancel(false);
    act.mutate(action);
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            className={BUTTON}
            disabled={act.isPending || !can.allowed}
            aria-describedby={can.allowed ? undefined : 'bulk-job-role'}
            onClick={() => (action === 'cancel' ? setConfirmCancel(true) : run(action))}
          >
            {action === 'retry-failed'
              ? `Retry ${formatCount(job.failed)} failed`
              : ACTION_LABELS[action]}
          </button>
        ))}
        <RoleNote id="bulk-job-role" permission={can} />
      </div>
      {confirmCancel ? (
        <div
          role="alertdialog"
          aria-labelledby="bulk-cancel-title"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-neutral-900 dark:border-amber-700 dark:bg-amber-950 dark:text-neutral-100"
        >
          <p id="bulk-cancel-title">
            Cancel the job? Carriers already checked keep their results; the rest are not looked up.
          </p>
          <div className="mt-2 flex gap-2">
            <button
              ref={cancelButton}
              type="button"
              className={BUTTON}
              onClick={() => run('cancel')}
            >
              Yes, cancel the job
            </button>
            <button type="button" className={BUTTON} onClick={() => setConfirmCancel(false)}>
              Keep it running
            </button>
          </div>
        </div>
      ) : null}
      {act.isError ? <ErrorState error={act.error} /> : null}
      {act.isPending ? (
        <p role="status" className={MUTED}>
          Sending…
        </p>
      ) : null}
    </div>
  );
}
