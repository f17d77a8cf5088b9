/**
 * This month's spend as the proxy meters it: the total against the monthly budget, by endpoint (a
 * chart and the same numbers as a table) and by user. In sandbox and test modes the amounts are
 * what the live service would charge; nothing is billed, and the page says so.
 */
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { Facts, type Fact } from '../../../components/Facts.tsx';
import { ErrorState } from '../../../components/ErrorState.tsx';
import { MUTED } from '../../../components/controls.ts';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatCount, formatPercent, formatUsd } from '../../../lib/format.ts';
import { readTokenActor } from '../../../lib/token-actor.ts';
import { usageQuery, type Usage } from '../api/usage.ts';
import { endpointLabel } from './endpoint-labels.ts';
import { SpendChart } from './SpendChart.tsx';

type EndpointLine = Usage['byEndpoint'][number];
type UserLine = Usage['byUser'][number];
type TokenLine = Usage['byToken'][number];

const ENDPOINT_COLUMNS: readonly DataTableColumn<EndpointLine>[] = [
  { id: 'endpoint', header: 'Endpoint', rowHeader: true, value: (l) => endpointLabel(l.key) },
  {
    id: 'calls',
    header: 'Calls',
    align: 'end',
    value: (l) => l.calls,
    cell: (l) => formatCount(l.calls),
  },
  {
    id: 'hits',
    header: 'Cache hits',
    align: 'end',
    value: (l) => l.cacheHits,
    cell: (l) => formatCount(l.cacheHits),
  },
  {
    id: 'units',
    header: 'Billed units',
    align: 'end',
    value: (l) => l.billedUnits,
    cell: (l) => formatCount(l.billedUnits),
  },
  { id: 'usd', header: 'Spend', align: 'end', value: (l) => l.usd, cell: (l) => formatUsd(l.usd) },
];

/** A person by name; an API token's calls (user `token:<id>:<name>`) by the token's name. */
function userLabel(user: string): string {
  const token = readTokenActor(user);
  return token === undefined ? user : `${token.name} (API token)`;
}

const USER_COLUMNS: readonly DataTableColumn<UserLine>[] = [
  {
    id: 'user',
    header: 'User',
    rowHeader: true,
    className: 'break-all',
    value: (l) => userLabel(l.key),
  },
  {
    id: 'calls',
    header: 'Calls',
    align: 'end',
    value: (l) => l.calls,
    cell: (l) => formatCount(l.calls),
  },
  { id: 'usd', header: 'Spend', align: 'end', value: (l) => l.usd, cell: (l) => formatUsd(l.usd) },
];

const TOKEN_COLUMNS: readonly DataTableColumn<TokenLine>[] = [
  {
    id: 'token',
    header: 'API token',
    rowHeader: true,
    className: 'break-all',
    value: (l) => l.key,
  },
  {
    id: 'calls',
    header: 'Calls',
    align: 'end',
    value: (l) => l.calls,
    cell: (l) => formatCount(l.calls),
  },
  { id: 'usd', header: 'Spend', align: 'end', value: (l) => l.usd, cell: (l) => formatUsd(l.usd) },
];

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2026-11" → "November 2026" (the month as the ledger counts it, UTC). */
export function monthLabel(month: string): string {
  const [year, number] = month.split('-');
  const name = MONTH_NAMES[Number(number) - 1];
  return name === undefined || year === undefined ? month : `${name} ${year}`;
}

export function UsagePage() {
  const usage = useQuery(usageQuery);
  return (
    <>
      <PageHeader
        title="Usage"
        description="What this month's calls to the data service cost: in total against the budget, by endpoint, by user and by API token."
      />
      {usage.isPending ? (
        <p role="status" className={MUTED}>
          Loading this month's usage…
        </p>
      ) : usage.isError ? (
        <ErrorState
          error={usage.error}
          what="the usage"
          onRetry={() => void usage.refetch()}
          retrying={usage.isFetching}
        />
      ) : (
        <UsageView usage={usage.data} />
      )}
    </>
  );
}

