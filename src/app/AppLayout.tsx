import { Link, Outlet } from 'react-router';
import { BrandMark } from '../components/BrandMark.tsx';
import { ModeBanner } from '../components/ModeBanner.tsx';
import { Omnibox } from '../features/search/components/Omnibox.tsx';
import { useAppConfig } from './app-config.tsx';
import { HeaderSpend } from './HeaderSpend.tsx';
import { MainNav, MenuButton } from './MainNav.tsx';
import { preloadProfileCode } from './profile-prefetch.ts';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useDisclosure } from './use-disclosure.ts';

const MAIN_NAV_ID = 'main-nav';

/**
 * The shell. The header's first row: the brand, the search (never the part that gives way: from
 * 1024 px its input keeps at least 240 px; below, it has a full-width row of its own), the spend,
 * the theme toggle and, below 1024 px, the menu button. From 1024 px the navigation is a second row.
 */
export function AppLayout() {
  const { mode, budgetUsd } = useAppConfig();
  const menu = useDisclosure();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only rounded-md bg-neutral-900 text-sm font-medium text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2 dark:bg-neutral-100 dark:text-neutral-900"
      >
        Skip to content
      </a>
      <header className="relative border-b border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900 print:hidden">
        <ModeBanner mode={mode} budgetUsd={budgetUsd} />
        <div className="mx-auto flex min-h-14 max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-6 lg:gap-x-6">
          <Link
            to="/search"
            className="flex shrink-0 items-center gap-2 rounded-md text-base font-semibold tracking-tight whitespace-nowrap text-neutral-950 dark:text-neutral-50"
          >
            <BrandMark className="size-6 text-neutral-900 dark:text-neutral-100" />
            carrier-desk
          </Link>
          <Omnibox onFocusPrepare={preloadProfileCode} />
          <div className="ml-auto flex shrink-0 items-center gap-2">
            <HeaderSpend />
            <ThemeToggle />
            <MenuButton
              controls={MAIN_NAV_ID}
              open={menu.open}
              buttonRef={menu.buttonRef}
              onToggle={menu.toggle}
            />
          </div>
        </div>
        <MainNav
          id={MAIN_NAV_ID}
          open={menu.open}
          panelRef={menu.panelRef}
          onNavigate={menu.close}
        />
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
