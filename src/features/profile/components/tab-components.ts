/**
 * One lazily loaded component per profile tab, each from its own file, so a tab's charts or map
 * load only when the tab is opened. `preloadTab` starts loading a tab's code early (the page does it
 * while the profile is still on its way), so the code and the data travel at the same time.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ProfileTabId, ProfileTabProps } from './tabs/types.ts';

type TabModule = Promise<{ default: ComponentType<ProfileTabProps> }>;

const LOADERS: Record<ProfileTabId, () => TabModule> = {
  overview: () => import('./tabs/overview/Tab.tsx').then((m) => ({ default: m.OverviewTab })),
  authority: () => import('./tabs/authority/Tab.tsx').then((m) => ({ default: m.AuthorityTab })),
  safety: () => import('./tabs/safety/Tab.tsx').then((m) => ({ default: m.SafetyTab })),
  inspections: () =>
    import('./tabs/inspections/Tab.tsx').then((m) => ({ default: m.InspectionsTab })),
  crashes: () => import('./tabs/crashes/Tab.tsx').then((m) => ({ default: m.CrashesTab })),
  fleet: () => import('./tabs/fleet/Tab.tsx').then((m) => ({ default: m.FleetTab })),
  contact: () => import('./tabs/contact/Tab.tsx').then((m) => ({ default: m.ContactTab })),
  network: () => import('./tabs/network/Tab.tsx').then((m) => ({ default: m.NetworkTab })),
  fmcsa: () => import('./tabs/fmcsa/Tab.tsx').then((m) => ({ default: m.FmcsaTab })),
  raw: () => import('./tabs/raw/Tab.tsx').then((m) => ({ default: m.RawTab })),
};

type LazyTab = LazyExoticComponent<ComponentType<ProfileTabProps>>;

export const TAB_COMPONENTS = Object.fromEntries(
  Object.entries(LOADERS).map(([id, load]) => [id, lazy(load)]),
) as Record<ProfileTabId, LazyTab>;

/**
 * Start loading a tab's code; the module system keeps it, so the lazy component finds it ready. A
 * failed preload is ignored here: the tab's own load fails the same way and its boundary says so.
 */
export function preloadTab(tab: ProfileTabId): void {
  void LOADERS[tab]().catch(() => undefined);
}
