import { lazy, Suspense } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { BrandMark } from '../components/BrandMark.tsx';
import { CompareNavCount } from '../components/comparison/CompareNavCount.tsx';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { ModeBanner } from '../components/ModeBanner.tsx';
import { Omnibox } from '../features/search/components/Omnibox.tsx';
import { importOrReload } from '../lib/chunk-reload.ts';
import { useAppConfig } from './app-config.tsx';
import { HeaderSpend } from './HeaderSpend.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

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

const NAV_ITEMS = [
  { to: '/search', label: 'Search' },
  { to: '/monitoring', label: 'Monitoring' },
  { to: '/bulk', label: 'Bulk vetting' },
  { to: '/compare', label: 'Compare' },
  { to: '/decisions', label: 'Decisions' },
  { to: '/policy', label: 'Policy' },
  { to: '/usage', label: 'Usage' },
  { to: '/settings/alerts', label: 'Alerts' },
] as const;

export function AppLayout() {
  const { mode, budgetUsd } = useAppConfig();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-neutral-900 text-sm font-medium text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2 dark:bg-neutral-100 dark:text-neutral-900"
      >
        Skip to content
      </a>
      <header className="border-b border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900 print:hidden">
        <ModeBanner mode={mode} budgetUsd={budgetUsd} />
        <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:gap-x-6 sm:px-6 lg:flex-nowrap lg:py-0">
          <Link
            to="/search"
            className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight whitespace-nowrap text-neutral-950 dark:text-neutral-50"
          >
            <BrandMark className="size-6 text-neutral-900 dark:text-neutral-100" />
            carrier-desk
          </Link>
          <MainNav />
          <Omnibox />
          <div className="ml-auto flex items-center gap-2 max-sm:order-1">
            <HeaderSpend />
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none sm:px-6 print:max-w-none print:p-0"
      >
        <Outlet />
      </main>
    </div>
  );
}

function MainNav() {
  return (
    // On a phone: its own row under the brand and the theme toggle, one line that scrolls inside
    // itself rather than wrapping (which pushed the page's content below the first screen).
    <nav aria-label="Main" className="max-sm:order-2 max-sm:w-full">
      <ul className="flex flex-wrap items-center gap-1 max-sm:flex-nowrap max-sm:gap-0 max-sm:overflow-x-auto">
        {NAV_ITEMS.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} className={navLinkClass}>
              {item.label}
              {item.to === '/monitoring' ? (
                <ErrorBoundary label="The changes count" fallback={null}>
                  <Suspense fallback={null}>
                    <MonitoringNavBadge />
                  </Suspense>
                </ErrorBoundary>
              ) : null}
              {item.to === '/compare' ? <CompareNavCount /> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function navLinkClass({ isActive }: { isActive: boolean }): string {
  const base =
    'rounded-md px-2 py-2 text-sm font-medium whitespace-nowrap max-sm:block max-sm:px-1.5 sm:px-3';
  return isActive
    ? `${base} bg-neutral-100 text-neutral-950 dark:bg-neutral-800 dark:text-neutral-50`
    : `${base} text-neutral-600 hover:bg-neutral-50 hover:text-neutral-950 dark:text-neutral-400 dark:hover:bg-neutral-800/60 dark:hover:text-neutral-50`;
}
