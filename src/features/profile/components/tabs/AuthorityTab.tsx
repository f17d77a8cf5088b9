import { Badge } from '../../../../components/Badge.tsx';
import { DefinitionList } from '../../../../components/DefinitionList.tsx';
import {
  MISSING,
  TRI_STATE_LABELS,
  formatCount,
  formatDate,
  formatDollars,
  formatFlag,
  triState,
} from '../../../../lib/format.ts';
import type { InsuranceEntry, Profile } from '../../../../lib/service/index.ts';
import {
  AUTHORITY_TYPES,
  authorityTimeline,
  coverageRows,
  insuranceStatusLabel,
  isPendingCancellation,
  todayIso,
  type CoverageRow,
} from './authority.ts';
import type { ProfileTabProps } from './types.ts';

const TABLE = 'w-full border-collapse text-left text-sm';
const CAPTION = 'mb-2 text-left text-lg font-semibold caption-top';
const TH = 'border-b border-neutral-300 px-2 py-1.5 font-semibold dark:border-neutral-700';
const TD = 'border-b border-neutral-200 px-2 py-1.5 align-top dark:border-neutral-800';

function TriBadge({ label, value }: { label: string; value: boolean | null | undefined }) {
  const state = triState(value);
  const tone = state === 'pass' ? 'good' : state === 'fail' ? 'bad' : 'neutral';
  return (
    <Badge tone={tone} label={label}>
      {TRI_STATE_LABELS[state]}
    </Badge>
  );
}

function AuthorityStatusTable({ profile }: { profile: Profile }) {
  return (
    <div className="relative overflow-x-auto">
      <table className={TABLE}>
        <caption className={CAPTION}>Operating authority by type</caption>
        <thead>
          <tr>
            {[
              'Type',
              'Status',
              'Pending',
              'Under review',
              'Revocation pending',
              'Granted',
              'Age (days)',
              'Last revoked',
            ].map((heading) => (
              <th key={heading} scope="col" className={TH}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {AUTHORITY_TYPES.map(({ id, label }) => (
            <tr key={id}>
              <th scope="row" className={`${TD} font-medium`}>
                {label}
              </th>
              <td className={TD}>{profile[`authority_${id}`] ?? MISSING}</td>
              <td className={TD}>{formatFlag(profile[`authority_${id}_pending`])}</td>
              <td className={TD}>{formatFlag(profile[`authority_${id}_review`])}</td>
              <td className={TD}>{formatFlag(profile[`authority_${id}_revocation`])}</td>
              <td className={TD}>{formatDate(profile[`authority_start_${id}`])}</td>
              <td className={TD}>{formatCount(profile[`authority_age_${id}`])}</td>
              <td className={TD}>{formatDate(profile[`authority_${id}_last_revocation_date`])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RevocationSummary({ profile }: { profile: Profile }) {
  return (
    <DefinitionList
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
    <section aria-labelledby="authority-history">
      <h3 id="authority-history" className="mb-2 text-lg font-semibold">
        Authority history
      </h3>
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
    </section>
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

function CoverageTable({ profile }: { profile: Profile }) {
  return (
    <div className="relative overflow-x-auto">
      <table className={TABLE}>
        <caption className={CAPTION}>Insurance on file vs required</caption>
        <thead>
          <tr>
            {['Coverage', 'On file', 'Required', 'Verdict'].map((heading) => (
              <th key={heading} scope="col" className={TH}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {coverageRows(profile).map((row) => (
            <tr
              key={row.id}
              className={row.status === 'shortfall' ? 'bg-red-50 dark:bg-red-950/40' : undefined}
            >
              <th scope="row" className={`${TD} font-medium`}>
                {row.label}
              </th>
              <td className={TD}>{formatDollars(row.onFile)}</td>
              <td className={TD}>{formatDollars(row.required)}</td>
              <td className={TD}>
                <CoverageVerdict row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
      <DefinitionList
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

function InsuranceHistoryTable({ profile, reference }: { profile: Profile; reference: string }) {
  const entries = profile.insurance_history ?? [];
  const headings = [
    'Type',
    'Form',
    'Insurer',
    'Policy',
    'Coverage',
    'Effective',
    'Cancellation',
    'Status',
  ];
  return (
    <div className="relative overflow-x-auto">
      <table className={TABLE}>
        <caption className={CAPTION}>
          Insurance history ({formatCount(entries.length)} policies)
        </caption>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th key={heading} scope="col" className={TH}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={headings.length} className={TD}>
                No insurance filings on record.
              </td>
            </tr>
          ) : (
            entries.map((entry, index) => (
              <tr
                key={entry._id ?? index}
                className={
                  isPendingCancellation(entry, reference)
                    ? 'bg-amber-50 dark:bg-amber-950/40'
                    : undefined
                }
              >
                <td className={TD}>{entry.insurance_type_code ?? MISSING}</td>
                <td className={TD}>{entry.insurance_form_code ?? MISSING}</td>
                <td className={TD}>{entry.insurance_carrier ?? MISSING}</td>
                <td className={TD}>{entry.policy_number ?? MISSING}</td>
                <td className={TD}>{formatDollars(entry.minimum_coverage_amount)}</td>
                <td className={TD}>{formatDate(entry.effective_date)}</td>
                <td className={TD}>{cancellationText(entry)}</td>
                <td className={TD}>
                  <PolicyStatus entry={entry} reference={reference} />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
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
    <section aria-labelledby="authority-boc3">
      <h3 id="authority-boc3" className="mb-2 text-lg font-semibold">
        BOC-3 process agent
      </h3>
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
    </section>
  );
}

/** Authority per type with its history, insurance against requirements and the BOC-3 agent. */
export function AuthorityTab({ profile }: ProfileTabProps) {
  const reference = profile.snapshot_date ?? todayIso();
  return (
    <div className="space-y-8">
      <section aria-labelledby="authority-status" className="space-y-4">
        <h3 id="authority-status" className="text-lg font-semibold">
          Authority
        </h3>
        <TriBadge label="Authority indicator" value={profile.indicator_authority} />
        <AuthorityStatusTable profile={profile} />
        <RevocationSummary profile={profile} />
      </section>
      <AuthorityTimeline profile={profile} />
      <section aria-labelledby="authority-insurance" className="space-y-4">
        <h3 id="authority-insurance" className="text-lg font-semibold">
          Insurance
        </h3>
        <InsuranceSummary profile={profile} reference={reference} />
        <CoverageTable profile={profile} />
        <InsuranceHistoryTable profile={profile} reference={reference} />
      </section>
      <ProcessAgent profile={profile} />
    </div>
  );
}
