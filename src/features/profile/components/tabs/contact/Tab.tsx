import { MapView } from '../../../../../components/map/index.tsx';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import {
  formatCount,
  formatDate,
  formatFlag,
  formatPhone,
  MISSING,
} from '../../../../../lib/format.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import { ContactTimelines } from './ContactTimelines.tsx';
import {
  addresses,
  addressPoints,
  changeCounters,
  describeChange,
  RECENT_CHANGE_DAYS,
  recentChanges,
  referenceDate,
  timelines,
} from './model.ts';
import type { ProfileTabProps } from '../types.ts';
import { Facts } from '../../../../../components/Facts.tsx';
import { Section } from '../kit/Section.tsx';
import { Empty } from '../kit/parts.tsx';

function RecentChangeAlert({ profile, reference }: { profile: Profile; reference: string }) {
  const changes = recentChanges(profile, reference);
  if (!changes.length) {
    return (
      <p className="text-sm text-neutral-700 dark:text-neutral-300">
        No name, phone, e-mail or address change in the {RECENT_CHANGE_DAYS} days before the
        snapshot ({formatDate(reference)}).
      </p>
    );
  }
  return (
    <div
      role="note"
      aria-label="Recent contact changes"
      className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-500 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">
        Warning: contact details changed within {RECENT_CHANGE_DAYS} days of the snapshot — a common
        sign of identity theft or a chameleon carrier. Verify by calling a number from an
        independent source.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {changes.map((change) => (
          <li key={change.kind}>{describeChange(change, formatDate)}</li>
        ))}
      </ul>
    </div>
  );
}

function CurrentContacts({ profile: p }: { profile: Profile }) {
  return (
    <Facts
      label="Current contacts"
      columns={4}
      items={[
        { term: 'Telephone', value: formatPhone(p.telephone_number) },
        { term: 'Cell phone', value: formatPhone(p.cellphone_number) },
        { term: 'Fax', value: formatPhone(p.fax_number) },
        { term: 'E-mail', value: <span className="break-all">{p.email_address ?? MISSING}</span> },
        { term: 'Primary contact', value: p.company_contact_primary ?? MISSING },
        { term: 'Secondary contact', value: p.company_contact_secondary ?? MISSING },
        { term: 'Authority telephone', value: formatPhone(p.physical_telephone_number_authority) },
        { term: 'Authority fax', value: formatPhone(p.physical_fax_number_authority) },
      ]}
    />
  );
}

function undeliverableText(flag: boolean | undefined): string {
  if (flag === true) return 'Undeliverable (mail returned)';
  return flag === false ? 'Deliverable' : 'Deliverability not reported';
}

function Addresses({ profile }: { profile: Profile }) {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {addresses(profile).map((a) => (
        <li key={a.id} className="rounded-md border border-neutral-200 p-3 dark:border-neutral-800">
          <h4 className="text-sm font-semibold">{a.label}</h4>
          <p className="mt-1 text-sm">
            {a.line ?? MISSING}
            {a.country ? ` (${a.country})` : ''}
          </p>
          <p
            className={
              a.undeliverable
                ? 'mt-1 text-xs font-semibold text-red-700 dark:text-red-300'
                : 'mt-1 text-xs text-neutral-600 dark:text-neutral-400'
            }
          >
            {a.undeliverable ? '⚠ ' : ''}
            {undeliverableText(a.undeliverable)}
          </p>
          <p className="mt-1 font-mono text-xs break-all text-neutral-600 dark:text-neutral-400">
            Address id: {a.addressId ?? MISSING}
          </p>
        </li>
      ))}
    </ul>
  );
}

function AddressMap({ profile }: { profile: Profile }) {
  const points = addressPoints(profile);
  if (!points.length) return <Empty>No address coordinates on record.</Empty>;
  return <MapView label="Map of address points" points={points} cluster={false} height="280px" />;
}

type Counter = ReturnType<typeof changeCounters>[number];

const COUNTER_COLUMNS: readonly DataTableColumn<Counter>[] = [
  { id: 'what', header: 'What', rowHeader: true, value: (c) => c.label },
  { id: 'count', header: 'Changes', value: (c) => formatCount(c.count) },
  { id: 'last', header: 'Last changed', value: (c) => formatDate(c.lastChanged) },
  {
    id: 'recent',
    header: 'Recent?',
    value: (c) => (c.recent ? `Yes, ${c.daysAgo ?? '?'} days before snapshot` : 'No'),
    cell: (c) =>
      c.recent ? (
        <span className="font-semibold text-amber-800 dark:text-amber-300">
          Yes, {c.daysAgo ?? '?'} days before snapshot
        </span>
      ) : (
        'No'
      ),
  },
];

function ChangeCounters({ profile, reference }: { profile: Profile; reference: string }) {
  return (
    <DataTable
      caption="Change counters"
      captionHidden
      sortable={false}
      columns={COUNTER_COLUMNS}
      data={changeCounters(profile, reference)}
      getRowId={(c) => c.kind}
    />
  );
}

/** Contact & history tab: contacts, addresses and map, timelines, change counters. */
export function ContactTab({ profile }: ProfileTabProps) {
  const reference = referenceDate(profile);
  return (
    <div className="space-y-6">
      <Section id="contact-recent" title="Recent changes">
        <RecentChangeAlert profile={profile} reference={reference} />
      </Section>
      <Section id="contact-current" title="Current contacts">
        <CurrentContacts profile={profile} />
      </Section>
      <Section
        id="contact-addresses"
        title="Addresses"
        description={`Address history on record: ${formatFlag(profile.indicator_address_history)}`}
      >
        <Addresses profile={profile} />
        <div className="mt-4">
          <AddressMap profile={profile} />
        </div>
      </Section>
      <Section id="contact-counters" title="Change counters">
        <ChangeCounters profile={profile} reference={reference} />
      </Section>
      <Section
        id="contact-history"
        title="Contact history"
        description="Every value on record per field, newest first."
      >
        <ContactTimelines
          groups={timelines(profile.contact_history)}
          reference={reference}
          empty="No contact history on record."
        />
      </Section>
      <Section id="contact-address-ids" title="Address identifiers over time">
        <ContactTimelines
          groups={timelines(profile.address_ids)}
          reference={reference}
          empty="No address identifiers on record."
        />
      </Section>
    </div>
  );
}
