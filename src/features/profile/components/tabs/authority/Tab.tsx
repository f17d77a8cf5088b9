import { Badge } from '../../../../../components/Badge.tsx';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import { Facts } from '../../../../../components/Facts.tsx';
import {
  MISSING,
  TRI_STATE_LABELS,
  formatCount,
  formatDate,
  formatDollars,
  formatFlag,
  triState,
} from '../../../../../lib/format.ts';
import type { InsuranceEntry, Profile } from '../../../../../lib/service/index.ts';
import {
  AUTHORITY_TYPES,
  authorityTimeline,
  coverageRows,
  insuranceStatusLabel,
  isPendingCancellation,
  todayIso,
  type CoverageRow,
} from './model.ts';
import type { ProfileTabProps } from '../types.ts';
import { Section } from '../kit/Section.tsx';

function TriBadge({ label, value }: { label: string; value: boolean | null | undefined }) {
  const state = triState(value);
  const tone = state === 'pass' ? 'good' : state === 'fail' ? 'bad' : 'neutral';
  return (
    <Badge tone={tone} label={label}>
      {TRI_STATE_LABELS[state]}
    </Badge>
  );
}

type AuthorityType = (typeof AUTHORITY_TYPES)[number];

function authorityColumns(profile: Profile): DataTableColumn<AuthorityType>[] {
  return [
    {
      id: 'type',
      header: 'Type',
      rowHeader: true,
      className: 'font-medium',
      value: (t) => t.label,
    },
    { id: 'status', header: 'Status', value: ({ id }) => profile[`authority_${id}`] ?? MISSING },
    {
      id: 'pending',
      header: 'Pending',
      value: ({ id }) => formatFlag(profile[`authority_${id}_pending`]),
    },
    {
      id: 'review',
      header: 'Under review',
      value: ({ id }) => formatFlag(profile[`authority_${id}_review`]),
    },
    {
      id: 'revocation',
      header: 'Revocation pending',
      value: ({ id }) => formatFlag(profile[`authority_${id}_revocation`]),
    },
    {
      id: 'granted',
      header: 'Granted',
      value: ({ id }) => formatDate(profile[`authority_start_${id}`]),
    },
    {
      id: 'age',
      header: 'Age (days)',
      value: ({ id }) => formatCount(profile[`authority_age_${id}`]),
    },
    {
      id: 'revoked',
      header: 'Last revoked',
      value: ({ id }) => formatDate(profile[`authority_${id}_last_revocation_date`]),
    },
  ];
}

function AuthorityStatusTable({ profile }: { profile: Profile }) {
  return (
    <DataTable
      caption="Operating authority by type"
      sortable={false}
      columns={authorityColumns(profile)}
      data={AUTHORITY_TYPES}
      getRowId={(t) => t.id}
    />
  );
}

function RevocationSummary({ profile }: { profile: Profile }) {
  return (
    <Facts
      items={[
        { term: 'Revocations', value: formatCount(profile.total_revocations) },
        { term: 'Last revocation', value: formatDate(profile.last_revocation_date) },
        {
          term: 'Days since last revocation',
          value: formatCount(profile.days_since_last_revocation),
        },
        {
          term: 'Common authority active for (days)',
          value: formatCount(profile.authority_age_common_active),
        },
        {
          term: 'Contract authority active for (days)',
          value: formatCount(profile.authority_age_contract_active),
        },
      ]}
    />
  );
}

