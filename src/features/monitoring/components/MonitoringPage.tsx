import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Pager } from '../../../components/data-table/Pager.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import type { Channel } from '../../../lib/service/index.ts';
import { CHANNELS } from '../../../lib/service/index.ts';
import { useKnownNames } from '../api/known-names.ts';
import { monitoringKeys } from '../api/keys.ts';
import { useSetTriage } from '../api/triage.ts';
import { UnwatchConfirm } from '../../../entities/watchlist/components/UnwatchConfirm.tsx';
import { useUnwatch } from '../../../entities/watchlist/api.ts';
import { useCan } from '../../../entities/session/role.ts';
import { RoleNote } from '../../../entities/session/RoleNote.tsx';
import { csvFileName, toCsv } from '../model/csv.ts';
import type { InboxChange, TriageState } from '../../../lib/monitoring/inbox.ts';
import { BulkWatchPanel } from './BulkWatchPanel.tsx';
import { ChannelRail } from './ChannelRail.tsx';
import { inboxCount } from './inbox-count.ts';
import { InboxFilters } from './InboxFilters.tsx';
import { InboxTable } from './InboxTable.tsx';
import { NameLookup } from './NameLookup.tsx';
import { useInbox, useInboxParams } from './use-inbox.ts';
import { BUTTON, MUTED } from './ui.ts';
import { UndoNotice, type UndoState } from './UndoNotice.tsx';
import { SkipToChanges, INBOX_CHANGES_ID } from './SkipToChanges.tsx';
import { downloadCsv } from '../../../lib/download.ts';

const NO_IDS: ReadonlySet<string> = new Set();

