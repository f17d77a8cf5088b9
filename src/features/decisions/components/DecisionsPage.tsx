/**
 * Every decision record, newest first, with filters in the URL, the chain check and a CSV export.
 * Records are append-only: a correction is a new record that supersedes an earlier one.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { NeedsRevet } from './NeedsRevet.tsx';
import { BUTTON, INPUT, LABEL, MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { ScrollArea } from '../../../components/ScrollHint.tsx';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import {
  DECISIONS,
  DECISION_LABELS,
  isExpired,
  type DecisionRecord,
} from '../../../lib/vetting/decision-record.ts';
import { allDecisions, useChainCheck } from '../api/decisions.ts';
import { useDecisions } from '../../../entities/vetting/decisions.ts';
import { useMatchingDecisions } from '../api/matching.ts';
import { decisionsCsv } from '../model/csv.ts';
import {
  appliedFilters,
  carrierFilters,
  dateRangeProblem,
  readCarrierQuery,
  readFilters,
  writeFilters,
  type PageFilters,
} from '../model/filters.ts';
import { downloadCsv } from '../../../lib/download.ts';
import { isRevetView } from '../model/revet.ts';
import { RevetDueList, RevetViewSwitch } from './RevetQueue.tsx';
import { standingFor, type DecisionStanding as Standing } from '../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';

/** The standings of the carriers' current decisions, by DOT (one request for the page). */
type Standings = ReadonlyMap<string, Standing> | undefined;

/** A record's decision: with its standing now when it is its carrier's current decision. */
function DecisionCell({ record, standings }: { record: DecisionRecord; standings: Standings }) {
  const standing = standingFor(standings, record.dot_number);
  // the override is marked beside the verdict, on every record
  if (standing?.id === record.id) {
    return <DecisionStanding item={standing} link omit={['override']} />;
  }
  return <>{DECISION_LABELS[record.decision]}</>;
}

function ChainStatus() {
  const check = useChainCheck();
  if (check.isPending) return <p className={MUTED}>Checking the decision chain…</p>;
  if (check.isError) {
    return (
      <p role="alert" className="text-sm text-red-800 dark:text-red-300">
        The chain could not be checked: {check.error.message}
      </p>
    );
  }
  const { ok, count, first_bad_id: bad, problem } = check.data;
  return (
    <p
      role="status"
      data-chain={ok ? 'ok' : 'broken'}
      className={`rounded-md border p-3 text-sm ${ok ? 'border-emerald-400 bg-emerald-50 dark:border-emerald-700 dark:bg-emerald-950' : 'border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950'}`}
    >
      {ok
        ? `✓ Chain verified: ${count} record${count === 1 ? '' : 's'}, none altered.`
        : `✕ Chain broken at record #${bad ?? '?'} of ${count}${problem ? `: ${problem}` : ''}. Records from there on cannot be trusted.`}
    </p>
  );
}

const CARRIER_PROBLEM_ID = 'decisions-carrier-problem';

