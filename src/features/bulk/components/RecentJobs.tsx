import { Link } from 'react-router';
import { MUTED } from '../../../components/controls.ts';
import { QueryState } from '../../../components/QueryState.tsx';
import { ScrollArea } from '../../../components/ScrollHint.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { useBulkJobs, type BulkJobSummary } from '../api/bulk-api.ts';
import { JOB_STATUS_LABELS } from '../model/format.ts';
import { carrierCounts } from '../model/progress.ts';

/** Jobs kept by the proxy, newest first, each linking to its page. */
export function RecentJobs() {
  const jobs = useBulkJobs();
  return (
    <section aria-labelledby="bulk-jobs-title" className="flex flex-col gap-2">
      <h2 id="bulk-jobs-title" className="text-lg font-semibold">
        Recent jobs
      </h2>
      <QueryState query={jobs} what="the jobs">
        {(list) =>
          list.length === 0 ? (
            <p className={MUTED}>No job has run yet.</p>
          ) : (
            <JobTable jobs={list} />
          )
        }
      </QueryState>
    </section>
  );
}

function JobTable({ jobs }: { jobs: BulkJobSummary[] }) {
  return (
    <ScrollArea className="overflow-x-auto">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Bulk vetting jobs, newest first</caption>
        <thead className="text-xs text-neutral-600 uppercase dark:text-neutral-400">
          <tr>
            <th scope="col" className="px-2 py-2">
              Job
            </th>
            <th scope="col" className="px-2 py-2">
              Started
            </th>
            <th scope="col" className="px-2 py-2">
              By
            </th>
            <th scope="col" className="px-2 py-2">
              Status
            </th>
            <th scope="col" className="px-2 py-2 text-right">
              Done
            </th>
            <th scope="col" className="px-2 py-2 text-right">
              Failed
            </th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((listed) => {
            const job = { ...listed, ...carrierCounts(listed) };
            return (
              <tr key={job.id} className="border-t border-neutral-200 dark:border-neutral-800">
                <th scope="row" className="px-2 py-2 font-normal">
                  <Link
                    to={`/bulk/${encodeURIComponent(job.id)}`}
                    className="text-sky-800 underline dark:text-sky-300"
                  >
                    {formatCount(job.total)} carriers
                    <span className="sr-only"> (job {job.id})</span>
                  </Link>
                </th>
                <td className="px-2 py-2 whitespace-nowrap">{formatDateTime(job.created_at)}</td>
                <td className="px-2 py-2">{job.created_by}</td>
                <td className="px-2 py-2">{JOB_STATUS_LABELS[job.status]}</td>
                <td className="px-2 py-2 text-right tabular-nums">
                  {formatCount(job.done)} of {formatCount(job.total)}
                </td>
                <td className="px-2 py-2 text-right tabular-nums">{formatCount(job.failed)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}
