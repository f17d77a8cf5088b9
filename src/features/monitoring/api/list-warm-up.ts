/**
 * Warm-up of the list reader in a freshly started worker. A page of 500 profiles is ~6,000 change
 * records; read by code the engine has never run, the first page took about twice as long as the
 * next ones (CPU profile of issue 17: `parseChangeRecord` and `triageId` running unoptimised).
 * While the first list request is in flight the worker has nothing to do, so it reads a small
 * made-up page of the same shape a few times: the hot functions are optimised before the real
 * answer arrives. The made-up page is never shown and nothing is asked for it.
 */
import { changeIdsOf } from '../../../lib/monitoring/change-id.ts';
import { readListText } from './list-reader.ts';

/** Profiles per made-up page and records per profile (the sandbox's pages hold 10–14 records). */
const WARM_UP_PROFILES = 10;
const RECORDS_PER_PROFILE = 12;

/** One change record in the service's shape: changed fields as current/prior/changed triples. */
function sampleRecord(profile: number, record: number): Record<string, unknown> {
  const day = String(1 + ((profile + record) % 28)).padStart(2, '0');
  const base: Record<string, unknown> = {
    last_changed_date: `202612${day}`,
    started_monitoring_at: 1_795_749_717,
    mcs150_date_current: '2026-12-15',
    safety_rating_date_current: '2026-12-01',
    last_crash_date_current: `2026-11-${day}`,
  };
  switch (record % 4) {
    case 0:
      return {
        ...base,
        telephone_number_current: `30155${profile}${record}`,
        telephone_number_prior: `30155${record}${profile}`,
        telephone_number_changed: true,
      };
    case 1:
      return {
        ...base,
        total_power_units_current: profile + record,
        total_power_units_prior: profile,
        total_power_units_changed: true,
        total_drivers_current: record + 2,
        total_drivers_prior: record + 1,
        total_drivers_changed: true,
      };
    case 2:
      return {
        ...base,
        insurance_pending_cancel_date_current: `2027-01-${day}`,
        insurance_pending_cancel_date_prior: null,
        insurance_pending_cancel_date_changed: true,
      };
    default:
      return {
        ...base,
        safety_rating_desc_current: record % 8 === 3 ? 'Satisfactory' : 'Conditional',
        safety_rating_desc_prior: 'Unrated',
        safety_rating_desc_changed: 'Y',
        email_address_current: `ops${record}@warm-up.example`,
        email_address_prior: `desk${profile}@warm-up.example`,
        email_address_changed: 1,
      };
  }
}

/** A made-up `monitoring/list` answer (JSON text) of `profiles` profiles. */
export function warmUpPage(profiles = WARM_UP_PROFILES): string {
  const items: Record<string, Record<string, unknown>[]> = {};
  for (let profile = 0; profile < profiles; profile += 1) {
    const dot = 9_900_000 + profile;
    items[`${dot}-MC${dot}`] = Array.from({ length: RECORDS_PER_PROFILE }, (_, record) =>
      sampleRecord(profile, record),
    );
  }
  return JSON.stringify({ total_count: profiles, items });
}

/** Reads the made-up page as a real answer is read (list, then change ids); the count of ids. */
export function warmUpOnce(text: string): number {
  const reading = readListText(text);
  if (!reading.ok) return 0;
  return changeIdsOf(reading.list.profiles).reduce((sum, ids) => sum + ids.length, 0);
}

/**
 * Runs `rounds` readings, one task each (`schedule` queues the next), so a real request that
 * arrives meanwhile waits for one round at most. `isBusy` stops the warm-up once real work came.
 */
export function warmUpInRounds(
  rounds: number,
  schedule: (next: () => void) => void,
  isBusy: () => boolean,
): void {
  const text = warmUpPage();
  let left = rounds;
  const round = () => {
    if (left <= 0 || isBusy()) return;
    left -= 1;
    warmUpOnce(text);
    schedule(round);
  };
  schedule(round);
}
