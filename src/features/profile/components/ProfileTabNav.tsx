import { Link } from 'react-router';
import { preloadTab } from './tab-components.ts';
import { PROFILE_TABS, type ProfileTabId } from './tabs/types.ts';

interface ProfileTabNavProps {
  dot: string;
  current: ProfileTabId;
}

function tabClass(active: boolean): string {
  const base = 'block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap';
  return active
    ? `${base} border-sky-600 text-sky-800 dark:border-sky-400 dark:text-sky-200`
    : `${base} border-transparent text-neutral-700 hover:border-neutral-300 hover:text-neutral-950 dark:text-neutral-300 dark:hover:border-neutral-600 dark:hover:text-neutral-50`;
}

/**
 * The tabs as links: every tab is a URL, the current one marked with aria-current. Pointing at or
 * focusing a tab starts loading its code, so it is there (or on its way) by the time of the click.
 */
export function ProfileTabNav({ dot, current }: ProfileTabNavProps) {
  return (
    <nav
      aria-label="Profile sections"
      data-print-hide
      className="mb-6 border-b border-neutral-200 dark:border-neutral-800"
    >
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {PROFILE_TABS.map((tab) => (
          <li key={tab.id}>
            <Link
              to={`/carriers/${dot}/${tab.id}`}
              aria-current={tab.id === current ? 'page' : undefined}
              className={tabClass(tab.id === current)}
              onPointerEnter={() => preloadTab(tab.id)}
              onFocus={() => preloadTab(tab.id)}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
