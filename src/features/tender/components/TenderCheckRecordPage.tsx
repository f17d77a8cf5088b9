/** One stored tender check (`/tender-checks/:id`): its answer as it was given, with its inputs. */
import { Link, useParams } from 'react-router';
import { MUTED } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { CARGO_CLASS_LABELS } from '../../../lib/vetting/rules.ts';
import { formatDate, formatDollars, formatPhone } from '../../../lib/format.ts';
import { TENDER_EQUIPMENT_LABELS, type TenderCheckAnswer } from '../../../lib/tender/contract.ts';
import { useTenderCheck } from '../api/tender.ts';
import { TenderAnswerView } from './TenderAnswerView.tsx';

const LINK = 'text-sky-800 underline dark:text-sky-300';

function Inputs({ input }: { input: TenderCheckAnswer['input'] }) {
  const load = input.load;
  const rows: [string, string][] = [
    [
      'Carrier as claimed',
      input.dot_number ? `USDOT ${input.dot_number}` : (input.docket_number ?? '—'),
    ],
    ['Phone', input.phone ? formatPhone(input.phone) : input.redacted ? 'removed' : '—'],
    ['E-mail', input.email ?? (input.redacted ? 'removed' : '—')],
    ['Contact name', input.contact_name ?? (input.redacted ? 'removed' : '—')],
  ];
  if (load) {
    rows.push(
      [
        'Cargo classes',
        load.cargo_classes
          ?.map((c) => CARGO_CLASS_LABELS[c as keyof typeof CARGO_CLASS_LABELS] ?? c)
          .join(', ') || '—',
      ],
      ['Cargo value', load.cargo_value !== undefined ? formatDollars(load.cargo_value) : '—'],
      ['Hazardous', load.hazmat === undefined ? '—' : load.hazmat ? 'yes' : 'no'],
      [
        'Equipment',
        load.equipment
          ? (TENDER_EQUIPMENT_LABELS[load.equipment as keyof typeof TENDER_EQUIPMENT_LABELS] ??
            load.equipment)
          : '—',
      ],
      ['Pickup', load.pickup_date ? formatDate(load.pickup_date) : '—'],
      ['From → to', `${load.origin_state ?? '—'} → ${load.destination_state ?? '—'}`],
    );
  }
  return (
    <section aria-labelledby="tender-inputs" className="mt-6">
      <h2 id="tender-inputs" className="text-lg font-semibold">
        The offer as checked
      </h2>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-neutral-700 dark:text-neutral-300">{term}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function TenderCheckRecordPage() {
  const { id = '' } = useParams();
  const check = useTenderCheck(id);
  return (
    <div>
      <PageHeader
        title={`Tender check #${id}`}
        description="A stored check: the answer as it was given, its reasons and evidence, and the offer it judged."
      />
      <p className="-mt-6 mb-6 flex flex-wrap gap-4 text-sm">
        <Link to="/tender-checks" className={LINK}>
          All tender checks
        </Link>
        {check.data?.carrier ? (
          <Link to={`/tender-check?dot_number=${check.data.carrier.dot_number}`} className={LINK}>
            Check another offer for this carrier
          </Link>
        ) : null}
      </p>
      {check.isError ? (
        <ErrorState
          error={check.error}
          what="the tender check"
          onRetry={() => void check.refetch()}
        />
      ) : check.isPending ? (
        <p className={MUTED}>Loading the tender check…</p>
      ) : (
        <>
          <TenderAnswerView answer={check.data} />
          <Inputs input={check.data.input} />
        </>
      )}
    </div>
  );
}
