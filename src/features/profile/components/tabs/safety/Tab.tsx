import type { Profile } from '../../../../../lib/service/index.ts';
import { formatCount, formatDate } from '../../../../../lib/format.ts';
import { BasicChart } from './BasicChart.tsx';
import { BasicTable } from './BasicTable.tsx';
import {
  buildBasicRows,
  buildBenchmarkRows,
  buildHistoryPoints,
  buildOosRows,
  buildViolationRows,
  carrierClassOf,
} from './model.ts';
import { HistoryChart } from './HistoryChart.tsx';
import { OosChart } from './OosChart.tsx';
import { BenchmarksTable, HistoryTable, OosTable, ViolationsTable } from './SafetyTables.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Facts } from '../../../../../components/Facts.tsx';
import { Section } from '../kit/Section.tsx';

const CLASS_TEXT = {
  general: 'general carrier',
  passenger: 'passenger carrier',
  hazmat: 'hazardous materials carrier',
} as const;

function datedText(text: string | undefined, date: string | undefined): string {
  if (!text) return date ? formatDate(date) : '—';
  return date ? `${text} (${formatDate(date)})` : text;
}

function RatingFacts({ profile }: { profile: Profile }) {
  const mcs151Year = profile.mcs151_year === undefined ? '' : `, ${profile.mcs151_year}`;
  return (
    <Facts
      columns={2}
      items={[
        { term: 'ISS value', value: formatCount(profile.iss_value) },
        { term: 'ISS recommendation', value: profile.iss_recommendation ?? '—' },
        { term: 'ISS reason', value: profile.iss_recommendation_reason ?? '—' },
        {
          term: 'Safety rating',
          value: datedText(profile.safety_rating_desc, profile.safety_rating_date),
        },
        {
          term: 'Latest review',
          value: datedText(profile.latest_review_type_desc, profile.latest_review_date),
        },
        {
          term: 'MCS-151',
          value: `${datedText(profile.mcs151_type_desc, profile.mcs151_date)}${mcs151Year}`,
        },
      ]}
    />
  );
}

function BasicsSection({ profile }: { profile: Profile }) {
  const rows = buildBasicRows(profile);
  const alerts = rows.filter((row) => row.alert).length;
  return (
    <Section level={2} id="safety-basics" title="BASICs (SMS)">
      <p className="mb-3 text-sm text-neutral-600 dark:text-neutral-400">
        Percentile per BASIC (higher is worse) against its intervention threshold (the marker).
        Thresholds without “(default)” come from the profile; defaults are those of a{' '}
        {CLASS_TEXT[carrierClassOf(profile)]}. {alerts === 1 ? '1 alert' : `${alerts} alerts`}. *
        Crash Indicator and Hazardous Materials are computed by the service.
      </p>
      <div role="img" aria-label="Bar chart of BASIC percentiles; the table below has the numbers">
        <BasicChart rows={rows} />
      </div>
      <BasicTable rows={rows} />
    </Section>
  );
}

function HistorySection({ profile }: { profile: Profile }) {
  const points = buildHistoryPoints(profile);
  return (
    <Section level={2} id="safety-history" title="BASIC measure history">
      {points.length === 0 ? (
        <p className="text-sm text-neutral-600 dark:text-neutral-400">No BASIC history.</p>
      ) : (
        <>
          <div role="img" aria-label="Line chart of BASIC measures per snapshot">
            <HistoryChart points={points} />
          </div>
          <HistoryTable points={points} />
        </>
      )}
    </Section>
  );
}

/** Tab 3: BASICs, their history, ISS and rating, out-of-service rates, violations, benchmarks. */
export function SafetyTab({ profile }: ProfileTabProps) {
  const oosRows = buildOosRows(profile);
  return (
    <div className="flex flex-col gap-6">
      <Section level={2} id="safety-rating" title="Inspection selection and safety rating">
        <RatingFacts profile={profile} />
      </Section>
      <BasicsSection profile={profile} />
      <HistorySection profile={profile} />
      <Section level={2} id="safety-oos" title="Out-of-service rates">
        <div
          role="img"
          aria-label="Bar chart of out-of-service rates; the table below has the numbers"
        >
          <OosChart rows={oosRows} />
        </div>
        <OosTable rows={oosRows} />
        <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-400">
          Last inspection: {formatDate(profile.last_inspection_date)}
        </p>
      </Section>
      <Section level={2} id="safety-violations" title="Violations">
        <ViolationsTable rows={buildViolationRows(profile)} total={profile.violations_total} />
        <p className="mt-2 text-xs text-neutral-600 dark:text-neutral-400">
          Last violation: {formatDate(profile.last_violation_date)}
        </p>
      </Section>
      <Section level={2} id="safety-benchmarks" title="Industry benchmarks">
        <BenchmarksTable rows={buildBenchmarkRows(profile)} />
      </Section>
    </div>
  );
}
