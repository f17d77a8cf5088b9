/**
 * Every stored tender check, newest first (`/tender-checks`): filter by carrier (in the URL, so
 * the profile links to its own), page, and export the matching checks as CSV.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BUTTON, INPUT, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { Pager } from '../../../components/data-table/Pager.tsx';
import { ScrollArea } from '../../../components/ScrollHint.tsx';
import { allTenderChecks, useTenderChecks } from '../../../entities/tender-check/api.ts';
import { TenderAnswerBadge } from '../../../entities/tender-check/components/TenderAnswerBadge.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { downloadCsv } from '../../../lib/download.ts';
import { formatDate, formatDateTime, formatPhone, formatUsd } from '../../../lib/format.ts';
import type { TenderCheckListItem } from '../../../lib/tender/contract.ts';
import { tenderChecksCsv } from '../model/csv.ts';

const LINK = 'text-sky-800 underline dark:text-sky-300';
const FILTER_PROBLEM_ID = 'tender-filter-problem';

function CarrierFilter({
  value,
  onApply,
}: {
  value: string;
  onApply: (dot: string | undefined) => void;
}) {
  const [text, setText] = useState(value);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dot = text.trim().replace(/^usdot\s*/i, '');
    if (dot !== '' && !/^\d{1,8}$/.test(dot)) {
      setProblem('Enter a USDOT number (digits only), or leave it empty for every carrier.');
      return;
    }
    setProblem(undefined);
    onApply(dot === '' ? undefined : dot.replace(/^0+(?=\d)/, ''));
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Filter tender checks"
      className="flex flex-wrap items-end gap-3"
    >
      <label className={LABEL}>
        Carrier: USDOT number
        <input
          className={`${INPUT} min-h-9`}
          name="dot_number"
          inputMode="numeric"
          autoComplete="off"
          value={text}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': FILTER_PROBLEM_ID } : {})}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(undefined);
          }}
        />
      </label>
      <div className="flex gap-2">
        <button type="submit" className={`${PRIMARY_BUTTON} min-h-9`}>
          Apply filter
        </button>
        <button
          type="button"
          className={`${BUTTON} min-h-9`}
          onClick={() => {
            setText('');
            setProblem(undefined);
            onApply(undefined);
          }}
        >
          Clear
        </button>
      </div>
      {problem ? (
        <p
          id={FILTER_PROBLEM_ID}
          role="alert"
          className="basis-full text-sm font-medium text-red-800 dark:text-red-300"
        >
          {problem}
        </p>
      ) : null}
    </form>
  );
}

function Carrier({ check }: { check: TenderCheckListItem }) {
  if (!check.dot_number) return <span className={MUTED}>not found</span>;
  return (
    <>
      <Link to={carrierPath(check.dot_number)} className={LINK}>
        {check.legal_name ?? `USDOT ${check.dot_number}`}
      </Link>
      <div className={MUTED}>USDOT {check.dot_number}</div>
    </>
  );
}

