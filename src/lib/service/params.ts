/**
 * Parameter vocabularies of the service's endpoints (spec "Endpoints"), shared by the sandbox, the
 * proxy's validation and the dashboard's forms and URLs.
 */

/** The ten search keys of `/v2/profile` and `/v2/profile-lite`; a search names exactly one. */
export const SEARCH_KEYS = [
  'dot_number',
  'docket_number',
  'company',
  'ein',
  'email',
  'phone',
  'address',
  'vin',
  'plate_number',
  'unit_number',
] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];

/** The seven values of `date_type` on `/v2/monitoring/list`. */
export const DATE_TYPES = [
  'last_changed_date',
  'started_monitoring_at',
  'last_acknowledged_at',
  'mcs150_date_current',
  'safety_rating_date_current',
  'last_crash_date_current',
  'insurance_pending_cancel_date_current',
] as const;
export type DateType = (typeof DATE_TYPES)[number];

/** `sortBy` of `/v2/monitoring/list`: every date type, plus the profile id itself (our sandbox's choice). */
export const SORT_KEYS = [...DATE_TYPES, 'profile_id'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
