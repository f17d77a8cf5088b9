import { useEffect, useId, useRef, useState } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { BUTTON, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { UnwatchConfirm } from '../../../entities/watchlist/components/UnwatchConfirm.tsx';
import { WatchCost } from '../../../entities/watchlist/components/WatchCost.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useUnwatch, useWatch, useWatchState } from '../../../entities/watchlist/api.ts';
import { useWatchEstimate } from '../../../entities/watchlist/cost.ts';
import { useCan } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';

type Step = 'idle' | 'watch' | 'unwatch';

function WatchConfirm(props: {
  profileId: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const estimate = useWatchEstimate([props.profileId], true);
  return (
    <section
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-cost`}
      className="rounded-lg border border-sky-300 bg-sky-50 p-4 text-neutral-900 dark:border-sky-700 dark:bg-sky-950 dark:text-neutral-100"
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="font-semibold">
        Watch {props.profileId}?
      </h2>
      <div id={`${id}-cost`} className="mt-1">
        {estimate.isPending ? <p className="text-sm">Estimating the cost…</p> : null}
        {estimate.isError ? <ErrorState error={estimate.error} /> : null}
        {estimate.data ? <WatchCost estimate={estimate.data} /> : null}
        <p className="text-sm">Its changes will appear in the monitoring inbox.</p>
      </div>
      <div className="mt-3 flex gap-2">
        <button
          type="button"
          className={PRIMARY_BUTTON}
          disabled={props.busy || !estimate.data || !estimate.data.withinBudget}
          onClick={props.onConfirm}
        >
          {props.busy ? 'Watching…' : 'Confirm watch'}
        </button>
        <button type="button" className={BUTTON} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

function StateLine({ watched, since }: { watched: boolean; since: string | undefined }) {
  if (!watched) return <span className={MUTED}>Not watched</span>;
  if (!since) {
    return (
      <span className="text-sm font-medium text-emerald-800 dark:text-emerald-300">Watching</span>
    );
  }
  const when = formatDateTime(since);
  // a phone shows "Watching" only (the date stays for screen readers), so Unwatch, Compare and
  // Tender check fit on the same line and the tab's content keeps its place on the first screen
  const [day, time] = when.split(', ');
  return (
    <span className="text-sm font-medium text-emerald-800 dark:text-emerald-300">
      Watching
      <span className="max-sm:sr-only">
        {' '}
        since {day}
        {time ? <span className="max-sm:hidden">, {time}</span> : null}
      </span>
    </span>
  );
}

/** Watch / unwatch a carrier from its profile: cost shown before watching, no refund on removal. */
export function WatchControl({ profileId }: { profileId: string }) {
  const state = useWatchState(profileId);
  const watch = useWatch();
  const unwatch = useUnwatch();
  const can = useCan('watch carriers');
  const roleNoteId = useId();
  const [step, setStep] = useState<Step>('idle');
  // the list dates monitoring only on change records: remember when this page started it
  const [watchedAt, setWatchedAt] = useState<string | undefined>();

  if (state.isPending) return <p className={MUTED}>Checking the watchlist…</p>;
  if (state.isError) return <ErrorState error={state.error} />;
  const { watched } = state.data;
  const confirmWatch = () =>
    watch.mutate(profileId, {
      onSuccess: () => {
        setWatchedAt(new Date().toISOString());
        setStep('idle');
      },
    });
  const confirmUnwatch = () =>
    unwatch.mutate(profileId, {
      onSuccess: () => {
        setWatchedAt(undefined);
        setStep('idle');
      },
    });
  return (
    <div className="flex flex-col gap-2" aria-label="Watchlist" role="group">
      <div className="flex flex-wrap items-center gap-3 max-sm:gap-2">
        <StateLine watched={watched} since={state.data.since ?? watchedAt} />
        {step === 'idle' ? (
          <button
            type="button"
            className={`${watched ? BUTTON : PRIMARY_BUTTON} max-sm:py-0.5`}
            disabled={!can.allowed}
            aria-describedby={can.allowed ? undefined : roleNoteId}
            onClick={() => setStep(watched ? 'unwatch' : 'watch')}
          >
            {watched ? 'Unwatch' : 'Watch'}
          </button>
        ) : null}
        <RoleNote id={roleNoteId} permission={can} />
      </div>
      {step === 'watch' ? (
        <WatchConfirm
          profileId={profileId}
          busy={watch.isPending}
          onConfirm={confirmWatch}
          onCancel={() => setStep('idle')}
        />
      ) : null}
      {step === 'unwatch' ? (
        <UnwatchConfirm
          profileIds={[profileId]}
          busy={unwatch.isPending}
          onConfirm={confirmUnwatch}
          onCancel={() => setStep('idle')}
        />
      ) : null}
      {watch.isError ? <ErrorState error={watch.error} /> : null}
      {unwatch.isError ? <ErrorState error={unwatch.error} /> : null}
    </div>
  );
}