/** The monitoring inbox: watched carriers, their changes per channel, and their triage. */
export function MonitoringPage() {
  const client = useQueryClient();
  const { params, update } = useInboxParams();
  // Changes triaged in this view stay shown whatever the triage filter, until the filters change.
  const viewKey = JSON.stringify(params);
  const [kept, setKept] = useState<{ view: string; ids: ReadonlySet<string> }>({
    view: viewKey,
    ids: NO_IDS,
  });
  const keptIds = kept.view === viewKey ? kept.ids : NO_IDS;
  const { list, profiles, triageQuery, triage, rows, counts, lastVisit } = useInbox(
    params,
    keptIds,
  );
  const names = useKnownNames(profiles, list.dataUpdatedAt);
  const setTriage = useSetTriage();
  const unwatch = useUnwatch();
  const canTriage = useCan('triage changes');
  const canWatch = useCan('watch carriers');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState<string[] | undefined>();
  const [undo, setUndo] = useState<UndoState | undefined>();
  const markAllRef = useRef<HTMLButtonElement>(null);

  const shown = useMemo(() => rows.flatMap((row) => row.changes), [rows]);
  const { mutate: saveTriage } = setTriage;
  const onTriage = useCallback(
    (
      changes: readonly InboxChange[],
      state: TriageState,
      note?: string,
      options?: { onSuccess?: () => void },
    ) => {
      setKept((current) => {
        const ids = new Set(current.view === viewKey ? current.ids : []);
        for (const change of changes) ids.add(change.id);
        return { view: viewKey, ids };
      });
      saveTriage(
        changes.map((change) => ({
          id: change.id,
          profileId: change.profileId,
          field: change.field,
          state,
          note: note === undefined || note === '' ? undefined : note,
        })),
        options,
      );
    },
    [saveTriage, viewKey],
  );
  const markAllReviewed = (changes: readonly InboxChange[]) => {
    const previous = changes.map((change) => ({
      change,
      state: triage.get(change.id)?.state ?? ('new' as const),
      note: triage.get(change.id)?.note,
    }));
    setUndo(undefined);
    onTriage(changes, 'reviewed', undefined, {
      onSuccess: () => setUndo({ phase: 'done', previous }),
    });
  };
  // Undone: the changes are New again and the focus returns to the button that marked them.
  const undoPhase = undo?.phase;
  useEffect(() => {
    if (undoPhase === 'undone') markAllRef.current?.focus();
  }, [undoPhase]);
  const undoMarkAll = () => {
    if (undo?.phase !== 'done') return;
    const { previous } = undo;
    setUndo({ phase: 'undoing', previous });
    saveTriage(
      previous.map(({ change, state, note }) => ({
        id: change.id,
        profileId: change.profileId,
        field: change.field,
        state,
        note,
      })),
      {
        onSuccess: () => setUndo({ phase: 'undone', previous }),
        onError: () => setUndo({ phase: 'done', previous }),
      },
    );
  };
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
  const refresh = () => {
    void list.refetch();
    // the navigation badge counts from the same list: a refresh refreshes it too
    void client.invalidateQueries({ queryKey: monitoringKeys.badge() });
  };

  return (
    <>
      <PageHeader
        title="Monitoring"
        description="Watched carriers that changed, by channel, from what to what — triage each change so nothing is missed and nothing is reviewed twice."
      />
      <SkipToChanges />
      <BulkWatchPanel />
      <section aria-labelledby="inbox-title" className="mt-6 flex flex-col gap-4">
        <h2 id="inbox-title" className="text-lg font-semibold">
          Inbox
        </h2>
        <InboxFilters params={params} onChange={update} />
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={BUTTON} disabled={list.isFetching} onClick={refresh}>
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
            ref={markAllRef}
            type="button"
            className={BUTTON}
            disabled={untriagedShown.length === 0 || !canTriage.allowed}
            aria-describedby={canTriage.allowed ? undefined : 'inbox-role'}
            onClick={() => markAllReviewed(untriagedShown)}
          >
            Mark all on this page reviewed
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={selected.size === 0 || !canWatch.allowed}
            onClick={() => setConfirming([...selected])}
          >
            Unwatch selected ({selected.size})
          </button>
          <RoleNote id="inbox-role" permission={canTriage} />
          <p className={`${MUTED} ml-auto`} role="status">
            {list.isSuccess
              ? `${inboxCount({ total, onPage: profiles.length, shown: rows.length, triage: params.triage })} · updated ${formatDateTime(new Date(list.dataUpdatedAt))}`
              : ''}
            {list.isPlaceholderData ? ' · loading the next page…' : ''}
          </p>
        </div>
        <NameLookup profiles={profiles} names={names} />
        {undo ? (
          <UndoNotice
            state={undo}
            onUndo={undoMarkAll}
            onDismiss={() => {
              setUndo(undefined);
              markAllRef.current?.focus();
            }}
          />
        ) : null}
        {confirming ? (
          <UnwatchConfirm
            profileIds={confirming}
            busy={unwatch.isPending}
            onConfirm={confirmUnwatch}
            onCancel={() => setConfirming(undefined)}
          />
        ) : null}
        <InboxProblem
          list={list}
          problems={[
            { error: unwatch.error, what: undefined },
            { error: setTriage.error, what: undefined },
            { error: triageQuery.isError ? triageQuery.error : null, what: 'the triage states' },
          ]}
        />
        <div className="flex flex-col gap-4 md:flex-row">
          <ChannelRail counts={counts} selected={params.channels} onToggle={toggleChannel} />
          <div
            id={INBOX_CHANGES_ID}
            role="region"
            aria-label="Changes"
            tabIndex={-1}
            className="min-w-0 flex-1"
            aria-busy={list.isFetching}
          >
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
                  readOnly={!canTriage.allowed}
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

/** The list shown is the last one read: the server cannot be reached, and the list is retried. */
function StaleList({ at }: { at: number }) {
  return (
    <p
      role="status"
      className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <strong>Cannot reach the server — retrying.</strong> Showing the list as of{' '}
      {formatDateTime(new Date(at))}; it updates by itself when the server is back.
    </p>
  );
}

/**
 * One problem at a time. In an outage every call fails alike (the list, a triage change, the
 * triage states): showing each would stack near-identical errors. The list's state wins (the body
 * shows it when nothing was loaded yet; a stale list says it is retrying); else the first failure.
 */
function InboxProblem({
  list,
  problems,
}: {
  list: ReturnType<typeof useInbox>['list'];
  problems: { error: unknown; what: string | undefined }[];
}) {
  if (list.isError) return list.data ? <StaleList at={list.dataUpdatedAt} /> : null;
  const first = problems.find((problem) => problem.error);
  return first ? <ErrorState error={first.error} what={first.what} /> : null;
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
