import { isRateLimited, retryAfterSeconds } from '../../../../../lib/query-policy.ts';
import { useFmcsaProfile } from '../../../api/get-fmcsa-profile.ts';
import { buildFmcsaRows } from './model.ts';
import { FmcsaRecordTable } from './FmcsaRecordTable.tsx';
import type { ProfileTabProps } from '../types.ts';

function errorText(error: unknown): string {
  if (isRateLimited(error)) {
    const seconds = retryAfterSeconds(error);
    return seconds === undefined
      ? 'Rate limited: try again shortly.'
      : `Rate limited: try again in ${seconds} s.`;
  }
  return error instanceof Error ? error.message : 'The FMCSA record could not be loaded.';
}

function Intro() {
  return (
    <p className="mb-4 max-w-prose text-sm text-neutral-600 dark:text-neutral-400">
      FMCSA-sourced fields only (no scores the service derives), 236 keys, “—” where FMCSA has no
      value. Each matched lookup costs 0.10 USD (nothing is billed in sandbox or test mode); a DOT
      without an FMCSA record is not billed.
    </p>
  );
}

/** Tab 9: the consolidated FMCSA record, fetched only while this tab is open. */
export function FmcsaTab({ dot }: ProfileTabProps) {
  const query = useFmcsaProfile(dot);
  return (
    // The profile page already wraps the tab in a section named after it: no second landmark here.
    <div>
      <h3 className="mb-2 text-base font-semibold">Consolidated FMCSA record</h3>
      <Intro />
      {query.isPending && <p role="status">Loading the FMCSA record…</p>}
      {query.isError && (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span>{errorText(query.error)}</span>
          <button
            type="button"
            onClick={() => void query.refetch()}
            className="rounded-md border border-neutral-300 px-2 py-1 dark:border-neutral-700"
          >
            Try again
          </button>
        </div>
      )}
      {query.data?.status === 'not-found' && (
        <p role="status" className="font-medium">
          No FMCSA record for this DOT (not billed).
        </p>
      )}
      {query.data?.status === 'found' && (
        <FmcsaRecordTable rows={buildFmcsaRows(query.data.record)} />
      )}
    </div>
  );
}