function summary(usage: Usage): Fact[] {
  const items: Fact[] = [
    { term: `Spent in ${monthLabel(usage.month)}`, value: formatUsd(usage.spentUsd) },
    {
      term: 'Monthly budget',
      value: usage.budgetUsd === undefined ? 'None set' : formatUsd(usage.budgetUsd),
    },
  ];
  if (usage.budgetUsd !== undefined && usage.remainingUsd !== undefined) {
    const share = usage.budgetUsd > 0 ? usage.remainingUsd / usage.budgetUsd : 0;
    items.push({
      term: 'Budget left',
      value: `${formatUsd(usage.remainingUsd)} (${formatPercent(share)})`,
    });
  }
  const unsettled = usage.reservedUsd + usage.uncertainUsd;
  if (unsettled > 0) {
    items.push({ term: 'Of which not yet settled', value: formatUsd(unsettled) });
  }
  return items;
}

function UsageView({ usage }: { usage: Usage }) {
  const spentOn = usage.byEndpoint.filter((line) => line.usd > 0);
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="usage-total" className="flex flex-col gap-3">
        <h2 id="usage-total" className="text-lg font-semibold">
          This month
        </h2>
        <p
          className={`rounded-md px-3 py-2 text-sm ${
            usage.billed
              ? 'bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-50'
              : 'bg-neutral-100 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-100'
          }`}
        >
          {usage.billed ? 'Billed. ' : 'Not billed. '}
          {usage.note}
        </p>
        <Facts items={summary(usage)} />
        {usage.budgetUsd !== undefined && usage.budgetUsd > 0 ? (
          <BudgetBar spent={usage.spentUsd} budget={usage.budgetUsd} />
        ) : (
          <p className={MUTED}>
            Without a budget (MONTHLY_BUDGET_USD on the proxy) nothing stops spending.
          </p>
        )}
      </section>

      <section aria-labelledby="usage-endpoints" className="flex flex-col gap-3">
        <h2 id="usage-endpoints" className="text-lg font-semibold">
          By endpoint
        </h2>
        {spentOn.length > 0 ? (
          <SpendChart
            lines={spentOn.map((line) => ({ label: endpointLabel(line.key), usd: line.usd }))}
          />
        ) : (
          <p className={MUTED}>Nothing spent yet this month.</p>
        )}
        <DataTable
          caption="Spend by endpoint this month"
          captionHidden
          columns={ENDPOINT_COLUMNS}
          data={usage.byEndpoint}
          getRowId={(line) => line.key}
        />
      </section>

      <section aria-labelledby="usage-users" className="flex flex-col gap-3">
        <h2 id="usage-users" className="text-lg font-semibold">
          By user
        </h2>
        {usage.byUser.length === 0 ? (
          <p className={MUTED}>No calls this month.</p>
        ) : (
          <DataTable
            caption="Spend by user this month"
            captionHidden
            columns={USER_COLUMNS}
            data={usage.byUser}
            getRowId={(line) => line.key}
          />
        )}
      </section>

      {usage.byToken.length > 0 ? (
        <section aria-labelledby="usage-tokens" className="flex flex-col gap-3">
          <h2 id="usage-tokens" className="text-lg font-semibold">
            By API token
          </h2>
          <p className={MUTED}>
            Calls other systems made with an API token (also in the table above).
          </p>
          <DataTable
            caption="Spend by API token this month"
            captionHidden
            columns={TOKEN_COLUMNS}
            data={usage.byToken}
            getRowId={(line) => String(line.id)}
          />
        </section>
      ) : null}
    </div>
  );
}

/** The budget used, as a bar; the numbers above say the same in words. */
function BudgetBar({ spent, budget }: { spent: number; budget: number }) {
  const used = Math.min(1, spent / budget);
  return (
    <div
      aria-hidden="true"
      className="h-2 w-full overflow-hidden rounded-full bg-neutral-200 dark:bg-neutral-700"
    >
      <div
        className={`h-full ${used >= 0.9 ? 'bg-red-600' : 'bg-sky-600'}`}
        style={{ width: `${(used * 100).toFixed(1)}%` }}
      />
    </div>
  );
}
