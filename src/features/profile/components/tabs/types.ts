import type { ParseIssue, Profile } from '../../../../lib/service/index.ts';

/** The profile tabs, in display order; each is a URL: /carriers/:dot/:tab. */
export const PROFILE_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'authority', label: 'Authority & insurance' },
  { id: 'safety', label: 'Safety' },
  { id: 'inspections', label: 'Inspections' },
  { id: 'crashes', label: 'Crashes' },
  { id: 'fleet', label: 'Fleet & equipment' },
  { id: 'contact', label: 'Contact & history' },
  { id: 'network', label: 'Network' },
  { id: 'fmcsa', label: 'FMCSA record' },
  { id: 'raw', label: 'Raw' },
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
}