function Filters({
  filters,
  onApply,
}: {
  filters: PageFilters;
  onApply: (f: PageFilters) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const [carrierText, setCarrierText] = useState(filters.carrier ?? filters.dot_number ?? '');
  const [carrierProblem, setCarrierProblem] = useState<string | undefined>(undefined);
  const set = (key: keyof PageFilters, value: string) =>
    setDraft((current) => ({ ...current, [key]: value || undefined }));
  const problem = dateRangeProblem(draft);
  const invalid = problem
    ? { 'aria-invalid': true, 'aria-describedby': 'decisions-date-problem' }
    : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const carrier = readCarrierQuery(carrierText);
    if (carrier.kind === 'invalid') {
      setCarrierProblem(carrier.message);
      return;
    }
    setCarrierProblem(undefined);
    // A backwards range is not applied, and the dates stay as typed, with the reason beside them.
    if (problem) return;
    onApply({ ...draft, ...carrierFilters(carrier), page: undefined });
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Filter decisions"
      className="mt-4 flex flex-wrap items-end gap-3"
    >
      <label className={LABEL}>
        Carrier: USDOT, MC number or name
        <input
          className={INPUT}
          name="carrier"
          autoComplete="off"
          value={carrierText}
          {...(carrierProblem
            ? { 'aria-invalid': true, 'aria-describedby': CARRIER_PROBLEM_ID }
            : {})}
          onChange={(event) => {
            setCarrierText(event.target.value);
            setCarrierProblem(undefined);
          }}
        />
      </label>
      <label className={LABEL}>
        Decision
        <select
          className={INPUT}
          value={draft.decision ?? ''}
          onChange={(event) => set('decision', event.target.value)}
        >
          <option value="">Any</option>
          {DECISIONS.map((value) => (
            <option key={value} value={value}>
              {DECISION_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        User
        <input
          className={INPUT}
          value={draft.user ?? ''}
          onChange={(event) => set('user', event.target.value)}
        />
      </label>
      <label className={LABEL}>
        From
        <input
          type="date"
          className={INPUT}
          value={draft.from ?? ''}
          {...invalid}
          onChange={(event) => set('from', event.target.value)}
        />
      </label>
      <label className={LABEL}>
        To
        <input
          type="date"
          className={INPUT}
          value={draft.to ?? ''}
          {...invalid}
          onChange={(event) => set('to', event.target.value)}
        />
      </label>
      <div className="flex gap-2">
        <button type="submit" className={PRIMARY_BUTTON}>
          Apply filters
        </button>
        <button
          type="button"
          className={BUTTON}
          onClick={() => {
            setDraft({});
            setCarrierText('');
            setCarrierProblem(undefined);
            onApply({});
          }}
        >
          Clear
        </button>
      </div>
      {carrierProblem ? (
        <p
          id={CARRIER_PROBLEM_ID}
          role="alert"
          className="basis-full text-sm font-medium text-red-800 dark:text-red-300"
        >
          {carrierProblem}
        </p>
      ) : null}
      {problem ? (
        <p
          id="decisions-date-problem"
          role="alert"
          className="basis-full text-sm font-medium text-red-800 dark:text-red-300"
        >
          {problem}
        </p>
      ) : null}
    </form>
  );
}

function legalName(record: DecisionRecord): string {
  const value = record.profile.identity.find((field) => field.name === 'legal_name')?.value;
  return typeof value === 'string' ? value : `USDOT ${record.dot_number}`;
}

const LINK = 'text-sky-800 underline dark:text-sky-300';

/** An approval recorded against this Fail or Review verdict: "override", its reason as title. */
function OverrideMark({ record }: { record: DecisionRecord }) {
  if (record.override_reason === undefined) return null;
  return (
    <span
      title={`Override: ${record.override_reason}`}
      className="ml-1.5 inline-block rounded border border-amber-700 px-1 text-xs font-medium text-amber-900 dark:border-amber-400 dark:text-amber-200"
    >
      override
    </span>
  );
}

/** Below 768 px each record is a card: nine columns do not fit a phone. */
function DecisionCards({ items, standings }: { items: DecisionRecord[]; standings: Standings }) {
  return (
    <ul aria-label="Decision records, newest first" className="mt-4 space-y-3 md:hidden">
      {items.map((record) => (
        <li
          key={record.id}
          className="rounded-md border border-neutral-200 bg-white p-3 text-sm dark:border-neutral-800 dark:bg-neutral-900"
        >
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <Link to={`/decisions/${record.id}`} className={`${LINK} font-medium`}>
              Record #{record.id}
            </Link>
            <span className={MUTED}>{formatDateTime(record.decided_at)}</span>
          </div>
          <p className="mt-1 break-words">
            <Link to={carrierPath(record.dot_number)} className={LINK}>
              {legalName(record)}
            </Link>{' '}
            <span className={MUTED}>USDOT {record.dot_number}</span>
          </p>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5">
            <dt className="text-neutral-700 dark:text-neutral-300">Decision</dt>
            <dd className="font-medium">
              <DecisionCell record={record} standings={standings} />
              {record.supersedes !== null ? ` (corrects #${record.supersedes})` : ''}
            </dd>
            <dt className="text-neutral-700 dark:text-neutral-300">Verdict</dt>
            <dd>
              <span className="capitalize">{record.verdict.verdict}</span> · policy v
              {record.policy_version}
              <OverrideMark record={record} />
            </dd>
            <dt className="text-neutral-700 dark:text-neutral-300">By</dt>
            <dd className="break-words">{record.user.name}</dd>
            <dt className="text-neutral-700 dark:text-neutral-300">Re-vet by</dt>
            <dd>
              {record.expires_on ? formatDate(record.expires_on) : '—'}
              {isExpired(record) ? (
                <span className="font-medium text-red-800 dark:text-red-300">
                  {' '}
                  — expired, re-vet
                </span>
              ) : null}
            </dd>
            {record.note ? (
              <>
                <dt className="text-neutral-700 dark:text-neutral-300">Note</dt>
                {/* three lines on a card; the whole note on hover and on the record itself */}
                <dd className="line-clamp-3 break-words" title={record.note}>
                  {record.note}
                </dd>
              </>
            ) : null}
          </dl>
        </li>
      ))}
    </ul>
  );
}

function DecisionTable({ items, standings }: { items: DecisionRecord[]; standings: Standings }) {
  return (
    <ScrollArea frameClassName="mt-4 hidden md:block">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">Decision records, newest first</caption>
        <thead>
          <tr className="border-b border-neutral-300 dark:border-neutral-700">
            {[
              'Record',
              'Decided',
              'Carrier',
              'Decision',
              'Verdict',
              'Policy',
              'By',
              'Re-vet by',
              'Note',
            ].map((h) => (
              <th key={h} scope="col" className="px-2 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((record) => (
            <tr
              key={record.id}
              className="border-b border-neutral-200 align-top dark:border-neutral-800"
            >
              <td className="px-2 py-2">
                <Link
                  to={`/decisions/${record.id}`}
                  className="text-sky-800 underline dark:text-sky-300"
                >
                  #{record.id}
                </Link>
                {record.supersedes !== null ? (
                  <div className={MUTED}>corrects #{record.supersedes}</div>
                ) : null}
              </td>
              <td className="px-2 py-2 whitespace-nowrap">{formatDateTime(record.decided_at)}</td>
              <td className="px-2 py-2">
                <Link
                  to={carrierPath(record.dot_number)}
                  className="text-sky-800 underline dark:text-sky-300"
                >
                  {legalName(record)}
                </Link>
                <div className={MUTED}>USDOT {record.dot_number}</div>
              </td>
              <td className="px-2 py-2">
                <DecisionCell record={record} standings={standings} />
              </td>
              <td className="px-2 py-2">
                <span className="capitalize">{record.verdict.verdict}</span>
                <OverrideMark record={record} />
              </td>
              <td className="px-2 py-2">v{record.policy_version}</td>
              <td className="px-2 py-2">{record.user.name}</td>
              <td className="px-2 py-2 whitespace-nowrap">
                {record.expires_on ? formatDate(record.expires_on) : '—'}
                {isExpired(record) ? (
                  <div className="font-medium text-red-800 dark:text-red-300">expired — re-vet</div>
                ) : null}
              </td>
              <td className="px-2 py-2">{record.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

interface ResultsQuery {
  data: { items: DecisionRecord[]; total: number; page_size: number } | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

function Results({
  query,
  page,
  onPage,
  exportRecords,
  nothing,
}: {
  query: ResultsQuery;
  page: number;
  onPage: (page: number) => void;
  exportRecords: () => Promise<DecisionRecord[]>;
  nothing: string;
}) {
  const [exporting, setExporting] = useState<string | undefined>(undefined);
  const total = query.data?.total ?? 0;
  const standings = useDecisionStandings(
    (query.data?.items ?? []).map((record) => record.dot_number),
  );
  const pages = Math.max(1, Math.ceil(total / (query.data?.page_size ?? 50)));

  const exportCsv = async () => {
    setExporting('Preparing the CSV…');
    try {
      const records = await exportRecords();
      downloadCsv(decisionsCsv(records), `decisions-${new Date().toISOString().slice(0, 10)}.csv`);
      setExporting(`Exported ${records.length} record${records.length === 1 ? '' : 's'}.`);
    } catch (err) {
      setExporting(`The export failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return (
    <>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <p className={MUTED} aria-live="polite">
          {query.data ? `${total} record${total === 1 ? '' : 's'}` : ''}
        </p>
        <button
          type="button"
          className={BUTTON}
          onClick={() => void exportCsv()}
          disabled={total === 0}
        >
          Export CSV
        </button>
        <span role="status" className={MUTED}>
          {exporting ?? ''}
        </span>
      </div>
      {query.isError ? (
        <ErrorState
          error={query.error ?? new Error('unknown error')}
          what="the decisions"
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.isPending || !query.data ? (
        <p className={MUTED}>Loading decisions…</p>
      ) : query.data.items.length === 0 ? (
        <p className="mt-4 text-neutral-700 dark:text-neutral-300" data-testid="no-decisions">
          {nothing}
        </p>
      ) : (
        <>
          <DecisionCards items={query.data.items} standings={standings.data} />
          <DecisionTable items={query.data.items} standings={standings.data} />
        </>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages" className="mt-4 flex items-center gap-3">
          <button
            type="button"
            className={BUTTON}
            disabled={page <= 1}
            onClick={() => onPage(page - 1)}
          >
            Previous
          </button>
          <span className={MUTED}>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className={BUTTON}
            disabled={page >= pages}
            onClick={() => onPage(page + 1)}
          >
            Next
          </button>
        </nav>
      ) : null}
    </>
  );
}

const RECORD_ONE = "Record one from a carrier's verdict banner on its overview.";

/** Records filtered by the proxy (no carrier, or a USDOT number). */
function ProxyResults({ filters, onPage }: { filters: PageFilters; onPage: (p: number) => void }) {
  const asked = appliedFilters(filters);
  const decisions = useDecisions(asked);
  const nothing = filters.dot_number
    ? `No decision records for USDOT ${filters.dot_number}. ${RECORD_ONE}`
    : `No decisions match. ${RECORD_ONE}`;
  return (
    <Results
      query={decisions}
      page={filters.page ?? 1}
      onPage={onPage}
      exportRecords={() => allDecisions({ ...asked, page: undefined })}
      nothing={nothing}
    />
  );
}

/** Records of a carrier asked by docket or name, matched on what each record kept. */
function CarrierResults({
  filters,
  carrier,
  onPage,
}: {
  filters: PageFilters;
  carrier: string;
  onPage: (p: number) => void;
}) {
  const page = filters.page ?? 1;
  const matching = useMatchingDecisions(appliedFilters(filters), carrier, page);
  const what = readCarrierQuery(carrier).kind === 'docket' ? 'docket' : 'name';
  const nothing =
    what === 'docket'
      ? `No decision records for docket ${carrier}: no record kept that docket. ${RECORD_ONE}`
      : `No decision records for a carrier named “${carrier}”: no record's legal or DBA name contains it. ${RECORD_ONE}`;
  return (
    <Results
      query={matching}
      page={page}
      onPage={onPage}
      exportRecords={() => Promise.resolve(matching.data?.all ?? [])}
      nothing={nothing}
    />
  );
}

export function DecisionsPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const apply = (next: PageFilters) => setParams(writeFilters(next));
  const onPage = (page: number) => apply({ ...filters, page });
  const revetDue = isRevetView(params);

  return (
    <>
      <PageHeader
        title="Decisions"
        description="Every vetting decision, as recorded: the verdict and evidence seen, the policy version, who decided and when. Records are chained by hash; a correction is a new record."
      />
      <NeedsRevet />
      <ChainStatus />
      <RevetViewSwitch due={revetDue} />
      {revetDue ? (
        <RevetDueList />
      ) : (
        <>
          <Filters key={params.toString()} filters={filters} onApply={apply} />
          <RecordResults filters={filters} onPage={onPage} />
        </>
      )}
    </>
  );
}

/** Every record matching the filters: by the proxy, or matched on a docket or name. */
function RecordResults({ filters, onPage }: { filters: PageFilters; onPage: (p: number) => void }) {
  return (
    <>
      {filters.carrier !== undefined ? (
        <CarrierResults filters={filters} carrier={filters.carrier} onPage={onPage} />
      ) : (
        <ProxyResults filters={filters} onPage={onPage} />
      )}
    </>
  );
}
