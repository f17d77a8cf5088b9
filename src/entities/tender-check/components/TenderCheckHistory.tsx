/**
 * The tender checks of one carrier, newest first, behind a disclosure (nothing when there is none):
 * shown on its profile beside the decision history, each linking to the stored answer.
 */
import { Link } from 'react-router';
import { formatDateTime, formatPhone, formatUsd } from '../../../lib/format.ts';
import { useTenderChecks } from '../api.ts';
import { TenderAnswerBadge } from './TenderAnswerBadge.tsx';

const LINK = 'text-sky-800 underline dark:text-sky-300';

export function TenderCheckHistory({ dot }: { dot: string }) {
  const checks = useTenderChecks({ dot_number: dot });
  const items = checks.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <details className="mt-1.5 text-sm" data-testid="tender-check-history">
      <summary className="cursor-pointer text-neutral-800 dark:text-neutral-200">
        Tender checks ({checks.data?.total ?? items.length})
      </summary>
      <ol className="mt-1 space-y-1">
        {items.slice(0, 10).map((check) => (
          <li key={check.id} className="flex flex-wrap items-center gap-x-1.5 gap-y-1">
            <TenderAnswerBadge answer={check.answer} />
            <span>
              {formatDateTime(check.checked_at)} · {check.user.name}
              {check.phone ? ` · ${formatPhone(check.phone)}` : ''}
              {check.email ? ` · ${check.email}` : ''} · {formatUsd(check.cost_usd)}
            </span>
            <Link to={`/tender-checks/${check.id}`} className={LINK}>
              Check #{check.id}
            </Link>
          </li>
        ))}
      </ol>
      <Link to={`/tender-checks?dot_number=${dot}`} className={LINK}>
        All tender checks on this carrier
      </Link>
    </details>
  );
}
