import { useMemo, useState } from 'react';
import { csvFileName } from '../../../../components/data-table/csv.ts';
import { MapView } from '../../../../components/map/index.tsx';
import { InspectionFilterForm } from '../inspections/InspectionFilters.tsx';
import { InspectionTable } from '../inspections/InspectionTable.tsx';
import { InspectionTotals } from '../inspections/InspectionTotals.tsx';
import {
  filterChoices,
  filterInspections,
  inspectionRows,
  lanesOf,
  NO_INSPECTION_FILTERS,
  pointsFromInspections,
  type InspectionFilters,
} from '../inspections/inspection-data.ts';
import { LanesChart } from '../inspections/LanesChart.tsx';
import { EmptyNote, Section } from '../inspections/Section.tsx';
import type { ProfileTabProps } from './types.ts';

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
      <Section id="inspection-totals" title="Inspection totals">
        <InspectionTotals profile={profile} />
      </Section>
      <Section id="inspection-history" title="Inspection history">
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
          <EmptyNote>The service sent no inspection history for this carrier.</EmptyNote>
        )}
      </Section>
      <Section id="inspection-lanes" title="Inspections per state">
        {lanes.lanes.length ? (
          <LanesChart lanes={lanes.lanes} computed={lanes.computed} />
        ) : (
          <EmptyNote>No inspections per state to show.</EmptyNote>
        )}
      </Section>
    </div>
  );
}
