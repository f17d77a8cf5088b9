import { MUTED, PRIMARY_BUTTON } from '../../../components/controls.ts';
import type { BulkEstimate } from '../../../lib/bulk/contract.ts';
import { formatCount, formatUsd } from '../../../lib/format.ts';
import { formatDuration } from '../model/format.ts';

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

interface EstimatePanelProps {
  estimate: BulkEstimate;
  running: boolean;
  onRun: () => void;
}

/** What the run would cost and take, and the one button that starts it. */
export function EstimatePanel({ estimate, running, onRun }: EstimatePanelProps) {
  // the budget is checked against the metered amount, which is not 0 in sandbox
  const metered = estimate.metered_cost_usd ?? estimate.cost_usd;
  const budget =
    estimate.budget_usd === null
      ? `No monthly budget is set (${formatUsd(estimate.spent_usd)} spent this month).`
      : `Monthly budget ${formatUsd(estimate.budget_usd)}: ${formatUsd(estimate.spent_usd)} spent, ${formatUsd(estimate.left_usd ?? 0)} left.`;
  return (
    <section
      aria-labelledby="bulk-estimate-title"
      className="flex flex-col gap-3 rounded-lg border border-neutral-300 p-4 dark:border-neutral-700"
    >
      <h2 id="bulk-estimate-title" className="font-semibold">
        Estimate
      </h2>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium">Carriers</dt>
        <dd>{formatCount(estimate.carriers)}</dd>
        <dt className="font-medium">Already fetched this month</dt>
        <dd>{plural(estimate.already_fetched, 'carrier', 'carriers')} (free)</dd>
        <dt className="font-medium">New profile calls</dt>
        <dd>
          {formatCount(estimate.billable)} × {formatUsd(estimate.unit_price_usd)} ={' '}
          <span className="font-medium">{formatUsd(estimate.cost_usd)}</span>
          {estimate.billed ? '' : ' — not billed in sandbox'}
          {!estimate.billed && metered > 0 ? (
            <span className={`block ${MUTED}`}>
              Metered at {formatUsd(metered)} against the monthly budget, as the live service would
              bill it.
            </span>
          ) : null}
        </dd>
        <dt className="font-medium">Expected duration</dt>
        <dd>
          {formatDuration(estimate.duration_seconds)}
          {estimate.rate_per_minute === null
            ? ' (no rate limit)'
            : ` at ${formatCount(estimate.rate_per_minute)} profile calls a minute`}
        </dd>
        <dt className="font-medium">Budget</dt>
        <dd>{budget}</dd>
      </dl>
      {estimate.billable > 0 ? (
        <p className={MUTED}>
          A docket&apos;s USDOT number is known only after its call, so the cost is at most this;
          carriers fetched earlier this month are never billed again.
        </p>
      ) : null}
      {estimate.within_budget ? null : (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          This run would cost {formatUsd(metered)}, more than the{' '}
          {formatUsd(estimate.left_usd ?? 0)} left of the monthly budget. Shorten the list or ask
          the operator to raise the budget.
        </p>
      )}
      {estimate.carriers > 0 ? (
        <div>
          <button
            type="button"
            className={PRIMARY_BUTTON}
            disabled={running || !estimate.within_budget}
            onClick={onRun}
          >
            {running ? 'Starting…' : `Run ${plural(estimate.carriers, 'carrier', 'carriers')}`}
          </button>
        </div>
      ) : null}
    </section>
  );
}