function AuthorityTimeline({ profile }: { profile: Profile }) {
  const events = authorityTimeline(profile.authority_history);
  return (
    <Section id="authority-history" title="Authority history">
      {events.length === 0 ? (
        <p className="text-sm text-neutral-700 dark:text-neutral-300">
          No authority history on record.
        </p>
      ) : (
        <ol className="relative ml-2 border-l border-neutral-300 dark:border-neutral-700">
          {events.map((event) => (
            <li key={event.key} className="mb-3 ml-4">
              <span
                aria-hidden="true"
                className="absolute -left-1.5 mt-1.5 size-3 rounded-full border border-white bg-neutral-400 dark:border-neutral-900 dark:bg-neutral-500"
              />
              <time
                dateTime={event.date}
                className="text-sm text-neutral-600 dark:text-neutral-400"
              >
                {formatDate(event.date)}
              </time>
              <p className="text-sm">
                <span className="font-medium">{event.action}</span> — {event.authority}
              </p>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function CoverageVerdict({ row }: { row: CoverageRow }) {
  switch (row.status) {
    case 'shortfall':
      return (
        <Badge tone="bad" label="Shortfall">
          {formatDollars(row.shortfall)} missing
        </Badge>
      );
    case 'met':
      return <Badge tone="good">Meets requirement</Badge>;
    case 'not-required':
      return <Badge tone="neutral">Not required</Badge>;
    default:
      return <Badge tone="neutral">Requirement unknown</Badge>;
  }
}

const COVERAGE_COLUMNS: readonly DataTableColumn<CoverageRow>[] = [
  {
    id: 'coverage',
    header: 'Coverage',
    rowHeader: true,
    className: 'font-medium',
    value: (r) => r.label,
  },
  { id: 'onFile', header: 'On file', value: (r) => formatDollars(r.onFile) },
  { id: 'required', header: 'Required', value: (r) => formatDollars(r.required) },
  {
    id: 'verdict',
    header: 'Verdict',
    value: (r) => r.status,
    cell: (r) => <CoverageVerdict row={r} />,
  },
];

function CoverageTable({ profile }: { profile: Profile }) {
  return (
    <DataTable
      caption="Insurance on file vs required"
      sortable={false}
      columns={COVERAGE_COLUMNS}
      data={coverageRows(profile)}
      getRowId={(r) => r.id}
      rowClassName={(r) => (r.status === 'shortfall' ? 'bg-red-50 dark:bg-red-950/40' : undefined)}
    />
  );
}

function InsuranceSummary({ profile, reference }: { profile: Profile; reference: string }) {
  const pending = profile.insurance_pending_cancel_date;
  const upcoming = pending !== undefined && pending > reference;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <TriBadge label="Insurance indicator" value={profile.indicator_insurance} />
        {upcoming ? (
          <Badge tone="warn" label="Cancellation pending">
            effective {formatDate(pending)}
          </Badge>
        ) : null}
      </div>
      <Facts
        items={[
          { term: 'Cancellations', value: formatCount(profile.insurance_cancel_count) },
          { term: 'Last cancelled', value: formatDate(profile.insurance_last_canceled) },
          { term: 'Pending cancellation date', value: formatDate(pending) },
        ]}
      />
    </div>
  );
}

function PolicyStatus({ entry, reference }: { entry: InsuranceEntry; reference: string }) {
  if (isPendingCancellation(entry, reference)) {
    return (
      <Badge tone="warn" label="Cancellation pending">
        {formatDate(entry.cancel_effective_date)}
      </Badge>
    );
  }
  const label = insuranceStatusLabel(entry.insurance_status);
  return <Badge tone={label === 'Active' ? 'good' : 'neutral'}>{label}</Badge>;
}

function cancellationText(entry: InsuranceEntry): string {
  if (!entry.cancel_method && !entry.cancel_effective_date) return MISSING;
  const method = entry.cancel_method ? `${entry.cancel_method} ` : '';
  return `${method}${formatDate(entry.cancel_effective_date)}`.trim();
}

function insuranceColumns(reference: string): DataTableColumn<InsuranceEntry>[] {
  return [
    { id: 'type', header: 'Type', value: (e) => e.insurance_type_code ?? MISSING },
    { id: 'form', header: 'Form', value: (e) => e.insurance_form_code ?? MISSING },
    { id: 'insurer', header: 'Insurer', value: (e) => e.insurance_carrier ?? MISSING },
    { id: 'policy', header: 'Policy', value: (e) => e.policy_number ?? MISSING },
    { id: 'coverage', header: 'Coverage', value: (e) => formatDollars(e.minimum_coverage_amount) },
    { id: 'effective', header: 'Effective', value: (e) => formatDate(e.effective_date) },
    { id: 'cancellation', header: 'Cancellation', value: cancellationText },
    {
      id: 'status',
      header: 'Status',
      value: (e) => insuranceStatusLabel(e.insurance_status),
      cell: (e) => <PolicyStatus entry={e} reference={reference} />,
    },
  ];
}

function InsuranceHistoryTable({ profile, reference }: { profile: Profile; reference: string }) {
  const entries = profile.insurance_history ?? [];
  return (
    <DataTable
      caption={`Insurance history (${formatCount(entries.length)} policies)`}
      sortable={false}
      columns={insuranceColumns(reference)}
      data={entries}
      getRowId={(e) => e._id ?? String(entries.indexOf(e))}
      empty="No insurance filings on record."
      rowClassName={(e) =>
        isPendingCancellation(e, reference) ? 'bg-amber-50 dark:bg-amber-950/40' : undefined
      }
    />
  );
}

function ProcessAgent({ profile }: { profile: Profile }) {
  const cityLine = [
    profile.boc3_address_city,
    profile.boc3_address_state,
    profile.boc3_address_zip_code,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Section id="authority-boc3" title="BOC-3 process agent">
      {profile.boc3_company_name ? (
        <address className="text-sm not-italic">
          <span className="font-medium">{profile.boc3_company_name}</span>
          {profile.boc3_attn ? <span className="block">Attn: {profile.boc3_attn}</span> : null}
          {profile.boc3_address_street ? (
            <span className="block">{profile.boc3_address_street}</span>
          ) : null}
          {cityLine ? <span className="block">{cityLine}</span> : null}
          {profile.boc3_address_country_code ? (
            <span className="block">{profile.boc3_address_country_code}</span>
          ) : null}
        </address>
      ) : (
        <p className="text-sm">No process agent (BOC-3) on file.</p>
      )}
    </Section>
  );
}

/** Authority per type with its history, insurance against requirements and the BOC-3 agent. */
export function AuthorityTab({ profile }: ProfileTabProps) {
  const reference = profile.snapshot_date ?? todayIso();
  return (
    <div className="space-y-8">
      <Section id="authority-status" title="Authority">
        <TriBadge label="Authority indicator" value={profile.indicator_authority} />
        <AuthorityStatusTable profile={profile} />
        <RevocationSummary profile={profile} />
      </Section>
      <AuthorityTimeline profile={profile} />
      <Section id="authority-insurance" title="Insurance">
        <InsuranceSummary profile={profile} reference={reference} />
        <CoverageTable profile={profile} />
        <InsuranceHistoryTable profile={profile} reference={reference} />
      </Section>
      <ProcessAgent profile={profile} />
    </div>
  );
}
