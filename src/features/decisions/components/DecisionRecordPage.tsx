/**
 * One decision record, laid out to print (or "Save as PDF") on one page for a normal carrier: the
 * decision, who and when, the verdict with every rule result and its evidence values, the policy
 * version, the profile's snapshot and fetch time, the key fields, and the chain hashes.
 */
import { Link, useParams } from 'react-router';
import { BUTTON, MUTED } from '../../../components/controls.ts';
import { QueryState } from '../../../components/QueryState.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import {
  DECISION_LABELS,
  isExpired,
  useDecision,
  type DecisionRecord,
} from '../../../lib/vetting-api.ts';

type Field = DecisionRecord['profile']['identity'][number];

function show(value: Field['value']): string {
  if (value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function Fields({ title, fields }: { title: string; fields: Field[] }) {
  return (
    <section className="break-inside-avoid">
      <h3 className="font-semibold">{title}</h3>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-xs">
        {fields.map((field) => (
          <div key={field.name} className="contents">
            <dt className="text-neutral-700 dark:text-neutral-300">{field.name}</dt>
            <dd className="font-mono break-all">{show(field.value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Record({ record }: { record: DecisionRecord }) {
  const name = record.profile.identity.find((field) => field.name === 'legal_name')?.value;
  const title = `Decision #${record.id} · ${typeof name === 'string' ? name : `USDOT ${record.dot_number}`}`;
  const { verdict } = record;
  return (
    <article className="text-sm print:text-[10px] print:leading-tight">
      <title>{`${title} · carrier-desk`}</title>
      <div className="mb-4 flex flex-wrap items-center gap-3 print:hidden">
        <Link to="/decisions" className="text-sky-800 underline dark:text-sky-300">
          All decisions
        </Link>
        <button type="button" className={BUTTON} onClick={() => window.print()}>
          Print or save as PDF
        </button>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight print:text-lg">{title}</h1>
      <p className="mt-1">
        USDOT {record.dot_number} ·{' '}
        <Link
          to={carrierPath(record.dot_number)}
          className="text-sky-800 underline dark:text-sky-300"
        >
          carrier profile
        </Link>
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="font-medium">Decision</dt>
        <dd>
          <strong>{DECISION_LABELS[record.decision]}</strong>
          {isExpired(record) ? ' — expired, re-vet' : ''}
        </dd>
        <dt className="font-medium">Decided by</dt>
        <dd>
          {record.user.name} ({record.user.id}) on {formatDateTime(record.decided_at)}
        </dd>
        <dt className="font-medium">Re-vet by</dt>
        <dd>{record.expires_on ? formatDate(record.expires_on) : '—'}</dd>
        <dt className="font-medium">Conditions</dt>
        <dd className="whitespace-pre-wrap">{record.conditions ?? '—'}</dd>
        <dt className="font-medium">Note</dt>
        <dd className="whitespace-pre-wrap">{record.note ?? '—'}</dd>
        {record.supersedes !== null ? (
          <>
            <dt className="font-medium">Corrects</dt>
            <dd>
              <Link
                to={`/decisions/${record.supersedes}`}
                className="text-sky-800 underline dark:text-sky-300"
              >
                record #{record.supersedes}
              </Link>
            </dd>
          </>
        ) : null}
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
      </dl>
      <h2 className="mt-4 text-lg font-semibold print:mt-2 print:text-sm">Rule results</h2>
      <table className="mt-1 w-full border-collapse text-left text-xs">
        <caption className="sr-only">
          Every rule of the policy, its outcome and the values it read
        </caption>
        <thead>
          <tr className="border-b border-neutral-400">
            <th scope="col" className="py-1 pr-2">
              Rule
            </th>
            <th scope="col" className="py-1 pr-2">
              Outcome
            </th>
            <th scope="col" className="py-1 pr-2">
              Finding
            </th>
            <th scope="col" className="py-1">
              Evidence
            </th>
          </tr>
        </thead>
        <tbody>
          {verdict.reasons.map((reason) => (
            <tr
              key={reason.rule}
              className="border-b border-neutral-200 align-top dark:border-neutral-800"
            >
              <td className="py-1 pr-2">{reason.label ?? reason.rule}</td>
              <td className="py-1 pr-2 capitalize">
                {reason.outcome}
                {reason.not_enough_data ? ' (not enough data)' : ''}
                {reason.vendor_derived ? ' (vendor-computed)' : ''}
              </td>
              <td className="py-1 pr-2">{reason.message}</td>
              <td className="py-1 font-mono break-all">
                {reason.fields.map((field) => `${field.name}=${show(field.value)}`).join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2 className="mt-4 text-lg font-semibold print:mt-2 print:text-sm">Key fields seen</h2>
      <div className="mt-1 grid gap-3 sm:grid-cols-2 print:grid-cols-2">
        <Fields title="Identity" fields={record.profile.identity} />
        <Fields title="Authority" fields={record.profile.authority} />
        <Fields title="Insurance" fields={record.profile.insurance} />
        <Fields title="Safety" fields={record.profile.safety} />
      </div>
      <h2 className="mt-4 text-lg font-semibold print:mt-2 print:text-sm">Chain</h2>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 font-mono text-xs break-all">
        <dt className="font-sans font-medium">Record hash</dt>
        <dd data-testid="record-hash">{record.hash}</dd>
        <dt className="font-sans font-medium">Previous hash</dt>
        <dd>{record.prev_hash}</dd>
      </dl>
      <p className={`${MUTED} mt-2`}>
        SHA-256 over the previous record's hash and this record's content; GET
        /api/local/decisions/verify re-computes the chain.
      </p>
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
