import { useMemo, useState } from 'react';
import { DefinitionList } from '../../../../components/DefinitionList.tsx';
import { csvFileName } from '../../../../components/data-table/csv.ts';
import { MapView } from '../../../../components/map/index.tsx';
import { formatCount, formatDate } from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import { aggregateSeries, crashRows, pointsFromCrashes } from '../crashes/crash-data.ts';
import { CrashTable } from '../crashes/CrashTable.tsx';
import { CrashTrendChart } from '../crashes/CrashTrendChart.tsx';
import { EmptyNote, Section } from '../inspections/Section.tsx';
import type { ProfileTabProps } from './types.ts';

function crashTotals(p: Profile) {
  return [
    { term: 'Crashes', value: formatCount(p.crashes_total) },
    { term: 'Fatalities', value: formatCount(p.crash_fatalities) },
    { term: 'Injuries', value: formatCount(p.crash_injuries) },
    { term: 'Tow-away crashes', value: formatCount(p.crashes_tow_away) },
    { term: 'Last crash', value: formatDate(p.last_crash_date) },
  ];
}

/** Crashes: totals, the history as a table and a map (linked), the monthly aggregates. */
export function CrashesTab({ dot, profile }: ProfileTabProps) {
  const rows = useMemo(() => crashRows(profile), [profile]);
  const points = useMemo(
    () => pointsFromCrashes(rows, profile.geo_points?.crash_locations),
    [rows, profile.geo_points],
  );
  const series = useMemo(() => aggregateSeries(profile.crash_aggregates), [profile]);
  const [selectedId, setSelectedId] = useState<string | undefined>();

  return (
    <div className="flex flex-col gap-8">
      <Section id="crash-totals" title="Crash totals">
        <DefinitionList items={crashTotals(profile)} />
      </Section>
      <Section id="crash-history" title="Crash history">
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
              <EmptyNote>The service sent crash locations but no crash records.</EmptyNote>
            )}
          </>
        ) : (
          <EmptyNote>The service sent no crash history for this carrier.</EmptyNote>
        )}
      </Section>
      <Section id="crash-trend" title="Crashes over time">
        {series.length ? (
          <CrashTrendChart series={series} />
        ) : (
          <EmptyNote>No monthly crash figures to show.</EmptyNote>
        )}
      </Section>
    </div>
  );
}
