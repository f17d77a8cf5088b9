/**
 * One lazily loaded component per profile tab, each from its own file, so a tab's charts or map
 * load only when the tab is opened. The loaders live in `tab-loaders.ts`, which the profile route
 * also reaches on its own, so a deep link starts the tab's code beside the page's.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { TAB_LOADERS } from './tab-loaders.ts';
import type { ProfileTabId, ProfileTabProps } from './tabs/types.ts';

export {
  loadedTab,
  prefetchTabSlices,
  preloadAllTabs,
  preloadSlicesCode,
  preloadTab,
  tabCodeSettled,
} from './tab-loaders.ts';

type LazyTab = LazyExoticComponent<ComponentType<ProfileTabProps>>;

export const TAB_COMPONENTS = Object.fromEntries(
  Object.entries(TAB_LOADERS).map(([id, load]) => [id, lazy(load)]),
) as Record<ProfileTabId, LazyTab>;
