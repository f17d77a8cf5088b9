import { formatCount } from '../../../lib/format.ts';
import type { TriageFilter } from '../../../lib/monitoring/inbox-params.ts';

const TRIAGE_WORDS: Record<Exclude<TriageFilter, 'all'>, string> = {
  new: 'new',
  reviewed: 'reviewed',
  escalated: 'escalated',
};

const carriers = (count: number) => `${formatCount(count)} ${count === 1 ? 'carrier' : 'carriers'}`;

/**
 * The inbox's count line. Without a triage filter: the carriers the service lists for these filters
 * (every page). The triage filter works on the loaded page only, so with it the count says how many
 * carriers of this page it leaves, of how many: "2 of 5 carriers on this page with escalated changes".
 */
export function inboxCount({
  total,
  onPage,
  shown,
  triage,
}: {
  /** carriers the service lists for the filters, over all pages */
  total: number;
  /** carriers on the loaded page */
  onPage: number;
  /** rows shown after the triage filter */
  shown: number;
  triage: TriageFilter;
}): string {
  if (triage === 'all') return carriers(total);
  return `${formatCount(shown)} of ${carriers(onPage)} on this page with ${TRIAGE_WORDS[triage]} changes`;
}
