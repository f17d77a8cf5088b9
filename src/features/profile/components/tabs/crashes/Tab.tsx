import { useMemo, useState } from 'react';
import { Facts } from '../../../../../components/Facts.tsx';
import { csvFileName } from '../../../../../components/data-table/csv.ts';
import { MapView } from '../../../../../components/map/index.tsx';
import { aggregateSeries, crashRows, crashTotals, pointsFromCrashes } from './model.ts';
import { CrashTable } from './CrashTable.tsx';
import { CrashTrendChart } from './CrashTrendChart.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';

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
      <Section level={2} id="crash-trend" title="Crashes over time">
        {series.length ? (
          <CrashTrendChart series={series} />
        ) : (
          <Empty>No monthly crash figures to show.</Empty>
        )}
      </Section>
    </div>
  );
}
