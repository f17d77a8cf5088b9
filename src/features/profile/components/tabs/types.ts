import type { ParseIssue, Profile } from '../../../../lib/service/index.ts';

/**
 * The profile tabs, in display order; each is a URL: /carriers/:dot/:tab. `full`: the tab reads the
 * whole item (the Raw tab), so opening it fetches the full profile; the others draw from the
 * proxy's summary, and the history and network tabs ask the proxy for the slices they show
 * (`/api/local/profile-view`).
 */
export const PROFILE_TABS = [
  { id: 'overview', label: 'Overview', full: false },
  { id: 'authority', label: 'Authority & insurance', full: false },
  { id: 'safety', label: 'Safety', full: false },
  { id: 'inspections', label: 'Inspections', full: false },
  { id: 'crashes', label: 'Crashes', full: false },
  { id: 'fleet', label: 'Fleet & equipment', full: false },
  { id: 'contact', label: 'Contact & history', full: false },
  { id: 'network', label: 'Network', full: false },
  { id: 'fmcsa', label: 'FMCSA record', full: false },
  { id: 'raw', label: 'Raw', full: true },
] as const;

export type ProfileTabId = (typeof PROFILE_TABS)[number]['id'];

/** What every tab component receives from the profile page (which owns the query). */
export interface ProfileTabProps {
  /** the carrier's DOT number from the URL */
  dot: string;
  /** the normalised profile (shared parser); views never branch on the wire shape */
  profile: Profile;
  /** the profile item exactly as the proxy returned it (for the Raw tab) */
  raw: unknown;
  /** what the parser could not read (shown by the Raw tab) */
  issues: readonly ParseIssue[];
  /**
   * 'summary': `profile` is the proxy's summary (no long histories): a history tab asks the proxy
   * for its slices. 'full' (default): the whole profile, which such a tab reads as it is.
   */
  source?: 'summary' | 'full' | undefined;
}
