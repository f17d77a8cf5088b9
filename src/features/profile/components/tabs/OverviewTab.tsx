import { Link } from 'react-router';
import { DefinitionList, type Definition } from '../../../../components/DefinitionList.tsx';
import { formatCount, formatDate, formatPercent } from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import { OverviewSignals } from '../overview/OverviewSignals.tsx';
import { riskFactorItems, type RiskFactorItem, type RiskGroup } from './risk-factors.ts';
import { PROFILE_TABS, type ProfileTabProps } from './types.ts';

const GROUPS: { group: RiskGroup; title: string; symbol: string; empty: string }[] = [
  { group: 'concern', title: 'Concerns', symbol: '✕', empty: 'No concerns flagged.' },
  { group: 'ok', title: 'In order', symbol: '✓', empty: 'Nothing flagged as in order.' },
  { group: 'info', title: 'For information', symbol: '•', empty: 'None.' },
];

const SYMBOL_CLASS: Record<RiskGroup, string> = {
  concern: 'text-red-700 dark:text-red-400',
  ok: 'text-emerald-700 dark:text-emerald-400',
  info: 'text-neutral-500 dark:text-neutral-400',
};

function tabLabel(tab: RiskFactorItem['tab']): string | undefined {
  return PROFILE_TABS.find((entry) => entry.id === tab)?.label;
}

function RiskItem({ item, dot, symbol }: { item: RiskFactorItem; dot: string; symbol: string }) {
  const evidence = tabLabel(item.tab);
  return (
    <li className="flex gap-2" data-flags={item.flags.join(' ')}>
      <span aria-hidden="true" className={`font-bold ${SYMBOL_CLASS[item.group]}`}>
        {symbol}
      </span>
      <span className="min-w-0 break-words">
        {item.text}
        {item.tab && evidence ? (
          <>
            {' '}
            <Link
              to={`/carriers/${dot}/${item.tab}`}
              className="text-sm text-sky-700 underline dark:text-sky-300"
            >
              see {evidence}
            </Link>
          </>
        ) : null}
      </span>
    </li>
  );
}

function RiskFactorChecklist({ dot, profile }: { dot: string; profile: Profile }) {
  const items = riskFactorItems(profile);
  if (items.length === 0) {
    return <p className="text-neutral-700 dark:text-neutral-300">No risk factors were reported.</p>;
  }
  return (
    <>
      <p className="mb-3 text-sm text-neutral-700 dark:text-neutral-300">
        The data vendor computes these flags; the values in each line come from the profile.
      </p>
      <div className="grid gap-6 md:grid-cols-3">
        {GROUPS.map(({ group, title, symbol, empty }) => {
          const members = items.filter((item) => item.group === group);
          return (
            <section key={group} aria-labelledby={`risk-${group}`}>
              <h4 id={`risk-${group}`} className="mb-2 font-semibold">
                {title} ({members.length})
              </h4>
              {members.length === 0 ? (
                <p className="text-sm text-neutral-600 dark:text-neutral-400">{empty}</p>
              ) : (
                <ul className="space-y-1.5 text-sm">
                  {members.map((item) => (
                    <RiskItem key={item.flags[0]} item={item} dot={dot} symbol={symbol} />
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}

function fleetFigures(profile: Profile): Definition[] {
  return [
    { term: 'Power units', value: formatCount(profile.total_power_units) },
    { term: 'Drivers', value: formatCount(profile.total_drivers) },
    { term: 'Trailers', value: formatCount(profile.total_trailers) },
    { term: 'MCS-150 mileage', value: formatCount(profile.mcs150_mileage) },
    { term: 'MCS-150 filed', value: formatDate(profile.mcs150_date) },
    { term: 'USDOT number added', value: formatDate(profile.added_date) },
  ];
}

function inspectionFigures(profile: Profile): Definition[] {
  return [
    { term: 'Inspections', value: formatCount(profile.inspections_total) },
    { term: 'Last inspection', value: formatDate(profile.last_inspection_date) },
    { term: 'Violations', value: formatCount(profile.violations_total) },
    {
      term: 'Vehicle out-of-service rate',
      value: `${formatPercent(profile.inspections_vehicle_out_of_service_pct)} (national ${formatPercent(profile.natl_avg_oos_vehicle)})`,
    },
    {
      term: 'Driver out-of-service rate',
      value: `${formatPercent(profile.inspections_driver_out_of_service_pct)} (national ${formatPercent(profile.natl_avg_oos_driver)})`,
    },
    { term: 'States inspected in', value: formatCount(profile.inspected_states) },
  ];
}

function crashFigures(profile: Profile): Definition[] {
  return [
    { term: 'Crashes', value: formatCount(profile.crashes_total) },
    { term: 'Fatalities', value: formatCount(profile.crash_fatalities) },
    { term: 'Injuries', value: formatCount(profile.crash_injuries) },
    { term: 'Tow-away crashes', value: formatCount(profile.crashes_tow_away) },
    { term: 'Last crash', value: formatDate(profile.last_crash_date) },
  ];
}

function FigureSection({ id, title, items }: { id: string; title: string; items: Definition[] }) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800"
    >
      <h3 id={id} className="mb-3 text-lg font-semibold">
        {title}
      </h3>
      <DefinitionList items={items} columns={2} />
    </section>
  );
}

/**
 * The identity signals (chameleon relation, recent contact changes), the key fleet, inspection and
 * crash figures, and the risk factors as plain statements grouped by what they mean.
 */
export function OverviewTab({ dot, profile }: ProfileTabProps) {
  return (
    <div className="space-y-8">
      <OverviewSignals dot={dot} profile={profile} />
      <div className="grid gap-4 lg:grid-cols-3">
        <FigureSection id="overview-fleet" title="Fleet" items={fleetFigures(profile)} />
        <FigureSection
          id="overview-inspections"
          title="Inspections"
          items={inspectionFigures(profile)}
        />
        <FigureSection id="overview-crashes" title="Crashes" items={crashFigures(profile)} />
      </div>
      <section aria-labelledby="overview-risk">
        <h3 id="overview-risk" className="mb-3 text-lg font-semibold">
          Risk factors
        </h3>
        <RiskFactorChecklist dot={dot} profile={profile} />
      </section>
    </div>
  );
}
