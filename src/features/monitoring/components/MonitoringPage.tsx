import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Pager } from '../../../components/data-table/Pager.tsx';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import type { Channel } from '../../../lib/service/index.ts';
import { CHANNELS } from '../../../lib/service/index.ts';
import { useKnownNames } from '../api/known-names.ts';
import { useSetTriage } from '../api/triage.ts';
import { UnwatchConfirm } from '../../../components/watch/UnwatchConfirm.tsx';
import { useUnwatch } from '../../../lib/watchlist.ts';
import { csvFileName, toCsv } from '../model/csv.ts';
import type { InboxChange, TriageState } from '../model/inbox.ts';
import { BulkWatchPanel } from './BulkWatchPanel.tsx';
import { ChannelRail } from './ChannelRail.tsx';
import { InboxFilters } from './InboxFilters.tsx';
import { InboxTable } from './InboxTable.tsx';
import { useInbox, useInboxParams } from './use-inbox.ts';
import { BUTTON, MUTED } from './ui.ts';
import { downloadCsv } from '../../../lib/download.ts';

/** The monitoring inbox: watched carriers, their changes per channel, and their triage. */
export function MonitoringPage() {
  const { params, update } = useInboxParams();
  const { list, triageQuery, triage, rows, counts, lastVisit } = useInbox(params);
  const names = useKnownNames(list.dataUpdatedAt);
  const setTriage = useSetTriage();
  const unwatch = useUnwatch();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<string[] | undefined>();

  const shown = useMemo(() => rows.flatMap((row) => row.changes), [rows]);
  const { mutate: saveTriage } = setTriage;
  const onTriage = useCallback(
    (changes: readonly InboxChange[], state: TriageState, note?: string) =>
      saveTriage(
        changes.map((change) => ({
          id: change.id,
          profileId: change.profileId,
          field: change.field,
          state,
          note: note === undefined || note === '' ? undefined : note,
        })),
      ),
    [saveTriage],
  );
  const toggleChannel = (channel: Channel) =>
    update({
      channels: params.channels.includes(channel)
        ? params.channels.filter((c) => c !== channel)
        : CHANNELS.filter((c) => c === channel || params.channels.includes(c)),
    });
  const select = useCallback(
    (id: string, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const confirmUnwatch = () => {
    if (!confirming) return;
    unwatch.mutate(confirming, {
      onSuccess: () => {
        setSelected(new Set());
        setConfirming(undefined);
      },
    });
  };
  const total = list.data?.totalCount ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / params.pageSize));
  const untriagedShown = shown.filter(
    (change) => (triage.get(change.id)?.state ?? 'new') === 'new',
  );

  return (
    <>
      <PageHeader
        title="Monitoring"
        description="Watched carriers that changed, by channel, from what to what — triage each change so nothing is missed and nothing is reviewed twice."
      />
      <BulkWatchPanel />
      <section aria-labelledby="inbox-title" className="mt-6 flex flex-col gap-4">
        <h2 id="inbox-title" className="text-lg font-semibold">
          Inbox
        </h2>
        <InboxFilters params={params} onChange={update} />
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={BUTTON}
            disabled={list.isFetching}
            onClick={() => void list.refetch()}
          >
            {list.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={shown.length === 0}
            onClick={() =>
              downloadCsv(
                toCsv({ changes: shown, triage, nameOf: (dot) => names.get(dot) }),
                csvFileName(),
              )
            }
          >
            Export CSV
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={untriagedShown.length === 0 || setTriage.isPending}
            onClick={() => onTriage(untriagedShown, 'reviewed')}
          >
            Mark all on this page reviewed
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={selected.size === 0}
            onClick={() => setConfirming([...selected])}
          >
            Unwatch selected ({selected.size})
          </button>
          <p className={`${MUTED} ml-auto`} role="status">
            {list.isSuccess
              ? `${formatCount(total)} carriers · updated ${formatDateTime(new Date(list.dataUpdatedAt))}`
              : ''}
            {list.isPlaceholderData ? ' · loading the next page…' : ''}
          </p>
        </div>
        {confirming ? (
          <UnwatchConfirm
            profileIds={confirming}
            busy={unwatch.isPending}
            onConfirm={confirmUnwatch}
            onCancel={() => setConfirming(undefined)}
          />
        ) : null}
        {unwatch.isError ? <ErrorState error={unwatch.error} /> : null}
        {setTriage.isError ? <ErrorState error={setTriage.error} /> : null}
        {triageQuery.isError ? (
          <ErrorState error={triageQuery.error} what="the triage states" />
        ) : null}
        <div className="flex flex-col gap-4 md:flex-row">
          <ChannelRail counts={counts} selected={params.channels} onToggle={toggleChannel} />
          <div className="min-w-0 flex-1" aria-busy={list.isFetching}>
            <InboxBody
              list={list}
              empty={rows.length === 0}
              filtered={params.triage !== 'all'}
              table={
                <InboxTable
                  rows={rows}
                  names={names}
                  triage={triage}
                  lastVisit={lastVisit}
                  onTriage={onTriage}
                  saving={setTriage.isPending}
                  selected={selected}
                  onSelect={select}
                  onUnwatch={setConfirming}
                />
              }
            />
            {list.isSuccess && total > 0 ? (
              <div className="mt-3">
                <Pager
                  page={params.page}
                  pageCount={pageCount}
                  onPageChange={(page) => update({ page })}
                  label="Inbox pages"
                />
              </div>
            ) : null}
          </div>
        </div>
      </section>
    </>
  );
}

interface InboxBodyProps {
  list: ReturnType<typeof useInbox>['list'];
  empty: boolean;
  filtered: boolean;
  table: ReactNode;
}

function InboxBody({ list, empty, filtered, table }: InboxBodyProps) {
  if (list.isPending) return <p className={MUTED}>Loading the watchlist…</p>;
  if (list.isError && !list.data) {
    return (
      <ErrorState
        error={list.error}
        what="the watchlist"
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  }
  if (empty) {
    return (
      <p className={MUTED}>
        {filtered
          ? 'No change on this page is in the chosen triage state.'
          : 'No watched carrier matches these filters.'}
      </p>
    );
  }
  return table;
}
