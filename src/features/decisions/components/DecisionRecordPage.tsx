/**
 * One decision record, laid out to print (or "Save as PDF") on one Letter or A4 page for a typical
 * carrier: the organisation's name (`ORG_NAME`), the decision, who and when, the verdict with every
 * rule result and its evidence values in words, the policy version, the profile's snapshot and
 * fetch time, the tender check it was made with (if any), the key fields, the chain hashes and the record's signed receipt (DecisionReceipt.tsx).
 * The print rules are the `print:` classes here and the `decision-record` page in src/index.css.
 */
import { Link, useParams } from 'react-router';
import { BUTTON, MUTED } from '../../../components/controls.ts';
import { QueryState } from '../../../components/QueryState.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import {
  DECISION_LABELS,
  isExpired,
  type DecisionRecord,
} from '../../../lib/vetting/decision-record.ts';
import { useDecision } from '../api/decisions.ts';
import { useOrgName } from '../api/org-name.ts';
import { DecisionReceipt } from './DecisionReceipt.tsx';
import { TenderAttachment } from '../../../entities/tender-check/components/TenderAttachment.tsx';
import { evidenceLabel, evidenceValue } from '../model/evidence.ts';

type Field = DecisionRecord['profile']['identity'][number];

const LINK = 'text-sky-800 underline dark:text-sky-300 print:text-black print:no-underline';

