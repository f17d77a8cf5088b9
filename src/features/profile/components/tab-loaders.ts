/**
 * The code of each profile tab, one `import()` per tab (the lazy components in `tab-components.ts`
 * use the same ones). `preloadTab` starts loading a tab's code early: the page does it while the
 * profile is on its way, the tab bar on hover or focus, and the profile prefetch on a deep link,
 * so the tab's code travels beside the page's own instead of after it; once the profile has drawn,
 * the page loads the other tabs' code at idle time.
 *
 * A tab whose code has arrived is remembered (`loadedTab`), so the page renders it directly: a
 * lazy component suspends on its first render even when its module is already in, and React then
 * shows the fallback and holds the content back for its fallback throttle (~300 ms).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { preloadMap } from '../../../components/map/index.tsx';
import { profileKeys } from '../api/keys.ts';
import type * as Slices from './tabs/inspections/slices.ts';
import type { ProfileTabId, ProfileTabProps } from './tabs/types.ts';

type TabComponent = ComponentType<ProfileTabProps>;
type TabModule = Promise<{ default: TabComponent }>;

const loaded = new Map<string, TabComponent>();

/** The tab's module, remembered under its id once it has arrived. */
function load(tab: ProfileTabId, module: Promise<TabComponent>): TabModule {
  return module.then((component) => {
    loaded.set(tab, component);
    return { default: component };
  });
}

export const TAB_LOADERS: Record<ProfileTabId, () => TabModule> = {
  overview: () =>
    load(
      'overview',
      import('./tabs/overview/Tab.tsx').then((m) => m.OverviewTab),
    ),
  authority: () =>
    load(
      'authority',
      import('./tabs/authority/Tab.tsx').then((m) => m.AuthorityTab),
    ),
  safety: () =>
    load(
      'safety',
      import('./tabs/safety/Tab.tsx').then((m) => m.SafetyTab),
    ),
  inspections: () =>
    load(
      'inspections',
      import('./tabs/inspections/Tab.tsx').then((m) => m.InspectionsTab),
    ),
  crashes: () =>
    load(
      'crashes',
      import('./tabs/crashes/Tab.tsx').then((m) => m.CrashesTab),
    ),
  fleet: () =>
    load(
      'fleet',
      import('./tabs/fleet/Tab.tsx').then((m) => m.FleetTab),
    ),
  contact: () =>
    load(
      'contact',
      import('./tabs/contact/Tab.tsx').then((m) => m.ContactTab),
    ),
  network: () =>
    load(
      'network',
      import('./tabs/network/Tab.tsx').then((m) => m.NetworkTab),
    ),
  fmcsa: () =>
    load(
      'fmcsa',
      import('./tabs/fmcsa/Tab.tsx').then((m) => m.FmcsaTab),
    ),
  raw: () =>
    load(
      'raw',
      import('./tabs/raw/Tab.tsx').then((m) => m.RawTab),
    ),
};

/** The tab's component when its code has already arrived, else undefined (render the lazy one). */
export function loadedTab(tab: ProfileTabId): TabComponent | undefined {
  return loaded.get(tab);
}

/** Settles once the tab's code has arrived or failed to (the tab's own boundary reports a failure). */
export function tabCodeSettled(tab: ProfileTabId): Promise<void> {
  return TAB_LOADERS[tab]().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Start loading a tab's code; the module system keeps it, so the lazy component finds it ready. A
 * failed preload is ignored here: the tab's own load fails the same way and its boundary says so.
 * An unknown tab (a mistyped URL) loads nothing: the page shows it as not found.
 */
export function preloadTab(tab: string): void {
  if (!Object.hasOwn(TAB_LOADERS, tab)) return;
  void TAB_LOADERS[tab as ProfileTabId]().catch(() => undefined);
}

/** Set by the app at boot (`allowIdlePreload`); unit tests' pages leave it off. */
let idlePreloadAllowed = false;

/** Let pages load every tab's code at idle time (the running app; unit tests keep it off). */
export function allowIdlePreload(): void {
  idlePreloadAllowed = true;
}

/**
 * Start the code of every tab (each is a few kB; the maps' and charts' libraries load with their
 * own components, not here), where the app allowed it. The page does it once the profile has
 * drawn and the browser is idle, so the next tab switch finds its code in and draws at once.
 */
export function preloadAllTabs(): void {
  if (!idlePreloadAllowed) return;
  for (const tab of Object.keys(TAB_LOADERS)) preloadTab(tab);
}

/**
 * A summary answered longer ago than this is not trusted to be in the proxy's profile cache still
 * (its TTL is configurable, and it evicts): no slice is fetched ahead then, since a slice the
 * proxy no longer holds would cost a billed profile call that nobody asked for yet.
 */
const SLICES_AHEAD_WITHIN_MS = 30_000;

/**
 * Fetch ahead, where the app allowed it (as for idle preloads), the Inspections tab, the heaviest
 * to open: its code and the proxy slices it opens on (its first page and its map's points). The
 * slices are cut from the profile the proxy cached for the summary just shown, so they are free
 * (`x-cache: hit`), and a click on the tab then draws its rows without waiting for code or data.
 * Only right after the summary came from the proxy; a page drawn from the full profile (no
 * summary, so no slices) asks nothing.
 */
export function prefetchTabSlices(client: QueryClient, dot: string, now = Date.now()): void {
  if (!idlePreloadAllowed) return;
  const summary = client.getQueryState(profileKeys.summary(dot));
  if (summary?.data === undefined || now - summary.dataUpdatedAt > SLICES_AHEAD_WITHIN_MS) return;
  preloadTab('inspections');
  // the tab's map: MapLibre's code and its worker (code only; nothing billed, no tile fetched)
  preloadMap();
  void slicesCode()
    .then((module) => module.prefetchInspections(client, dot))
    .catch(() => undefined);
}

let slicesModule: Promise<typeof Slices> | undefined;

/** The few kB that ask for the Inspections slices; loaded once, a failed load tried again later. */
function slicesCode() {
  slicesModule ??= import('./tabs/inspections/slices.ts').catch((error: unknown) => {
    slicesModule = undefined;
    throw error;
  });
  return slicesModule;
}

/**
 * Start loading the code `prefetchTabSlices` needs while the profile is still on its way, so the
 * slices are asked for as soon as the page has drawn rather than after one more download.
 */
export function preloadSlicesCode(): void {
  if (idlePreloadAllowed) void slicesCode().catch(() => undefined);
}
