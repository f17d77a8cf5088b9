import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { formatCount, formatUsd } from '../../../lib/format.ts';
import { useBulkWatch, type BulkProgress, type BulkWatchResult } from '../api.ts';
import {
  estimateWatch,
  planResolution,
  resolveEntries,
  type Resolution,
  type ResolvePlan,
  type WatchEstimate,
} from '../cost.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { BUTTON, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { WatchCost } from './WatchCost.tsx';

interface Checked {
  resolution: Resolution;
  estimate: WatchEstimate | undefined;
}

async function resolveAndEstimate(entries: readonly string[]): Promise<Checked> {
  const resolution = await resolveEntries(entries);
  const ids = resolution.profile_ids;
  return { resolution, estimate: ids.length ? await estimateWatch(ids) : undefined };
}

interface ResolveAndWatchProps {
  /** DOT numbers, dockets or profile ids */
  entries: readonly string[];
  /** what the entries are, for the first button: "Check 520 network carriers" */
  noun: string;
  /** called from the final report's "Start again" */
  onDone?: (() => void) | undefined;
  /** why the user's role cannot watch (the caller's `useCan('watch carriers').reason`): disabled */
  refusal?: string | undefined;
}

/**
 * Bulk watch, costs first: a free dry run says what looking the entries up costs at most; the
 * look-up gives profile ids and the proxy's estimate; a confirmation sends them with `bulkWatch`
 * (chunks, 207 re-sends, verification) with progress; the report says added, already watched and
 * failed with reasons (entries that could not be resolved included).
 */
export function ResolveAndWatch({ entries, noun, onDone, refusal }: ResolveAndWatchProps) {
  const plan = useMutation({ mutationFn: () => planResolution(entries) });
  const check = useMutation({ mutationFn: () => resolveAndEstimate(entries) });
  const roleNoteId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div>
        <button
          type="button"
          className={BUTTON}
          disabled={entries.length === 0 || plan.isPending || plan.isSuccess || !!refusal}
          aria-describedby={refusal ? roleNoteId : undefined}
          onClick={() => plan.mutate()}
        >
          Check {formatCount(entries.length)} {noun}
        </button>
        {refusal ? (
          <span id={roleNoteId} className="ml-2 text-sm text-neutral-700 dark:text-neutral-300">
            {refusal}
          </span>
        ) : null}
      </div>
      {plan.isError ? <ErrorState error={plan.error} /> : null}
      {plan.data ? (
        <PlanStep
          plan={plan.data}
          busy={check.isPending}
          done={check.isSuccess}
          onResolve={() => check.mutate()}
        />
      ) : null}
      {check.isError ? <ErrorState error={check.error} /> : null}
      {check.data ? <ConfirmAndSend checked={check.data} onDone={onDone} /> : null}
    </div>
  );
}

function PlanStep(props: {
  plan: ResolvePlan;
  busy: boolean;
  done: boolean;
  onResolve: () => void;
}) {
  const { plan } = props;
  const lookups = plan.dots + plan.dockets;
  return (
    <div className="flex flex-col gap-2" role="status">
      <p className="text-sm">
        {formatCount(plan.profileIds)} profile ids, {formatCount(plan.dots)} DOT numbers and{' '}
        {formatCount(plan.dockets)} dockets
        {plan.invalid ? `, ${formatCount(plan.invalid)} not understood` : ''}.{' '}
        {lookups
          ? `Looking up the DOTs and dockets costs at most ${formatUsd(plan.maxCostUsd)} (cached look-ups are free).`
          : 'Nothing needs a paid look-up.'}
      </p>
      <div>
        <button
          type="button"
          className={BUTTON}
          disabled={props.busy || props.done}
          onClick={props.onResolve}
        >
          {props.busy
            ? 'Resolving…'
            : lookups
              ? `Resolve (at most ${formatUsd(plan.maxCostUsd)}) and estimate`
              : 'Resolve and estimate'}
        </button>
      </div>
    </div>
  );
}

const PHASE_LABEL: Record<BulkProgress['phase'], string> = {
  checking: 'Reading the watchlist',
  sending: 'Sending',
  verifying: 'Verifying against the watchlist',
};

function ConfirmAndSend({
  checked,
  onDone,
}: {
  checked: Checked;
  onDone?: (() => void) | undefined;
}) {
  const [progress, setProgress] = useState<BulkProgress | undefined>();
  const send = useBulkWatch();
  const { resolution, estimate } = checked;
  const ids = resolution.profile_ids;
  return (
    <section aria-label="Confirm watching" className="flex flex-col gap-2">
      <p className="text-sm">
        Resolved {formatCount(ids.length)} {ids.length === 1 ? 'carrier' : 'carriers'} (look-ups
        cost {formatUsd(resolution.costUsd)}).
        {resolution.unresolved.length
          ? ` ${formatCount(resolution.unresolved.length)} entries could not be resolved.`
          : ''}
      </p>
      {estimate ? <WatchCost estimate={estimate} /> : null}
      {ids.length > 0 && !send.data ? (
        <div>
          <button
            type="button"
            className={PRIMARY_BUTTON}
            disabled={send.isPending || estimate?.withinBudget === false}
            onClick={() => send.mutate({ ids, onProgress: setProgress })}
          >
            Confirm and watch {formatCount(ids.length)} {ids.length === 1 ? 'carrier' : 'carriers'}
          </button>
        </div>
      ) : null}
      {progress && send.isPending ? (
        <label className={LABEL}>
          {PHASE_LABEL[progress.phase]}: {formatCount(progress.done)} of{' '}
          {formatCount(progress.total)}
          <progress value={progress.done} max={progress.total} className="w-full" />
        </label>
      ) : null}
      {send.isError ? <ErrorState error={send.error} /> : null}
      {send.data ? (
        <WatchReport result={send.data} resolution={resolution} onDone={onDone} />
      ) : resolution.unresolved.length ? (
        <Failures items={unresolvedFailures(resolution)} />
      ) : null}
    </section>
  );
}

function unresolvedFailures(resolution: Resolution) {
  return resolution.unresolved.map((item) => ({ id: item.input, reason: item.message }));
}

function Failures({ items }: { items: readonly { id: string; reason: string }[] }) {
  return (
    <ul aria-label="Not watched" className="list-inside list-disc text-sm">
      {items.map((item) => (
        <li key={item.id}>
          {item.id}: {item.reason}
        </li>
      ))}
    </ul>
  );
}

function WatchReport(props: {
  result: BulkWatchResult;
  resolution: Resolution;
  onDone?: (() => void) | undefined;
}) {
  const { result } = props;
  const failures = [...unresolvedFailures(props.resolution), ...result.failed];
  return (
    <section
      aria-label="Watch result"
      className="rounded-md bg-neutral-50 p-3 text-sm dark:bg-neutral-900"
    >
      <p className="font-medium">
        Added {formatCount(result.added.length)}{' '}
        {result.added.length === 1 ? 'carrier' : 'carriers'}; already watched{' '}
        {formatCount(result.alreadyWatched.length)}; failed {formatCount(failures.length)}.
      </p>
      <p className={MUTED}>Every id was checked against the watchlist after sending.</p>
      {failures.length ? <Failures items={failures} /> : null}
      {props.onDone ? (
        <button type="button" className={`${BUTTON} mt-2`} onClick={props.onDone}>
          Start again
        </button>
      ) : null}
    </section>
  );
}
