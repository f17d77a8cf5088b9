import { useMemo, useState } from 'react';
import { ErrorState } from '../../../../../components/ErrorState.tsx';
import { LoadingBlock } from '../../../../../components/Skeleton.tsx';
import { formatCount, formatFlag } from '../../../../../lib/format.ts';
import { useNetworkView, withNetworkFields } from '../../../api/profile-view.ts';
import { CarrierLink } from './CarrierLink.tsx';
import { EquipmentNetworkTable } from './EquipmentNetworkTable.tsx';
import { GraphSection } from './GraphSection.tsx';
import { NameLookup } from './NameLookup.tsx';
import { NetworkWatch } from './NetworkWatch.tsx';
import {
  describeStatus,
  isTroubled,
  linkedDots,
  networkLinks,
  unnamedDots,
  type KnownCarrier,
  type NetworkLink,
} from './model.ts';
import { useKnownCarriers } from './use-known-carriers.ts';
import type { ProfileTabProps } from '../types.ts';
import { Facts } from '../../../../../components/Facts.tsx';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';

const LIST_PAGE = 50;

function LinkList({
  link,
  known,
}: {
  link: NetworkLink;
  known: ReadonlyMap<string, KnownCarrier>;
}) {
  const [all, setAll] = useState(false);
  const headingId = `network-${link.type.id}`;
  const shown = all ? link.dots : link.dots.slice(0, LIST_PAGE);
  const countNote =
    link.count !== undefined && link.count !== link.dots.length
      ? ` (service count ${formatCount(link.count)})`
      : '';
  return (
    <section
      aria-labelledby={headingId}
      className="border-t border-neutral-200 pt-3 dark:border-neutral-800"
    >
      <h4 id={headingId} className="text-sm font-semibold">
        {link.type.label}: {formatCount(link.dots.length)}{' '}
        {link.dots.length === 1 ? 'carrier' : 'carriers'}
        {countNote}
      </h4>
      {link.dots.length ? (
        <ul className="mt-1 space-y-1 text-sm">
          {shown.map((dot) => (
            <li key={dot}>
              <CarrierLink dot={dot} known={known.get(dot)} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">None shared.</p>
      )}
      {shown.length < link.dots.length ? (
        <button
          type="button"
          onClick={() => setAll(true)}
          className="mt-1 rounded-md border border-neutral-300 px-2 py-0.5 text-xs font-medium dark:border-neutral-700"
        >
          Show all {formatCount(link.dots.length)}
        </button>
      ) : null}
    </section>
  );
}

function TroubledLinks({
  links,
  known,
}: {
  links: readonly NetworkLink[];
  known: ReadonlyMap<string, KnownCarrier>;
}) {
  const troubled = linkedDots(links).filter((dot) => isTroubled(known.get(dot)));
  if (!troubled.length) return null;
  return (
    <div
      role="note"
      aria-label="Links to troubled carriers"
      className="rounded-md border border-red-400 bg-red-50 p-3 text-sm text-red-950 dark:border-red-500 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">
        Warning: this carrier shares identifiers with carriers that are revoked, inactive or out of
        service — a sign of a chameleon (re-registered) carrier.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {troubled.map((dot) => {
          const carrier = known.get(dot);
          const shared = links
            .filter((l) => l.dots.includes(dot))
            .map((l) => l.type.label.toLowerCase());
          return (
            <li key={dot}>
              DOT {dot} {carrier?.name ?? ''} ({describeStatus(carrier)}) shares:{' '}
              {shared.join(', ')}.
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Network tab: carriers sharing identifiers, named from what is known; a costed look-up for the rest. */
/**
 * The Network tab. Drawn from the proxy's summary, it asks for the `network` view (the network
 * fields and the carrier's own records of the VINs it shares: 0.6 MB for the heaviest carrier
 * instead of its 13.5 MB profile) and lays it over the summary; the lists and the graph read
 * nothing else.
 */
export function NetworkTab(props: ProfileTabProps) {
  return props.source === 'summary' ? <NetworkFromView {...props} /> : <NetworkLists {...props} />;
}

function NetworkFromView(props: ProfileTabProps) {
  const { dot, profile } = props;
  const network = useNetworkView(dot, true);
  const merged = useMemo(
    () => (network.data ? withNetworkFields(profile, network.data) : undefined),
    [profile, network.data],
  );
  if (network.isError) {
    return (
      <ErrorState
        key={network.errorUpdatedAt}
        error={network.error}
        what="the carrier's network"
        onRetry={() => void network.refetch()}
        retrying={network.isFetching}
      />
    );
  }
  if (!merged) return <LoadingBlock label="Loading the carrier's network" />;
  return <NetworkLists {...props} profile={merged} />;
}

function NetworkLists({ dot, profile }: ProfileTabProps) {
  const links = useMemo(() => networkLinks(profile, dot), [profile, dot]);
  const dots = useMemo(() => linkedDots(links), [links]);
  const equipment = profile.network_graph_equipment_ext;
  const known = useKnownCarriers(dots, equipment);
  const unnamed = unnamedDots(dots, known);
  // Long lists (hundreds of DOTs for a heavy carrier): not redrawn when only the URL's ?expand=
  // or the graph's state changes.
  const lists = useMemo(
    () => (
      <>
        <Section id="network-links" title="Links by identifier">
          {dots.length ? (
            <div className="space-y-3">
              {links.map((link) => (
                <LinkList key={link.type.id} link={link} known={known} />
              ))}
            </div>
          ) : (
            <Empty>No other carrier shares an identifier with this one.</Empty>
          )}
        </Section>
        <Section id="network-equipment" title="Carriers sharing equipment">
          <EquipmentNetworkTable carriers={equipment ?? []} />
        </Section>
      </>
    ),
    [dots.length, links, known, equipment],
  );
  return (
    <div className="space-y-6">
      <Section
        id="network-summary"
        title="Shared identifiers"
        description="Other DOT numbers that share an address, phone, e-mail, tax id or vehicle with this carrier."
      >
        <Facts
          label="Network summary"
          columns={4}
          items={[
            { term: 'Linked carriers', value: formatCount(dots.length) },
            { term: 'Contact links', value: formatFlag(profile.indicator_network_graph_contact) },
            {
              term: 'Equipment links',
              value: formatFlag(profile.indicator_network_graph_equipment),
            },
            {
              term: 'Shared power units',
              value: formatCount(
                profile.network_graph_count_power_units ?? profile.shared_power_units,
              ),
            },
            {
              term: 'Shared trailers',
              value: formatCount(profile.network_graph_count_trailers ?? profile.shared_trailers),
            },
          ]}
        />
        <div className="mt-4">
          <TroubledLinks links={links} known={known} />
        </div>
      </Section>
      {dots.length ? <GraphSection dot={dot} profile={profile} /> : null}
      <Section
        id="network-names"
        title="Carrier names"
        description="Names come from data already fetched; nothing is looked up without your confirmation."
      >
        <NameLookup unnamed={unnamed} />
      </Section>
      <Section
        id="network-watch"
        title="Watch the network"
        description="Add every linked carrier to the watchlist: look-up and monitoring costs are shown before anything is sent."
      >
        {dots.length ? <NetworkWatch dots={dots} /> : <Empty>No linked carriers to watch.</Empty>}
      </Section>
      {lists}
    </div>
  );
}
