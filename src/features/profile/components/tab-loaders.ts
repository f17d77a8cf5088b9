/**
 * The code of each profile tab, one `import()` per tab (the lazy components in `tab-components.ts`
 * use the same ones). `preloadTab` starts loading a tab's code early: the page does it while the
 * profile is on its way, the tab bar on hover or focus, and the profile route's loader on a deep
 * link, so the tab's code travels beside the page's own instead of after it.
 */
import type { ComponentType } from 'react';
import type { ProfileTabId, ProfileTabProps } from './tabs/types.ts';

type TabModule = Promise<{ default: ComponentType<ProfileTabProps> }>;

export const TAB_LOADERS: Record<ProfileTabId, () => TabModule> = {
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

/**
 * Start loading a tab's code; the module system keeps it, so the lazy component finds it ready. A
 * failed preload is ignored here: the tab's own load fails the same way and its boundary says so.
 * An unknown tab (a mistyped URL) loads nothing: the page shows it as not found.
 */
export function preloadTab(tab: string): void {
  if (!Object.hasOwn(TAB_LOADERS, tab)) return;
  void TAB_LOADERS[tab as ProfileTabId]().catch(() => undefined);
}
