import { useDeferredValue, useMemo, useState } from 'react';
import { Facts } from '../../../../../components/Facts.tsx';
import { ErrorState } from '../../../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../../../components/Skeleton.tsx';
import { csvFileName } from '../../../../../components/data-table/csv.ts';
import { MapView } from '../../../../../components/map/index.tsx';
import type { Crash } from '../../../../../lib/service/index.ts';
import { useViewPoints, type ViewRow } from '../../../api/profile-view.ts';
import { useRemember, useSeenRows } from '../kit/seen-points.ts';
import {
  aggregateSeries,
  CRASH_CSV,
  CRASH_SORT_FIELDS,
  crashPointsFromTriples,
  crashRows,
  crashText,
  crashTotals,
  pointsFromCrashes,
  type CrashRow,
} from './model.ts';
import { CrashTable, ServerCrashTable } from './CrashTable.tsx';
import { CrashTrendChart } from './CrashTrendChart.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';
import { ViewMap } from '../kit/ViewMap.tsx';
import { ExportViewCsv, useViewTable } from '../kit/view-table.tsx';

/**
 * Crashes: totals, the history as a table and a map (linked), the monthly aggregates. From the
 * proxy's slices when the page holds the summary; from the full profile when it holds that.
 */
export function CrashesTab(props: ProfileTabProps) {
  return props.source === 'summary' ? (
    <CrashesFromViews {...props} />
  ) : (
    <CrashesFromProfile {...props} />
  );
}

function CrashesFromProfile({ dot, profile }: ProfileTabProps) {
  const rows = useMemo(() => crashRows(profile), [profile]);
  const points = useMemo(
    () => pointsFromCrashes(rows, profile.geo_points?.crash_locations),
    [rows, profile.geo_points],
  );
  const [selectedId, setSelectedId] = useState<string | undefined>();

  return (
    <div className="flex flex-col gap-8">
      <Section level={2} id="crash-totals" title="Crash totals">
        <Facts items={crashTotals(profile)} />
      </Section>
      <Section level={2} id="crash-history" title="Crash history">
        {rows.length || points.length ? (
          <>
            <MapView
              label="Map of crash locations"
              pointName="Crash"
              points={points}
              selectedId={selectedId}
              onSelect={setSelectedId}
            />
            {rows.length ? (
              <CrashTable
                rows={rows}
                selectedId={selectedId}
                onSelect={setSelectedId}
                csvFileName={csvFileName(`crashes-${dot}`)}
              />
            ) : (
              <Empty>The service sent crash locations but no crash records.</Empty>
            )}
          </>
        ) : (
          <Empty>The service sent no crash history for this carrier.</Empty>
        )}
      </Section>
      <CrashTrend profile={profile} />
    </div>
  );
}

function CrashTrend({ profile }: Pick<ProfileTabProps, 'profile'>) {
  const series = useMemo(() => aggregateSeries(profile.crash_aggregates), [profile]);
  return (
    <Section level={2} id="crash-trend" title="Crashes over time">
      {series.length ? (
        <CrashTrendChart series={series} />
      ) : (
        <Empty>No monthly crash figures to show.</Empty>
      )}
    </Section>
  );
}

const toRow = ({ id, item }: ViewRow<'crashes'>): CrashRow => ({ id, crash: item });

const VIEW_TABLE = { sortFields: CRASH_SORT_FIELDS, initialSort: { id: 'date', desc: true } };
const NO_FILTERS = {};

/**
 * The tab on the proxy's slices: a page of 100 crashes sorted by the proxy and the map from its
 * compact points (every crash, whichever page is shown).
 */
function CrashesFromViews({ dot, profile }: ProfileTabProps) {
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const table = useViewTable(dot, 'crashes', NO_FILTERS, VIEW_TABLE);
  const pointsQuery = useViewPoints(dot, 'crash-points', NO_FILTERS);
  const locations = profile.geo_points?.crash_locations;
  const triples = pointsQuery.data?.points;
  // As on the Inspections tab: the table's first rows draw first, the map's points (1,100 for the
  // heavy carrier) and the map's WebGL start come in a render of their own after them.
  const mapTriples = useDeferredValue<typeof triples | null>(triples, null);
  const seen = useSeenRows<Crash>();
  const points = useMemo(
    () => (mapTriples ? crashPointsFromTriples(mapTriples, seen, locations) : undefined),
    [mapTriples, seen, locations],
  );
  const page = table.result.data;
  const rows = useMemo(() => page?.rows.map(toRow) ?? [], [page]);
  useRemember(seen, rows, (row) => row.crash);
  const selectedRow = selectedId ? rows.find((row) => row.id === selectedId) : undefined;

  let history;
  if (table.result.isError && !page) {
    history = (
      <ErrorState
        key={table.result.errorUpdatedAt}
        error={table.result.error}
        what="the crashes"
        onRetry={() => void table.result.refetch()}
        retrying={table.result.isFetching}
      />
    );
  } else if (!page || (page.total === 0 && !triples && !pointsQuery.isError)) {
    // without records, whether there is anything to show hangs on the points
    history = <LoadingBlock label="Loading the crashes" />;
  } else if (page.total === 0 && triples?.length === 0) {
    history = <Empty>The service sent no crash history for this carrier.</Empty>;
  } else {
    history = (
      <>
        <ViewMap
          label="Map of crash locations"
          pointName="Crash"
          query={pointsQuery}
          points={points}
          selectedId={selectedId}
          onSelect={setSelectedId}
        />
        {selectedId ? (
          <p role="status" className="text-sm text-neutral-800 dark:text-neutral-200">
            Selected:{' '}
            {selectedRow
              ? crashText(selectedRow.crash)
              : 'a crash that is not on this page of the table.'}
          </p>
        ) : null}
        {page.total ? (
          <>
            <ExportViewCsv
              dot={dot}
              view="crashes"
              query={table.query}
              matched={page.matched}
              toRow={toRow}
              columns={CRASH_CSV}
              fileName={csvFileName(`crashes-${dot}`)}
              noun="crashes"
            />
            <div aria-busy={table.result.isPlaceholderData}>
              <ServerCrashTable
                rows={rows}
                total={page.total}
                sort={table.sort}
                onSortChange={table.setSort}
                pager={table.pager}
                selectedId={selectedId}
                onSelect={setSelectedId}
              />
            </div>
          </>
        ) : triples ? (
          <Empty>The service sent crash locations but no crash records.</Empty>
        ) : null}
      </>
    );
  }

  return (
    <div className="flex flex-col gap-8">
      <Section level={2} id="crash-totals" title="Crash totals">
        <Facts items={crashTotals(profile)} />
      </Section>
      <Section level={2} id="crash-history" title="Crash history">
        {history}
      </Section>
      <CrashTrend profile={profile} />
    </div>
  );
}
