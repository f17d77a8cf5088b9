import { useDeferredValue, useMemo, useState } from 'react';
import { csvFileName } from '../../../../../components/data-table/csv.ts';
import { LoadingBlock } from '../../../../../components/Skeleton.tsx';
import { ErrorState } from '../../../../../components/ErrorState.tsx';
import { MapView } from '../../../../../components/map/index.tsx';
import type { Inspection } from '../../../../../lib/service/index.ts';
import { useViewPoints, type ViewRow } from '../../../api/profile-view.ts';
import { useRemember, useSeenRows } from '../kit/seen-points.ts';
import { ViewMap } from '../kit/ViewMap.tsx';
import { InspectionFilterForm } from './InspectionFilters.tsx';
import { InspectionTable, ServerInspectionTable } from './InspectionTable.tsx';
import { InspectionTotals } from './InspectionTotals.tsx';
import {
  filterChoices,
  filterInspections,
  INSPECTION_CSV,
  inspectionRows,
  inspectionText,
  inspectionViewFilters,
  lanesFromCounts,
  lanesOf,
  NO_INSPECTION_FILTERS,
  pointsFromInspections,
  pointsFromTriples,
  type InspectionFilters,
  type InspectionRow,
} from './model.ts';
import { LanesChart } from './LanesChart.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';
import { ExportViewCsv, useViewTable } from '../kit/view-table.tsx';
import { INSPECTION_VIEW_TABLE } from './slices.ts';

/**
 * Inspections: totals, the filterable history as a table and a map (linked), lanes per state. From
 * the proxy's slices when the page holds the summary; from the full profile when it holds that.
 */
export function InspectionsTab(props: ProfileTabProps) {
  return props.source === 'summary' ? (
    <InspectionsFromViews {...props} />
  ) : (
    <InspectionsFromProfile {...props} />
  );
}

function InspectionsFromProfile({ dot, profile }: ProfileTabProps) {
  const rows = useMemo(() => inspectionRows(profile), [profile]);
  const choices = useMemo(() => filterChoices(rows), [rows]);
  const [filters, setFilters] = useState<InspectionFilters>(NO_INSPECTION_FILTERS);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const filtered = useMemo(() => filterInspections(rows, filters), [rows, filters]);
  const points = useMemo(
    () => pointsFromInspections(filtered, profile.geo_points?.inspection_locations),
    [filtered, profile.geo_points],
  );
  const lanes = useMemo(() => lanesOf(profile), [profile]);

  return (
    <div className="flex flex-col gap-8">
      <Section level={2} id="inspection-totals" title="Inspection totals">
        <InspectionTotals profile={profile} />
      </Section>
      <Section level={2} id="inspection-history" title="Inspection history">
        {rows.length ? (
          <>
            <InspectionFilterForm
              value={filters}
              onChange={setFilters}
              states={choices.states}
              levels={choices.levels}
            />
            <MapView
              label="Map of inspection locations"
              pointName="Inspection"
              points={points}
              selectedId={selectedId}
              onSelect={setSelectedId}
            />
            <InspectionTable
              rows={filtered}
              total={rows.length}
              selectedId={selectedId}
              onSelect={setSelectedId}
              csvFileName={csvFileName(`inspections-${dot}`)}
            />
          </>
        ) : (
          <Empty>The service sent no inspection history for this carrier.</Empty>
        )}
      </Section>
      <Section level={2} id="inspection-lanes" title="Inspections per state">
        <Lanes lanes={lanes} />
      </Section>
    </div>
  );
}

function Lanes({ lanes }: { lanes: ReturnType<typeof lanesOf> }) {
  return lanes.lanes.length ? (
    <LanesChart lanes={lanes.lanes} computed={lanes.computed} />
  ) : (
    <Empty>No inspections per state to show.</Empty>
  );
}

const toRow = ({ id, item }: ViewRow<'inspections'>): InspectionRow => ({ id, inspection: item });

