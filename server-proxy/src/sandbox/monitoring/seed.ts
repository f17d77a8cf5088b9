import { CHANNELS, type Channel } from '../../../../src/lib/service/channels.ts';
import type { CarrierDataset, WireProfile } from '../data/types.ts';
import { addDays, compactDay } from './dates.ts';
import { formatProfileId } from './ids.ts';
import { rotatePhone } from './script.ts';
import type { FieldChange, MonitoringStore } from './store.ts';

/** The carrier of every official example; always first on the seeded watchlist. */
export const EXAMPLE_DOT = '568253';
const SEED_WATCHLIST_SIZE = 6;

/** Per channel, the fields a seeded change may use (the first one the profile has). */
const SEED_FIELDS: Record<Channel, readonly string[]> = {
  insurance: ['insurance_bipd_on_file', 'indicator_insurance', 'insurance_cargo_on_file'],
  authority: ['authority_common', 'authority_broker', 'usdot_status'],
  safety: ['safety_rating_desc', 'iss_value', 'crashes_total'],
  fleet: ['total_power_units', 'total_drivers', 'mcs150_mileage'],
  contact: ['telephone_number', 'email_address', 'physical_address_street'],
  risk: ['risk_score', 'risk_score_probability', 'safety_score'],
};

const OTHER_STATE: Record<string, string> = {
  Active: 'Inactive',
  Inactive: 'Active',
  None: 'Active',
  Satisfactory: 'Conditional',
  Conditional: 'Satisfactory',
  Unsatisfactory: 'Conditional',
  Low: 'Medium',
  Medium: 'Low',
  High: 'Medium',
  'Very High': 'High',
};

function priorNumber(value: number): number {
  if (value > 0 && value < 1) return Math.round(value * 60) / 100;
  return value > 10 ? Math.round(value * 0.75) : value + 3;
}

/** A plausible earlier value of `field`, of the same type as `current`; undefined if none. */
function priorValue(field: string, current: unknown): unknown {
  if (typeof current === 'boolean') return !current;
  if (typeof current === 'number') return priorNumber(current);
  if (typeof current !== 'string' || current === '') return undefined;
  if (OTHER_STATE[current]) return OTHER_STATE[current];
  if (field === 'telephone_number') return rotatePhone(current, 4410);
  if (field === 'email_address' && current.includes('@')) {
    return `office@${current.split('@')[1] ?? ''}`;
  }
  if (field === 'physical_address_street') return 'PO BOX 4410';
  if (/^\d+(?:\.\d+)?$/.test(current)) return String(priorNumber(Number(current)));
  return undefined;
}

function seededChange(profile: WireProfile, channel: Channel): FieldChange | undefined {
  for (const field of SEED_FIELDS[channel]) {
    const current = profile[field];
    const prior = priorValue(field, current);
    if (prior !== undefined && prior !== current) return { field, prior, current };
  }
  return undefined;
}

/** The seeded carriers: the example carrier first, then curated carriers in scenario order. */
function seedDots(dataset: CarrierDataset): string[] {
  const ordered = [EXAMPLE_DOT, ...dataset.curatedDots.filter((dot) => dot !== EXAMPLE_DOT)];
  return ordered
    .filter((dot) => dataset.getIdentity(dot) !== undefined)
    .slice(0, SEED_WATCHLIST_SIZE);
}

/**
 * Channels of the history of seeded carrier `index`: all six for the first, three alternating
 * ones for the others, none for the last (a watched profile without changes).
 */
function seededChannels(index: number, count: number): readonly Channel[] {
  if (index === 0) return CHANNELS;
  if (index === count - 1) return [];
  return CHANNELS.filter((_, position) => (position + index) % 2 === 0);
}

/**
 * Seed the watchlist and a history of changes dated before `now`. The changes end at the
 * generated profile's values, so profiles need no overrides to agree with their history.
 */
export function seedWatchlist(store: MonitoringStore, dataset: CarrierDataset, now: Date): void {
  const dots = seedDots(dataset);
  dots.forEach((dot, index) => {
    const identity = dataset.getIdentity(dot);
    const profile = dataset.getProfile(dot);
    if (!identity || !profile) return;
    const profileId = formatProfileId(identity.dot, identity.docket);
    store.insertWatch({
      profile_id: profileId,
      dot,
      started_at: Math.floor(addDays(now, -120 + 10 * index).getTime() / 1000),
      acknowledged_at: index === 1 ? addDays(now, -2).toISOString() : null,
      billed_key: null,
      billed_through: null,
    });
    const changes = seededChannels(index, dots.length)
      .map((channel) => seededChange(profile, channel))
      .filter((change): change is FieldChange => change !== undefined);
    for (let start = 0; start < changes.length; start += 2) {
      const date = addDays(now, -(2 + 11 * (start / 2) + 3 * index));
      store.insertChange(profileId, compactDay(date), changes.slice(start, start + 2));
    }
  });
}
