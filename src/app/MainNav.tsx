import { lazy, Suspense, useId, type RefObject } from 'react';
import { NavLink } from 'react-router';
import { CompareNavCount } from '../components/comparison/CompareNavCount.tsx';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { importOrReload } from '../lib/chunk-reload.ts';

/**
 * Lazy: the badge brings the inbox model and the monitoring parsers (with zod), which the first
 * paint of the search page does not need. It shows when its chunk and its count have arrived; a
 * chunk that cannot be downloaded reloads the page once, then the badge is simply left out.
 */
const MonitoringNavBadge = lazy(() =>
  importOrReload(() =>
    import('../features/monitoring/components/MonitoringNavBadge.tsx').then((module) => ({
      default: module.MonitoringNavBadge,
    })),
  ),
);

/** Lazy for the same reason: the count of decisions due for re-vet (the decisions feature's api, zod). */
const RevetNavCount = lazy(() =>
  importOrReload(() =>
    import('../features/decisions/components/RevetNavCount.tsx').then((module) => ({
      default: module.RevetNavCount,
    })),
  ),
);

interface NavItem {
  to: string;
  label: string;
}

interface NavGroup {
  /** what the destinations are for; none for a group of one that names itself */
  label?: string;
  items: readonly NavItem[];
}

/**
 * The ten destinations, grouped by what a broker or an analyst is doing: vetting a carrier,
 * watching the ones in use, keeping the record of what was decided and why; and the month's spend
 * and the API tokens other systems use.
 */
const NAV_GROUPS: readonly NavGroup[] = [
  {
    label: 'Vet',
    items: [
      { to: '/search', label: 'Search' },
      { to: '/tender-check', label: 'Tender check' },
      { to: '/bulk', label: 'Bulk vetting' },
      { to: '/compare', label: 'Compare' },
    ],
  },
  {
    label: 'Watch',
    items: [
      { to: '/monitoring', label: 'Monitoring' },
      { to: '/settings/alerts', label: 'Alerts' },
    ],
  },
  {
    label: 'Record',
    items: [
      { to: '/decisions', label: 'Decisions' },
      { to: '/policy', label: 'Policy' },
    ],
  },
  {
    items: [
      { to: '/usage', label: 'Usage' },
      { to: '/settings/tokens', label: 'API tokens' },
    ],
  },
];

/** The untriaged count, wherever it is shown; nothing until it is known (or when it fails). */
function UntriagedBadge() {
  return (
    <ErrorBoundary label="The changes count" fallback={null}>
      <Suspense fallback={null}>
        <MonitoringNavBadge />
      </Suspense>
    </ErrorBoundary>
  );
}

interface MainNavProps {
  id: string;
  /** below 1024 px: whether the menu is open (from 1024 px the navigation is always shown) */
  open: boolean;
  panelRef: RefObject<HTMLElement | null>;
  /** a link was followed (also to the page already shown, which changes no location) */
  onNavigate: () => void;
}

/**
 * The main navigation. From 1024 px: its own row under the brand and the search, the groups side
 * by side, each named by a small label, Usage at the far end. Below: a panel under the header,
 * opened by the menu button, the groups as columns (one on a phone) of full-width links.
 */
export function MainNav({ id, open, panelRef, onNavigate }: MainNavProps) {
  const groupIds = useId();
  return (
    <nav
      id={id}
      ref={panelRef}
      aria-label="Main"
      data-open={open}
      // open (below 1024 px), the panel floats over the page: the layout check's deliberate overlay
      data-overlay={open ? '' : undefined}
      className={`max-lg:absolute max-lg:inset-x-0 max-lg:top-full max-lg:z-30 max-lg:border-b max-lg:border-neutral-200 max-lg:bg-white max-lg:shadow-lg dark:max-lg:border-neutral-800 dark:max-lg:bg-neutral-900 ${open ? '' : 'max-lg:hidden'}`}
    >
      <ul className="mx-auto grid max-w-6xl gap-x-6 gap-y-4 px-4 py-3 sm:grid-cols-2 sm:px-6 md:grid-cols-4 lg:flex lg:flex-wrap lg:items-center lg:gap-x-8 lg:gap-y-0 lg:py-0">
        {NAV_GROUPS.map((group, index) => {
          const labelId = `${groupIds}-${index}`;
          return (
            <li
              key={group.label ?? group.items[0]?.to}
              className={`lg:flex lg:items-center lg:gap-2 ${group.label ? '' : 'sm:max-lg:pt-5 lg:ml-auto'}`}
            >
              {group.label ? (
                <span
                  id={labelId}
                  className="block px-3 pb-1 text-xs font-semibold tracking-wide text-neutral-500 uppercase lg:px-0 lg:pb-0 dark:text-neutral-400"
                >
                  {group.label}
                </span>
              ) : null}
              <ul
                aria-labelledby={group.label ? labelId : undefined}
                className="lg:flex lg:items-center"
              >
                {group.items.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} className={navLinkClass} onClick={onNavigate}>
                      {item.label}
                      {item.to === '/monitoring' ? <UntriagedBadge /> : null}
                      {item.to === '/compare' ? <CompareNavCount /> : null}
                      {item.to === '/decisions' ? (
                        <ErrorBoundary label="The re-vet count" fallback={null}>
                          <Suspense fallback={null}>
                            <RevetNavCount />
                          </Suspense>
                        </ErrorBoundary>
                      ) : null}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function navLinkClass({ isActive }: { isActive: boolean }): string {
  // a phone: full-width rows of at least 44 px; from 1024 px: tabs underlined when current
  const base =
    'flex min-h-11 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap lg:rounded-none lg:border-b-2 lg:px-2.5';
  return isActive
    ? `${base} bg-neutral-100 text-neutral-950 lg:border-neutral-900 lg:bg-transparent dark:bg-neutral-800 dark:text-neutral-50 lg:dark:border-neutral-100 lg:dark:bg-transparent`
    : `${base} text-neutral-600 hover:bg-neutral-50 hover:text-neutral-950 lg:border-transparent lg:hover:border-neutral-300 lg:hover:bg-transparent dark:text-neutral-400 dark:hover:bg-neutral-800/60 dark:hover:text-neutral-50 lg:dark:hover:border-neutral-600 lg:dark:hover:bg-transparent`;
}

interface MenuButtonProps {
  controls: string;
  open: boolean;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onToggle: () => void;
}

/** Below 1024 px: shows and hides the navigation; carries the untriaged count while it is shut. */
export function MenuButton({ controls, open, buttonRef, onToggle }: MenuButtonProps) {
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
      className="inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md border border-neutral-300 px-2.5 text-sm font-medium text-neutral-700 hover:bg-neutral-100 lg:hidden dark:border-neutral-700 dark:text-neutral-200 dark:hover:bg-neutral-800"
    >
      <svg
        viewBox="0 0 20 20"
        aria-hidden="true"
        className="size-4"
        fill="none"
        stroke="currentColor"
      >
        <path
          strokeWidth="1.5"
          strokeLinecap="round"
          d={open ? 'M5 5l10 10M15 5L5 15' : 'M3.5 5.5h13M3.5 10h13M3.5 14.5h13'}
        />
      </svg>
      {/* below 360 px the word would push the row onto two lines; the name stays */}
      <span className="max-[22.5rem]:sr-only">Menu</span>
      {open ? null : <UntriagedBadge />}
    </button>
  );
}
