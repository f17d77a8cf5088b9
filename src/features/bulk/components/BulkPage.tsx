/**
 * Bulk vetting: a list of USDOT numbers and dockets (pasted or uploaded) is checked here, its cost
 * and duration estimated by the proxy (a dry run), and only then run as a job the proxy keeps
 * (`/bulk/:id`). The jobs run before are listed under the form.
 */
import { useCan } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { useDeferredValue, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { BUTTON, MUTED } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { MAX_JOB_IDENTIFIERS } from '../../../lib/bulk/contract.ts';
import { formatCount } from '../../../lib/format.ts';
import {
  boxEntries,
  checkList,
  positionLabel,
  type CheckedList,
  type ListEntry,
  type Numbering,
} from '../../../lib/bulk/list.ts';
import { listBody, useCreateJob, useEstimate } from '../api/bulk-api.ts';
import { EstimatePanel } from './EstimatePanel.tsx';
import { ListInput } from './ListInput.tsx';
import { RecentJobs } from './RecentJobs.tsx';

/** Rejected entries listed by name; the rest are counted (a spreadsheet can hold thousands). */
const REJECTED_SHOWN = 100;

interface Checked extends CheckedList {
  entries: ListEntry[];
  numbering: Numbering;
}

export function BulkPage() {
  // the box's text, and the file's row of each line when it was filled from an upload
  const [list, setList] = useState<{ text: string; rows?: number[] }>({ text: '' });
  const { text } = list;
  // a new list starts the estimate again
  const [round, setRound] = useState(0);
  const deferred = useDeferredValue(list);
  const checked = useMemo<Checked>(() => {
    const { entries, numbering } = boxEntries(deferred.text, deferred.rows);
    return { ...checkList(entries, numbering), entries, numbering };
  }, [deferred]);
  const edit = (value: string, rows?: number[]) => {
    setList(rows === undefined ? { text: value } : { text: value, rows });
    setRound((n) => n + 1);
  };
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Bulk vetting"
        description="Vet a list of carriers at once: see what it costs before it runs, then follow it as it runs in the background and filter, export or watch the results."
      />
      <section aria-labelledby="bulk-list-title" className="flex flex-col gap-4">
        <h2 id="bulk-list-title" className="text-lg font-semibold">
          The list
        </h2>
        <ListInput text={text} onText={edit} />
        <CheckedSummary checked={checked} />
        <CostStep key={round} checked={checked} stale={deferred !== list} />
      </section>
      <RecentJobs />
    </div>
  );
}

function CheckedSummary({ checked }: { checked: Checked }) {
  const { valid, rejected, numbering } = checked;
  if (valid.length === 0 && rejected.length === 0) {
    return <p className={MUTED}>Nothing entered yet.</p>;
  }
  const shown = rejected.slice(0, REJECTED_SHOWN);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm" role="status">
        {formatCount(valid.length)} {valid.length === 1 ? 'carrier' : 'carriers'} to vet
        {rejected.length
          ? `; ${formatCount(rejected.length)} ${rejected.length === 1 ? 'entry' : 'entries'} left out`
          : ''}
        .
      </p>
      {valid.length > MAX_JOB_IDENTIFIERS ? (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          A job takes at most {formatCount(MAX_JOB_IDENTIFIERS)} carriers: split the list.
        </p>
      ) : null}
      {rejected.length ? (
        <div>
          <h3 id="bulk-rejected-title" className="text-sm font-semibold">
            Left out
          </h3>
          <ul aria-labelledby="bulk-rejected-title" className="mt-1 flex flex-col gap-1 text-sm">
            {shown.map((entry) => (
              <li key={`${entry.position}-${entry.input}`}>
                <span className="font-mono">{entry.input}</span>{' '}
                <span className={MUTED}>
                  ({positionLabel(numbering, entry.position)}, {entry.reason.replace('_', ' ')}):{' '}
                  {entry.message}
                </span>
              </li>
            ))}
          </ul>
          {rejected.length > shown.length ? (
            <p className={MUTED}>and {formatCount(rejected.length - shown.length)} more.</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** Check cost (a dry run, nothing looked up) → the estimate → Run: the job's page. */
function CostStep({ checked, stale }: { checked: Checked; stale: boolean }) {
  const navigate = useNavigate();
  const estimate = useEstimate();
  const create = useCreateJob();
  const can = useCan('run bulk jobs');
  // every entry as given, with its line or row: the proxy reads them with the same rules and
  // keeps the ones left out with the job
  const body = listBody(checked.entries, checked.numbering);
  const run = () =>
    create.mutate(body, {
      onSuccess: (id) => void navigate(`/bulk/${encodeURIComponent(id)}`),
    });
  return (
    <div className="flex flex-col gap-3">
      <div>
        <button
          type="button"
          className={BUTTON}
          disabled={stale || checked.valid.length === 0 || estimate.isPending || !can.allowed}
          aria-describedby={can.allowed ? undefined : 'bulk-role'}
          onClick={() => estimate.mutate(body)}
        >
          {estimate.isPending ? 'Checking the cost…' : 'Check cost'}
        </button>
        {can.allowed ? (
          <span className={`ml-2 ${MUTED}`}>Free: nothing is looked up until you run it.</span>
        ) : (
          <span className="ml-2">
            <RoleNote id="bulk-role" permission={can} />
          </span>
        )}
      </div>
      {estimate.isError ? <ErrorState error={estimate.error} /> : null}
      {estimate.data ? (
        <EstimatePanel estimate={estimate.data} running={create.isPending} onRun={run} />
      ) : null}
      {create.isError ? <ErrorState error={create.error} /> : null}
    </div>
  );
}
