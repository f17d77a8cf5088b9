/**
 * One lazily loaded component per profile tab, each from its own file, so a tab's charts or map
 * load only when the tab is opened.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ProfileTabId, ProfileTabProps } from './tabs/types.ts';

type LazyTab = LazyExoticComponent<ComponentType<ProfileTabProps>>;

export const TAB_COMPONENTS: Record<ProfileTabId, LazyTab> = {
  overview: lazy(() => import('./tabs/OverviewTab.tsx').then((m) => ({ default: m.OverviewTab }))),
  authority: lazy(() =>
    import('./tabs/AuthorityTab.tsx').then((m) => ({ default: m.AuthorityTab })),
  ),
  safety: lazy(() => import('./tabs/SafetyTab.tsx').then((m) => ({ default: m.SafetyTab }))),
  inspections: lazy(() =>
    import('./tabs/InspectionsTab.tsx').then((m) => ({ default: m.InspectionsTab })),
  ),
  crashes: lazy(() => import('./tabs/CrashesTab.tsx').then((m) => ({ default: m.CrashesTab }))),
  fleet: lazy(() => import('./tabs/FleetTab.tsx').then((m) => ({ default: m.FleetTab }))),
  contact: lazy(() => import('./tabs/ContactTab.tsx').then((m) => ({ default: m.ContactTab }))),
  network: lazy(() => import('./tabs/NetworkTab.tsx').then((m) => ({ default: m.NetworkTab }))),
  fmcsa: lazy(() => import('./tabs/FmcsaTab.tsx').then((m) => ({ default: m.FmcsaTab }))),
  raw: lazy(() => import('./tabs/RawTab.tsx').then((m) => ({ default: m.RawTab }))),
};