/**
 * The tab on the proxy's slices: a page of 100 rows sorted and filtered by the proxy, the filter
 * choices and per-state counts it computed over the whole history, and the map from its compact
 * points (every matching inspection, whichever page is shown).
 */
function InspectionsFromViews({ dot, profile }: ProfileTabProps) {
  const [filters, setFilters] = useState<InspectionFilters>(NO_INSPECTION_FILTERS);
  const [selectedId, setSelectedId] = useState<string | undefined>();
  const viewFilters = useMemo(() => inspectionViewFilters(filters), [filters]);
  const table = useViewTable(dot, 'inspections', viewFilters, INSPECTION_VIEW_TABLE);
  const pointsQuery = useViewPoints(dot, 'inspection-points', viewFilters);
  const locations = profile.geo_points?.inspection_locations;
  const triples = pointsQuery.data?.points;
  // The map's points (thousands for a large carrier) are built in a render of their own, after the
  // one that draws the table's first rows: the map needs its own code and a WebGL start anyway.
  // (null, not undefined, as the first value: React ignores an undefined initial value)
  const mapTriples = useDeferredValue<typeof triples | null>(triples, null);
  const seen = useSeenRows<Inspection>();
  const points = useMemo(
    () => (mapTriples ? pointsFromTriples(mapTriples, seen, locations) : undefined),
    [mapTriples, seen, locations],
  );
  const page = table.result.data;
  const rows = useMemo(() => page?.rows.map(toRow) ?? [], [page]);
  useRemember(seen, rows, (row) => row.inspection);
  const lanes = useMemo(
    () => lanesFromCounts(profile, page?.stateCounts),
    [profile, page?.stateCounts],
  );
  const selectedRow = selectedId ? rows.find((row) => row.id === selectedId) : undefined;

  let history;
  if (table.result.isError && !page) {
    history = (
      <ErrorState
        key={table.result.errorUpdatedAt}
        error={table.result.error}
        what="the inspections"
        onRetry={() => void table.result.refetch()}
        retrying={table.result.isFetching}
      />
    );
  } else if (!page) {
    history = <LoadingBlock label="Loading the inspections" />;
  } else if (page.total === 0) {
    history = <Empty>The service sent no inspection history for this carrier.</Empty>;
  } else {
    history = (
      <>
        <InspectionFilterForm
          value={filters}
          onChange={setFilters}
          states={page.choices?.states ?? []}
          levels={page.choices?.levels ?? []}
        />
        <ViewMap
          label="Map of inspection locations"
          pointName="Inspection"
          query={pointsQuery}
          points={points}
          selectedId={selectedId}
          onSelect={setSelectedId}
        />
        {selectedId ? (
          <p role="status" className="text-sm text-neutral-800 dark:text-neutral-200">
            Selected:{' '}
            {selectedRow
              ? inspectionText(selectedRow.inspection)
              : 'an inspection that is not on this page of the table.'}
          </p>
        ) : null}
        <ExportViewCsv
          dot={dot}
          view="inspections"
          query={table.query}
          matched={page.matched}
          toRow={toRow}
          columns={INSPECTION_CSV}
          fileName={csvFileName(`inspections-${dot}`)}
          noun="inspections"
        />
        <div aria-busy={table.result.isPlaceholderData}>
          <ServerInspectionTable
            rows={rows}
            total={page.total}
            matched={page.matched}
            sort={table.sort}
            onSortChange={table.setSort}
            pager={table.pager}
            selectedId={selectedId}
            onSelect={setSelectedId}
          />
        </div>
      </>
    );
  }

  return (
    <div className="flex flex-col gap-8">
      <Section level={2} id="inspection-totals" title="Inspection totals">
        <InspectionTotals profile={profile} />
      </Section>
      <Section level={2} id="inspection-history" title="Inspection history">
        {history}
      </Section>
      <Section level={2} id="inspection-lanes" title="Inspections per state">
        {page || profile.preferred_lanes?.length ? (
          <Lanes lanes={lanes} />
        ) : (
          <LoadingBlock label="Loading inspections per state" lines={2} />
        )}
      </Section>
    </div>
  );
}