function contactOf(check: TenderCheckListItem): string {
  const parts = [check.phone ? formatPhone(check.phone) : '', check.email ?? ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

function Cards({ items }: { items: TenderCheckListItem[] }) {
  return (
    <ul aria-label="Tender checks, newest first" className="mt-4 space-y-3 md:hidden">
      {items.map((check) => (
        <li
          key={check.id}
          className="rounded-md border border-neutral-200 bg-white p-3 text-sm dark:border-neutral-800 dark:bg-neutral-900"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link to={`/tender-checks/${check.id}`} className={`${LINK} font-medium`}>
              Check #{check.id}
            </Link>
            <TenderAnswerBadge answer={check.answer} />
          </div>
          <p className="mt-1 break-words">
            <Carrier check={check} />
          </p>
          <p className="mt-1 break-words">{contactOf(check)}</p>
          <p className={`${MUTED} mt-1`}>
            {formatDateTime(check.checked_at)} · {check.user.name} · {formatUsd(check.cost_usd)}
            {check.pending > 0 ? ` · ${check.pending} not run` : ''}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Table({ items }: { items: TenderCheckListItem[] }) {
  return (
    <ScrollArea frameClassName="mt-4 hidden md:block">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Tender checks, newest first</caption>
        <thead>
          <tr className="border-b border-neutral-300 dark:border-neutral-700">
            {['Check', 'Checked', 'Carrier', 'Answer', 'Offer from', 'By', 'Cost', 'Data of'].map(
              (h) => (
                <th key={h} scope="col" className="px-2 py-2 font-semibold">
                  {h}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((check) => (
            <tr
              key={check.id}
              className="border-b border-neutral-200 align-top dark:border-neutral-800"
            >
              <td className="px-2 py-2">
                <Link to={`/tender-checks/${check.id}`} className={LINK}>
                  #{check.id}
                </Link>
                {check.decision_ids.length > 0 ? (
                  <div className={MUTED}>
                    in decision {check.decision_ids.map((id) => `#${id}`).join(', ')}
                  </div>
                ) : null}
              </td>
              <td className="px-2 py-2 whitespace-nowrap">{formatDateTime(check.checked_at)}</td>
              <td className="px-2 py-2">
                <Carrier check={check} />
              </td>
              <td className="px-2 py-2">
                <TenderAnswerBadge answer={check.answer} />
                {check.pending > 0 ? (
                  <div className={MUTED}>{check.pending} search(es) not run</div>
                ) : null}
              </td>
              <td className="px-2 py-2 break-all">{contactOf(check)}</td>
              <td className="px-2 py-2">{check.user.name}</td>
              <td className="px-2 py-2 tabular-nums">{formatUsd(check.cost_usd)}</td>
              <td className="px-2 py-2 whitespace-nowrap">
                {check.snapshot_date ? formatDate(check.snapshot_date) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

export function TenderChecksPage() {
  const [params, setParams] = useSearchParams();
  const dot = params.get('dot_number') ?? undefined;
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const checks = useTenderChecks({ dot_number: dot, page });
  const [exporting, setExporting] = useState<string | undefined>(undefined);

  const apply = (next: { dot_number?: string | undefined; page?: number | undefined }) => {
    const search = new URLSearchParams();
    if (next.dot_number) search.set('dot_number', next.dot_number);
    if (next.page && next.page > 1) search.set('page', String(next.page));
    setParams(search);
  };
  const exportCsv = async () => {
    setExporting('Preparing the CSV…');
    try {
      const all = await allTenderChecks({ dot_number: dot });
      downloadCsv(
        tenderChecksCsv(all),
        `tender-checks${dot ? `-${dot}` : ''}-${new Date().toISOString().slice(0, 10)}.csv`,
      );
      setExporting(`Exported ${all.length} check${all.length === 1 ? '' : 's'}.`);
    } catch (error) {
      setExporting(`The export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const total = checks.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / (checks.data?.page_size ?? 50)));
  const items = checks.data?.items ?? [];
  return (
    <div>
      <PageHeader
        title="Tender checks"
        description="Every offer checked before a tender: who checked it, when, the answer and what it cost. Phone and e-mail are kept only as long as the team’s retention setting says."
      />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <CarrierFilter
          key={dot ?? ''}
          value={dot ?? ''}
          onApply={(d) => apply({ dot_number: d })}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Link to="/tender-check" className={`${PRIMARY_BUTTON} min-h-9`}>
            New tender check
          </Link>
          <button
            type="button"
            className={`${BUTTON} min-h-9`}
            disabled={total === 0}
            onClick={() => void exportCsv()}
          >
            Export CSV
          </button>
        </div>
      </div>
      <p role="status" className={`${MUTED} mt-2 min-h-5`}>
        {exporting ?? ''}
      </p>
      {checks.isError ? (
        <ErrorState
          error={checks.error}
          what="the tender checks"
          onRetry={() => void checks.refetch()}
        />
      ) : checks.isPending ? (
        <p className={MUTED}>Loading the tender checks…</p>
      ) : items.length === 0 ? (
        <p className="mt-4">
          {dot ? `No tender check on USDOT ${dot} yet.` : 'No tender check yet.'}{' '}
          <Link to={dot ? `/tender-check?dot_number=${dot}` : '/tender-check'} className={LINK}>
            Check an offer
          </Link>
        </p>
      ) : (
        <>
          <p className={`${MUTED} mt-2`}>
            {total} check{total === 1 ? '' : 's'}
            {dot ? ` on USDOT ${dot}` : ''}
          </p>
          <Cards items={items} />
          <Table items={items} />
          {pages > 1 ? (
            <div className="mt-4">
              <Pager
                page={page}
                pageCount={pages}
                onPageChange={(p) => apply({ dot_number: dot, page: p })}
                label="Tender check pages"
              />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
