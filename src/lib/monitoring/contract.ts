/**
 * The monitoring routes' contract: the answers of `/api/local/triage*` (states, names, summary, last
 * visit), `/api/local/monitoring-badge`, `/api/local/monitoring-view` and `/api/local/names/lookup`
 * as zod schemas the proxy (server-proxy/src/triage/, routes/monitoring-*.ts, names/lookup.ts) and
 * the SPA (src/features/monitoring) both import, so neither side can drift from the other.
 * Runtime-neutral: zod and src/lib/service only.
 */
import { z } from 'zod';
import { CHANNELS } from '../service/channels.ts';
import type { MonitoringList } from '../service/monitoring.ts';

// ---------------------------------------------------------------------------------------------
// Triage: GET /api/local/triage, POST /api/local/triage/lookup, PUT /api/local/triage

/** A change's triage state; New is the absence of a stored decision. */
export const triageStateSchema = z.enum(['new', 'reviewed', 'escalated']);

/** A stored triage decision (never New: setting New deletes it). */
export const triageEntrySchema = z.object({
  /** the change's triage id (src/lib/service/triage-id.ts) */
  id: z.string(),
  profile_id: z.string(),
  field: z.string(),
  /** the field's channel, null for a field outside every channel */
  channel: z.enum(CHANNELS).nullable(),
  state: triageStateSchema.exclude(['new']),
  note: z.string().nullable(),
  /** who set it: the user's display name */
  by: z.string(),
  /** ISO time it was set */
  at: z.string(),
});
export type StoredTriage = z.infer<typeof triageEntrySchema>;

/** `GET /api/local/triage` and `POST /api/local/triage/lookup`: the decisions asked for. */
export const triageEntriesSchema = z.object({ items: z.array(triageEntrySchema) });

/** `PUT /api/local/triage`: how many changes were sent and the decisions as stored (New omitted). */
export const triagePutAnswerSchema = z.object({
  updated: z.number().int().nonnegative(),
  items: z.array(triageEntrySchema),
});

// ---------------------------------------------------------------------------------------------
// Visits and summary: /api/local/triage/last-visit, /api/local/triage/summary

/** The user's last two inbox visits (ISO times, null before the first). */
export const inboxVisitSchema = z.object({
  lastVisitAt: z.string().nullable(),
  previousVisitAt: z.string().nullable(),
});
export type InboxVisit = z.infer<typeof inboxVisitSchema>;

const stateCountsSchema = z.object({
  reviewed: z.number().int().nonnegative(),
  escalated: z.number().int().nonnegative(),
});

/** The user's decisions counted, overall, by channel and for fields of no channel. */
export const triageCountsSchema = z.object({
  total: stateCountsSchema,
  byChannel: z.record(z.enum(CHANNELS), stateCountsSchema),
  unmapped: stateCountsSchema,
});
export type TriageCounts = z.infer<typeof triageCountsSchema>;

/** `GET /api/local/triage/summary`: the counts with the visits. */
export const triageSummarySchema = triageCountsSchema.extend(inboxVisitSchema.shape);

// ---------------------------------------------------------------------------------------------
// Names: GET /api/local/triage/names, POST /api/local/names/lookup

/** Where a held name was read: an answer the name store recorded, or a decision record. */
export const NAME_SOURCES = [
  'profile',
  'profile-lite',
  'profile-fmcsa',
  'autocomplete',
  'network',
  'lookup',
  'decision',
] as const;

export const heldNameSchema = z.object({
  /** the legal name (the DBA name when only that is known) */
  name: z.string(),
  /** the DBA name, when one is known that differs */
  dba: z.string().optional(),
  source: z.enum(NAME_SOURCES),
});
export type HeldName = z.infer<typeof heldNameSchema>;

/** `GET /api/local/triage/names`: the names held, by DOT; a DOT with none is left out. */
export const heldNamesSchema = z.object({ names: z.record(z.string(), heldNameSchema) });

/** What a name look-up would cost, before anything is sent. */
export const nameLookupEstimateSchema = z.object({
  /** DOTs asked about */
  carriers: z.number(),
  /** of those, already named in the store: not looked up */
  already_named: z.number(),
  /** to look up */
  to_look_up: z.number(),
  endpoint: z.enum(['profile-fmcsa', 'profile-lite']),
  unit_price_usd: z.number(),
  /** look-ups that may bill (FMCSA: each one found; lite: DOTs not billed this month) */
  billable: z.number(),
  /** what the live service would charge at most */
  metered_cost_usd: z.number(),
  /** what is billed: the metered cost on a live key, 0 in sandbox and test modes */
  cost_usd: z.number(),
  billed: z.boolean(),
  budget_usd: z.number().nullable(),
  spent_usd: z.number(),
  within_budget: z.boolean(),
});
export type NameLookupEstimate = z.infer<typeof nameLookupEstimateSchema>;

