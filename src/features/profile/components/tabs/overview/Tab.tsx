import { Link } from 'react-router';
import { Facts, type Fact } from '../../../../../components/Facts.tsx';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import { crashFigures, fleetFigures, inspectionFigures, registrationFigures } from './model.ts';
import { focusWhenShown } from './focus-target.ts';
import { OverviewSignals } from './OverviewSignals.tsx';
import { riskFactorItems, type RiskFactorItem, type RiskGroup } from './risk-factors.ts';
import { PROFILE_TABS, type ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';

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

/**
 * The flags whose evidence is on the Overview itself (USDOT status, out of service) point at the
 * header's status badges: a link to the page already shown would land on nothing.
 */
const OVERVIEW_EVIDENCE = 'profile-status';

function RiskItem({ item, dot, symbol }: { item: RiskFactorItem; dot: string; symbol: string }) {
  const evidence = tabLabel(item.tab);
  const anchor = item.tab === 'overview' ? OVERVIEW_EVIDENCE : undefined;
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
              to={carrierPath(dot, item.tab, anchor)}
              onClick={() => focusWhenShown(anchor ?? '')}
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

function FigureSection({ id, title, items }: { id: string; title: string; items: Fact[] }) {
  return (
    <Section id={id} title={title}>
      <Facts items={items} columns={2} />
    </Section>
  );
}

/**
 * The identity signals (chameleon relation, recent contact changes), the key registration, fleet,
 * inspection and crash figures, and the risk factors as plain statements grouped by what they mean.
 */
export function OverviewTab({ dot, profile, source }: ProfileTabProps) {
  return (
    <div className="space-y-8">
      <OverviewSignals dot={dot} profile={profile} fromSummary={source === 'summary'} />
      <div className="grid gap-4 lg:grid-cols-2">
        <FigureSection
          id="overview-registration"
          title="Registration"
          items={registrationFigures(profile)}
        />
        <FigureSection id="overview-fleet" title="Fleet" items={fleetFigures(profile)} />
        <FigureSection
          id="overview-inspections"
          title="Inspections"
          items={inspectionFigures(profile)}
        />
        <FigureSection id="overview-crashes" title="Crashes" items={crashFigures(profile)} />
      </div>
      <Section id="overview-risk" title="Risk factors">
        <RiskFactorChecklist dot={dot} profile={profile} />
      </Section>
    </div>
  );
}
