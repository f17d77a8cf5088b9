/**
 * The top of the Decisions page after a policy change (docs/vetting.md, "Standing"): the current
 * decisions whose standing a saved policy changed, "needs re-vet" until someone records a newer
 * decision on the carrier. Nothing is shown when there are none.
 */
import { Link } from 'react-router';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import { MUTED } from '../../../components/controls.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { useAllCurrentDecisions } from '../api/decisions.ts';
import type { CurrentDecision } from '../../../lib/vetting/contract.ts';

const LINK = 'text-sky-800 underline dark:text-sky-300';

function legalName(item: CurrentDecision): string | null {
  const field = item.profile.identity.find((f) => f.name === 'legal_name');
  return typeof field?.value === 'string' ? field.value : null;
}

export function NeedsRevet() {
  const flagged = useAllCurrentDecisions({ needs_revet: true });
  const items = flagged.data?.items ?? [];
  if (items.length === 0) return null;
  const total = flagged.data?.total ?? items.length;
  return (
    <section
      aria-labelledby="needs-revet-heading"
      className="mb-4 rounded-md border border-amber-400 bg-amber-50 p-3 dark:border-amber-700 dark:bg-amber-950"
      data-testid="needs-revet"
    >
      <h2 id="needs-revet-heading" className="font-semibold">
        Needs re-vet: {total} {total === 1 ? 'decision' : 'decisions'} a policy change affected
      </h2>
      <p className={MUTED}>
        A saved policy changed how these decisions stand. Open the carrier and record a new decision
        to clear the flag.
      </p>
      <ul className="mt-2 divide-y divide-amber-200 dark:divide-amber-900">
        {items.map((item) => (
          <li key={item.id} data-dot={item.dot_number} className="flex flex-wrap gap-x-3 py-1.5">
            <Link to={carrierPath(item.dot_number)} className={`${LINK} font-medium`}>
              {legalName(item) ?? `USDOT ${item.dot_number}`}
            </Link>
            <span className={MUTED}>USDOT {item.dot_number}</span>
            <DecisionStanding item={item} link omit={['needs_revet']} />
          </li>
        ))}
      </ul>
    </section>
  );
}
