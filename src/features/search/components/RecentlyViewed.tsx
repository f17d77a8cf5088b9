/** The carriers viewed last (newest first), one click from their profiles. */
import { Link } from 'react-router';
import { formatAge } from '../../../lib/format.ts';
import { clearRecentCarriers, useRecentCarriers } from '../../../lib/recent.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';

export function RecentlyViewed() {
  const recent = useRecentCarriers();
  return (
    <section aria-labelledby="recent-heading" className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <h2
          id="recent-heading"
          className="text-base font-semibold text-neutral-950 dark:text-neutral-50"
        >
          Recently viewed
        </h2>
        {recent.length > 0 ? (
          <button
            type="button"
            onClick={clearRecentCarriers}
            className="rounded text-sm text-neutral-600 underline underline-offset-2 hover:text-neutral-950 dark:text-neutral-400 dark:hover:text-neutral-50"
          >
            Clear list
          </button>
        ) : null}
      </div>
      {recent.length === 0 ? (
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          Carriers you open appear here.
        </p>
      ) : (
        <ul className="divide-y divide-neutral-200 rounded-lg border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
          {recent.map((carrier) => (
            <li
              key={carrier.dot}
              className="flex items-center justify-between gap-3 px-3 py-2 text-sm"
            >
              <Link
                to={carrierPath(carrier.dot)}
                className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
              >
                {carrier.name}
              </Link>
              <span className="shrink-0 text-neutral-600 tabular-nums dark:text-neutral-400">
                DOT {carrier.dot} · {formatAge(carrier.viewedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
