import { useMemo, useState } from 'react';
import { csvFileName } from '../../../../../components/data-table/csv.ts';
import { MapView } from '../../../../../components/map/index.tsx';
import { InspectionFilterForm } from './InspectionFilters.tsx';
import { InspectionTable } from './InspectionTable.tsx';
import { InspectionTotals } from './InspectionTotals.tsx';
import {
  filterChoices,
  filterInspections,
  inspectionRows,
  lanesOf,
  NO_INSPECTION_FILTERS,
  pointsFromInspections,
  type InspectionFilters,
} from './model.ts';
import { LanesChart } from './LanesChart.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';

/** Inspections: totals, the filterable history as a table and a map (linked), lanes per state. */
export function InspectionsTab({ dot, profile }: ProfileTabProps) {
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
        {lanes.lanes.length ? (
          <LanesChart lanes={lanes.lanes} computed={lanes.computed} />
        ) : (
          <Empty>No inspections per state to show.</Empty>
        )}
      </Section>
    </div>
  );
}
