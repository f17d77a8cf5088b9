/** The Authority & insurance tab's derived data: coverage vs requirement, timeline, pending cancellations. */
import type { AuthorityEntry, InsuranceEntry, Profile } from '../../../../../lib/service/index.ts';

export const AUTHORITY_TYPES = [
  { id: 'common', label: 'Common carrier' },
  { id: 'contract', label: 'Contract carrier' },
  { id: 'broker', label: 'Broker' },
] as const;

type CoverageStatus = 'shortfall' | 'met' | 'not-required' | 'unknown';

export interface CoverageRow {
  id: 'bipd' | 'cargo' | 'bond';
  label: string;
  onFile: number | undefined;
  required: number | undefined;
  status: CoverageStatus;
  /** how much is missing when short */
  shortfall: number | undefined;
}

const COVERAGES = [
  { id: 'bipd', label: 'Liability (BIPD)' },
  { id: 'cargo', label: 'Cargo' },
  { id: 'bond', label: 'Surety bond / trust fund' },
] as const;

function coverageStatus(onFile: number | undefined, required: number | undefined): CoverageStatus {
  if (required === undefined) return 'unknown';
  if (required <= 0) return 'not-required';
  return (onFile ?? 0) < required ? 'shortfall' : 'met';
}

/** Insurance on file against what is required, per coverage; a shortfall says how much is missing. */
export function coverageRows(profile: Profile): CoverageRow[] {
  return COVERAGES.map(({ id, label }) => {
    const onFile = profile[`insurance_${id}_on_file`];
    const required = profile[`insurance_${id}_required`];
    const status = coverageStatus(onFile, required);
    const shortfall =
      status === 'shortfall' && required !== undefined ? required - (onFile ?? 0) : undefined;
    return { id, label, onFile, required, status, shortfall };
  });
}

export interface TimelineEvent {
  date: string | undefined;
  authority: string;
  action: string;
  key: string;
}

/** Grants and dispensations of `authority_history` as dated events, newest first. */
export function authorityTimeline(history: readonly AuthorityEntry[] | undefined): TimelineEvent[] {
  const events = (history ?? []).flatMap((entry, index): TimelineEvent[] => {
    const authority = entry.authority_type_desc ?? 'Authority';
    const base = entry._id ?? String(index);
    const granted: TimelineEvent = {
      date: entry.original_served_date,
      authority,
      action: entry.original_action_desc ?? 'Filed',
      key: `${base}-original`,
    };
    if (!entry.dispensation_action_desc && !entry.dispensation_served_date) return [granted];
    return [
      granted,
      {
        date: entry.dispensation_served_date,
        authority,
        action: entry.dispensation_action_desc ?? 'Ended',
        key: `${base}-dispensation`,
      },
    ];
  });
  return events.sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
}

/** A cancellation that takes effect after `reference` (YYYY-MM-DD): the policy is still on file. */
export function isPendingCancellation(entry: InsuranceEntry, reference: string): boolean {
  return entry.cancel_effective_date !== undefined && entry.cancel_effective_date > reference;
}

/** Today as YYYY-MM-DD (UTC), the fallback reference when the profile has no snapshot date. */
export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

const STATUS_LABELS: Record<string, string> = { A: 'Active', H: 'Historical' };

/** The service's one-letter policy status in words: A → Active, H → Historical. */
export function insuranceStatusLabel(status: string | undefined): string {
  if (!status) return '—';
  return STATUS_LABELS[status.trim().toUpperCase()] ?? status;
}
