/**
 * One bulk-vetting job (`/bulk/:id`): the proxy keeps it, so the page survives a reload and a
 * closed tab. Polled while it runs; progress, controls, failures with their reasons, results.
 */
import { Link, useParams } from 'react-router';
import { MUTED } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import type { BulkEstimate, BulkItem } from '../../../lib/bulk/contract.ts';
import { positionLabel, type Numbering } from '../../../lib/bulk/list.ts';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { useBulkJob } from '../api/bulk-api.ts';
import { firstSentence } from '../model/results.ts';
import { carrierCounts } from '../model/progress.ts';
import { JobProgress } from './JobProgress.tsx';
import { JobResults } from './JobResults.tsx';

const FAILURES_SHOWN = 50;

export function BulkJobPage() {
  const { id = '' } = useParams();
  const job = useBulkJob(id);
  if (job.data === undefined && !job.isError) {
    return (
      <div>
        <PageHeader title="Bulk vetting job" description="Loading the job…" />
        <p role="status" className={MUTED}>
          Loading the job…
        </p>
      </div>
    );
  }
  if (job.data === undefined) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader title="Bulk vetting job" description={`Job ${id}`} />
        <ErrorState error={job.error} what="the job" onRetry={() => void job.refetch()} />
        <p>
          <Link to="/bulk" className="text-sky-800 underline dark:text-sky-300">
            Back to bulk vetting
          </Link>
        </p>
      </div>
    );
  }
  const data = job.data;
  const numbering = data.estimate.numbering ?? 'line';
  const carriers = carrierCounts(data).total;
  const leftOut = data.estimate.rejected.length;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Bulk vetting job"
        description={`${formatCount(carriers)} ${carriers === 1 ? 'carrier' : 'carriers'}${leftOut ? ` (${formatCount(leftOut)} ${leftOut === 1 ? 'entry' : 'entries'} left out)` : ''}, started ${formatDateTime(data.created_at)} by ${data.created_by}.`}
      />
      <p className="-mt-6 text-sm">
        <Link to="/bulk" className="text-sky-800 underline dark:text-sky-300">
          All jobs and a new list
        </Link>
      </p>
      {job.isError ? <ErrorState error={job.error} what="the latest progress" /> : null}
      <JobProgress job={data} />
      <Failures items={data.items} numbering={numbering} />
      <LeftOut rejected={data.estimate.rejected} numbering={numbering} />
      <JobResults jobId={data.id} items={data.items} estimate={data.estimate} />
    </div>
  );
}

function Failures({ items, numbering }: { items: readonly BulkItem[]; numbering: Numbering }) {
  const failed = items.filter((item) => item.status === 'failed');
  if (failed.length === 0) return null;
  const shown = failed.slice(0, FAILURES_SHOWN);
  return (
    <section aria-labelledby="bulk-failures-title" className="flex flex-col gap-1">
      <h2 id="bulk-failures-title" className="text-lg font-semibold">
        Failures
      </h2>
      <ul className="flex flex-col gap-1 text-sm">
        {shown.map((item) => (
          <li key={item.position}>
            <span className="font-mono">{item.identifier}</span>{' '}
            <span className={MUTED}>({positionLabel(numbering, item.row ?? item.position)})</span>:{' '}
            {item.error?.message ?? 'failed without a reason'}
            {item.attempts > 1 ? (
              <span className={MUTED}> ({formatCount(item.attempts)} attempts)</span>
            ) : null}
          </li>
        ))}
      </ul>
      {failed.length > shown.length ? (
        <p className={MUTED}>
          and {formatCount(failed.length - shown.length)} more (filter the results by status
          Failed).
        </p>
      ) : null}
    </section>
  );
}

/** The entries the job left out before it ran (kept with it), each with its line or row and why. */
function LeftOut({
  rejected,
  numbering,
}: {
  rejected: BulkEstimate['rejected'];
  numbering: Numbering;
}) {
  if (rejected.length === 0) return null;
  const shown = rejected.slice(0, FAILURES_SHOWN);
  return (
    <section aria-labelledby="bulk-left-out-title" className="flex flex-col gap-1">
      <h2 id="bulk-left-out-title" className="text-lg font-semibold">
        Left out ({formatCount(rejected.length)})
      </h2>
      <ul aria-labelledby="bulk-left-out-title" className="flex flex-col gap-1 text-sm">
        {shown.map((entry) => (
          <li key={`${entry.position}-${entry.input}`} className="break-words">
            <span className="font-mono">{entry.input}</span>{' '}
            <span className={MUTED}>
              ({positionLabel(numbering, entry.position)}, {entry.reason.replace('_', ' ')}):
            </span>{' '}
            {firstSentence(entry.message)}
          </li>
        ))}
      </ul>
      {rejected.length > shown.length ? (
        <p className={MUTED}>
          and {formatCount(rejected.length - shown.length)} more (filter the results by status Left
          out).
        </p>
      ) : null}
    </section>
  );
}
