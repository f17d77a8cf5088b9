import type { CarrierDataset, WireProfile } from '../data/types.ts';
import { mergeOverrides } from './overrides.ts';
import { PROFILE_DATE_FIELDS, type ProfileDateField } from './records.ts';
import type { MonitoringStore } from './store.ts';

export type ProfileDates = Partial<Record<ProfileDateField, string>>;

/** The date fields a change record carries as `<field>_current`, as the profile has them. */
function datesOf(profile: WireProfile | undefined): ProfileDates {
  const dates: ProfileDates = {};
  for (const field of PROFILE_DATE_FIELDS) {
    const value = profile?.[field];
    if (typeof value === 'string' && value !== '') dates[field] = value;
  }
  return dates;
}

/**
 * The current date fields of watched carriers, for the list's records and its `date_type` filters.
 *
 * Generating a carrier's profile takes milliseconds (a list page needs 500), and the dataset never
 * changes, so the generated profile's dates are kept per DOT (null: no such carrier); `advance`,
 * which generates every watched profile anyway, hands them in. The overrides that events wrote are
 * merged over them on every call, as over the whole profile.
 */
export class ProfileDatesCache {
  private readonly generated = new Map<string, ProfileDates | null>();
  private readonly dataset: CarrierDataset;
  private readonly store: MonitoringStore;

  constructor(dataset: CarrierDataset, store: MonitoringStore) {
    this.dataset = dataset;
    this.store = store;
  }

  /** Keep the dates of a generated profile (the dataset's own, before any override). */
  remember(dot: string, generated: WireProfile | undefined): void {
    if (!this.generated.has(dot)) this.generated.set(dot, generated ? datesOf(generated) : null);
  }

  /** The carrier's current dates: generated, with the overrides applied; none for unknown DOTs. */
  current(dot: string): ProfileDates {
    if (!this.generated.has(dot)) this.remember(dot, this.dataset.getProfile(dot));
    const generated = this.generated.get(dot);
    if (!generated) return {};
    const overrides = this.store.overridesOfFields(PROFILE_DATE_FIELDS).get(dot);
    return overrides ? datesOf(mergeOverrides(generated, overrides)) : generated;
  }
}