function Fields({ title, fields }: { title: string; fields: Field[] }) {
  return (
    <section className="min-w-0 break-inside-avoid">
      <h3 className="font-semibold">{title}</h3>
      <dl className="mt-1 grid grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] gap-x-2 text-xs sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)] print:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)] print:text-[8px] print:leading-[1.25]">
        {fields.map((field) => (
          <div key={field.name} className="contents">
            <dt className="text-neutral-700 dark:text-neutral-300 print:text-neutral-700">
              {evidenceLabel(field.name)}
            </dt>
            <dd className="break-words">{evidenceValue(field.name, field.value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const OUTCOME_LABELS: Record<string, string> = { pass: 'Pass', review: 'Review', fail: 'Fail' };

const OUTCOME_TONE: Record<string, string> = {
  pass: 'text-emerald-800 dark:text-emerald-300',
  review: 'text-amber-800 dark:text-amber-300',
  fail: 'text-red-800 dark:text-red-300',
};

function RuleResults({ reasons }: { reasons: DecisionRecord['verdict']['reasons'] }) {
  return (
    <table className="mt-1 w-full table-fixed border-collapse text-left text-xs print:text-[8.5px] print:leading-tight">
      <caption className="sr-only">
        Every rule of the policy, its outcome, its finding and the values it read
      </caption>
      <colgroup>
        <col className="w-[34%] sm:w-[24%]" />
        <col />
      </colgroup>
      <thead>
        <tr className="border-b border-neutral-400">
          <th scope="col" className="py-1 pr-2">
            Rule and outcome
          </th>
          <th scope="col" className="py-1">
            Finding and evidence
          </th>
        </tr>
      </thead>
      <tbody>
        {reasons.map((reason) => (
          <tr
            key={reason.rule}
            className="border-b border-neutral-200 align-top dark:border-neutral-800 print:border-neutral-300"
          >
            <td className="py-1 pr-2 break-words print:py-0.5">
              <span className="font-medium">{reason.label ?? evidenceLabel(reason.rule)}</span>
              <span
                className={`block print:inline print:before:content-['_·_'] ${OUTCOME_TONE[reason.outcome] ?? ''} print:text-black`}
              >
                {OUTCOME_LABELS[reason.outcome] ?? reason.outcome}
                {reason.not_enough_data ? ' (not enough data)' : ''}
                {reason.vendor_derived ? ' (vendor-computed)' : ''}
              </span>
            </td>
            <td className="py-1 break-words print:py-0.5">
              <p>{reason.message}</p>
              {reason.fields.length > 0 ? (
                <ul className="mt-0.5 flex flex-wrap gap-x-3 text-neutral-700 dark:text-neutral-300 print:mt-0 print:gap-x-2 print:text-[8px] print:text-neutral-700">
                  {reason.fields.map((field) => (
                    <li key={field.name} className="min-w-0 break-words">
                      {evidenceLabel(field.name)}:{' '}
                      <span className="text-neutral-950 dark:text-neutral-50 print:text-black">
                        {evidenceValue(field.name, field.value)}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Record({ record }: { record: DecisionRecord }) {
  const orgName = useOrgName();
  const name = record.profile.identity.find((field) => field.name === 'legal_name')?.value;
  const title = `Decision #${record.id} · ${typeof name === 'string' ? name : `USDOT ${record.dot_number}`}`;
  const { verdict } = record;
  return (
    <article
      className="text-sm print:text-[9.5px] print:leading-snug print:[page:decision-record]"
      data-testid="decision-record"
    >
      <title>{`${title} · carrier-desk`}</title>
      <div className="mb-4 flex flex-wrap items-center gap-3 print:hidden">
        <Link to="/decisions" className={LINK}>
          All decisions
        </Link>
        <button type="button" className={BUTTON} onClick={() => window.print()}>
          Print or save as PDF
        </button>
      </div>
      <p
        className="text-xs font-medium text-neutral-600 dark:text-neutral-400 print:text-[9px] print:text-neutral-700"
        data-testid="record-org"
      >
        <span className="font-semibold text-neutral-900 dark:text-neutral-100 print:text-black">
          {orgName}
        </span>{' '}
        · vetting decision record
      </p>
      <h1 className="text-2xl font-semibold tracking-tight break-words print:text-base">{title}</h1>
      <p className="mt-1">
        USDOT {record.dot_number}
        <span className="print:hidden">
          {' · '}
          <Link to={carrierPath(record.dot_number)} className={LINK}>
            carrier profile
          </Link>
        </span>
      </p>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 print:mt-1.5 print:grid-cols-[auto_minmax(0,1fr)_auto_minmax(0,1fr)] print:gap-x-3 print:gap-y-0">
        <dt className="font-medium">Decision</dt>
        <dd>
          <strong>{DECISION_LABELS[record.decision]}</strong>
          {record.override_reason !== undefined ? (
            <>
              {' — '}
              <strong className="text-amber-800 dark:text-amber-300 print:text-black">
                override
              </strong>{' '}
              of a {verdict.verdict} verdict
            </>
          ) : null}
          {isExpired(record) ? ' — expired, re-vet' : ''}
        </dd>
        <dt className="font-medium">Decided by</dt>
        <dd className="break-words">
          {record.user.name} ({record.user.id}) on {formatDateTime(record.decided_at)}
        </dd>
        <dt className="font-medium">Verdict seen</dt>
        <dd>
          <strong className="capitalize">{verdict.verdict}</strong> under policy version{' '}
          {record.policy_version}, evaluated {formatDateTime(verdict.evaluated_at)}
        </dd>
        <dt className="font-medium">Data</dt>
        <dd>
          snapshot of {formatDate(record.profile.snapshot_date)}, fetched{' '}
          {formatDateTime(record.profile.fetched_at)}
        </dd>
        <dt className="font-medium">Re-vet by</dt>
        <dd>{record.expires_on ? formatDate(record.expires_on) : '—'}</dd>
        {record.tender_check ? (
          <>
            <dt className="font-medium">Identity checked</dt>
            <dd className="break-words">
              <TenderAttachment attachment={record.tender_check} linkClassName={LINK} />
            </dd>
          </>
        ) : null}
        {record.supersedes !== null ? (
          <>
            <dt className="font-medium">Corrects</dt>
            <dd>
              <Link to={`/decisions/${record.supersedes}`} className={LINK}>
                record #{record.supersedes}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 print:mt-1 print:gap-y-0">
        {record.override_reason !== undefined ? (
          <>
            <dt className="font-medium">Override reason</dt>
            <dd
              className="border-l-4 border-amber-700 pl-2 break-words whitespace-pre-wrap dark:border-amber-400 print:border-black"
              data-testid="override-reason"
            >
              {record.override_reason}
            </dd>
          </>
        ) : null}
        <dt className="font-medium">Conditions</dt>
        <dd className="break-words whitespace-pre-wrap">{record.conditions ?? '—'}</dd>
        <dt className="font-medium">Note</dt>
        <dd className="break-words whitespace-pre-wrap">{record.note ?? '—'}</dd>
      </dl>
      <h2 className="mt-4 text-lg font-semibold print:mt-2 print:text-[10px]">Rule results</h2>
      <RuleResults reasons={verdict.reasons} />
      <h2 className="mt-4 text-lg font-semibold print:mt-2 print:text-[10px]">Key fields seen</h2>
      <div className="mt-1 grid gap-3 sm:grid-cols-2 print:grid-cols-4 print:gap-2">
        <Fields title="Identity" fields={record.profile.identity} />
        <Fields title="Authority" fields={record.profile.authority} />
        <Fields title="Insurance" fields={record.profile.insurance} />
        <Fields title="Safety" fields={record.profile.safety} />
      </div>
      <h2 className="mt-4 text-lg font-semibold print:mt-1 print:text-[10px]">Chain</h2>
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 font-mono text-xs break-all print:text-[7.5px]">
        <dt className="font-sans font-medium">Record hash</dt>
        {/* covers the second the record was made: e2e/visual.spec.ts shows a fixed text here */}
        <dd data-testid="record-hash" data-visual="dynamic">
          {record.hash}
        </dd>
        <dt className="font-sans font-medium">Previous hash</dt>
        <dd>{record.prev_hash}</dd>
      </dl>
      <p className={`${MUTED} mt-2 print:hidden`}>
        SHA-256 over the previous record's hash and this record's content; GET
        /api/local/decisions/verify re-computes the chain.
      </p>
      <DecisionReceipt id={String(record.id)} />
    </article>
  );
}

type LoadedRecord = NonNullable<ReturnType<typeof useDecision>['data']>;

export function DecisionRecordPage() {
  const { id = '' } = useParams();
  const record = useDecision(id);
  // loaded: the record draws its own title and heading
  if (record.data) return <Record record={record.data} />;
  return (
    <>
      <title>{`Decision ${id} · carrier-desk`}</title>
      <h1 className="mb-4 text-2xl font-semibold tracking-tight">Decision {id}</h1>
      <QueryState<LoadedRecord> query={record} what="the decision record">
        {(data) => <Record record={data} />}
      </QueryState>
    </>
  );
}