export const nameLookupResultSchema = z.object({
  named: z.record(z.string(), z.object({ name: z.string(), dba: z.string().optional() })),
  not_found: z.array(z.string()),
  failed: z.array(z.object({ dot: z.string(), code: z.string(), error: z.string() })),
  /** the look-ups stopped early (budget, rate limit, the service down); the rest were not sent */
  stopped: z.object({ code: z.string(), error: z.string(), hint: z.string() }).optional(),
});
export type NameLookupResult = z.infer<typeof nameLookupResultSchema>;

/** `POST /api/local/names/lookup` without `confirm`: the cost only. */
export const nameLookupEstimateAnswerSchema = z.object({ estimate: nameLookupEstimateSchema });
/** `POST /api/local/names/lookup` with `confirm: true`: the cost and what the look-ups found. */
export const nameLookupResultAnswerSchema = z.object({
  estimate: nameLookupEstimateSchema,
  result: nameLookupResultSchema,
});
/** Either answer of `POST /api/local/names/lookup`. */
export const nameLookupAnswerSchema = z.union([
  nameLookupResultAnswerSchema,
  nameLookupEstimateAnswerSchema,
]);

// ---------------------------------------------------------------------------------------------
// GET /api/local/monitoring-badge

/** `GET /api/local/monitoring-badge`: the navigation badge's count. */
export const monitoringBadgeSchema = z.object({
  /** untriaged (state New) changes over the counted profiles */
  total: z.number().int().nonnegative(),
  /** the same by channel; `other` for fields outside every channel */
  counts: z.record(z.enum([...CHANNELS, 'other']), z.number().int().nonnegative()),
  /** how many changed profiles were counted (at most the largest page size) */
  profiles: z.number().int().nonnegative(),
  /** when the list was read (ISO time) */
  fetchedAt: z.string(),
  /**
   * per DOT of the counted profiles, the day (`YYYY-MM-DD`) of its newest change dated the day
   * before the read or later (server-proxy/src/routes/monitoring-badge.ts)
   */
  recentChanges: z.record(z.string(), z.string()),
});
export type MonitoringBadge = z.infer<typeof monitoringBadgeSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/local/monitoring-view: a page of `/v2/monitoring/list` as src/lib/service/monitoring.ts
// reads it (`MonitoringList`), with every profile's change ids

const extraSchema = z.record(z.string(), z.unknown());

const changeValueSchema = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  extraSchema,
]);

const fieldChangeSchema = z.object({
  field: z.string(),
  current: changeValueSchema,
  prior: changeValueSchema,
  /** absent for a field outside every channel (JSON has no undefined) */
  channel: z.enum(CHANNELS).optional(),
});

const changeRecordSchema = z.object({
  changes: z.array(fieldChangeSchema),
  lastChangedDate: z.string().optional(),
  startedMonitoringAt: z.string().optional(),
  lastAcknowledgedAt: z.string().optional(),
  extra: extraSchema,
});

const monitoredProfileSchema = z.object({
  profileId: z.string(),
  dot: z.string(),
  docket: z.string().optional(),
  records: z.array(changeRecordSchema),
});

export const monitoringListSchema = z.object({
  totalCount: z.number().int().nonnegative(),
  profiles: z.array(monitoredProfileSchema),
});

/** `GET /api/local/monitoring-view`: the page and, per profile in order, its change ids. */
export const monitoringViewSchema = z.object({
  list: monitoringListSchema,
  changeIds: z.array(z.array(z.string())),
});
/**
 * The same answer with its profiles left unread: what the SPA checks before it draws a page (the
 * inbox, src/features/monitoring/api/get-monitoring-list.ts). Reading every change record of a page
 * of 500 profiles (about 4 MB) with `monitoringViewSchema` takes 30 to 470 ms in V8, over the inbox's
 * 250 ms budget from answer to rows (docs/performance.md); the proxy built the page with the shared
 * parser (`parseMonitoringList`), and the route tests check it against the full schema.
 */
export const monitoringViewShellSchema = z.object({
  list: monitoringListSchema.extend({ profiles: z.array(z.unknown()) }),
  changeIds: z.array(z.unknown()),
});

export interface MonitoringView {
  list: MonitoringList;
  /** per profile of `list.profiles`, in order: its change ids, in `inboxChangesOf` order */
  changeIds: string[][];
}

// The schema reads what the parser makes, and what it reads is a `MonitoringList`.
const _viewReadsTheParserType: z.ZodType<MonitoringView> = monitoringViewSchema;
void _viewReadsTheParserType;
