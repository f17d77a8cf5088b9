import { formatCount, formatUsd } from '../../../lib/format.ts';
import type { WatchEstimate } from '../cost.ts';
import { MUTED } from '../../../components/controls.ts';

/** What watching costs: new DOTs this month × the monthly price; already-billed DOTs free. */
export function WatchCost({ estimate }: { estimate: WatchEstimate }) {
  const free = estimate.units - estimate.billableUnits;
  return (
    <p className="text-sm">
      <span className="font-medium">Watching costs {formatUsd(estimate.costUsd)}</span>:{' '}
      {formatCount(estimate.billableUnits)} new {estimate.billableUnits === 1 ? 'DOT' : 'DOTs'} this
      month × {formatUsd(estimate.unitPriceUsd)}
      {free
        ? `; ${formatCount(free)} already billed this month ${free === 1 ? 'is' : 'are'} free`
        : ''}
      .{estimate.withinBudget ? '' : ' This would exceed the monthly budget.'}
      {estimate.billing ? <span className={`block ${MUTED}`}>{estimate.billing.note}</span> : null}
    </p>
  );
}
