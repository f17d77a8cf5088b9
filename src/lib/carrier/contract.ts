/**
 * The contract of a carrier's profile cut by the proxy: `GET /api/local/profile-summary` and
 * `GET /api/local/profile-view` (server-proxy/src/routes/profile-summary.ts, profile-view.ts,
 * docs/proxy.md "Profile views"), as zod schemas the proxy and the SPA (src/features/profile) both
 * import. The profile items themselves are the service's, as sent: their fields are read by the
 * shared parser (src/lib/service/profile.ts), not here.
 */
import { z } from 'zod';

/** One profile item, or one element of a history, as the service sent it. */
const serviceItemSchema = z.record(z.string(), z.unknown());

/**
 * A `/v2/profile` answer: the spec's envelope `{items, total_count}`, or the bare array or bare
 * item the shared parser also reads (src/lib/service/envelope.ts). The summary is this answer with
 * the four long histories left out of every item (`x-profile-summary-omitted` names them).
 */
export const profileAnswerSchema = z.union([
  z.looseObject({ items: z.array(serviceItemSchema), total_count: z.unknown().optional() }),
  z.array(serviceItemSchema),
  serviceItemSchema.refine((item) => !Object.hasOwn(item, 'view'), {
    error: 'a bare profile item, not a view',
  }),
]);

/** `GET /api/local/profile-summary` (and the `summary` view of `/api/local/profile-view`). */
export const profileSummarySchema = profileAnswerSchema;

/** The paged views and the history each one pages through. */
export const PAGED_VIEWS = ['inspections', 'crashes', 'equipment'] as const;
export type PagedView = (typeof PAGED_VIEWS)[number];
export const POINTS_VIEWS = ['inspection-points', 'crash-points'] as const;
export type PointsView = (typeof POINTS_VIEWS)[number];

/** A page of a history: `view=inspections|crashes|equipment`. */
export const profileViewPageSchema = z.object({
  view: z.enum(PAGED_VIEWS),
  dot_number: z.string(),
  /** elements of the history */
  total: z.number().int().nonnegative(),
  /** of those, the ones the filters match */
  matched: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  sort: z.string(),
  dir: z.enum(['asc', 'desc']),
  rows: z.array(
    z.object({
      /** the id the tabs give the row (`_id`, report number or VIN, else `<kind>-<index>`) */
      id: z.string(),
      /** the element's position in the service's array */
      index: z.number().int().nonnegative(),
      item: serviceItemSchema,
    }),
  ),
  /** inspections only: filter choices over the whole history */
  choices: z.object({ states: z.array(z.string()), levels: z.array(z.string()) }).optional(),
  /** inspections only: inspections per state over the whole history, most first */
  state_counts: z.array(z.object({ state: z.string(), inspections: z.number() })).optional(),
});
export type ProfileViewPage = z.infer<typeof profileViewPageSchema>;

/** The map's points: `view=inspection-points|crash-points`, each `[lon, lat, row id]`. */
export const profileViewPointsSchema = z.object({
  view: z.enum(POINTS_VIEWS),
  dot_number: z.string(),
  total: z.number().int().nonnegative(),
  points: z.array(z.tuple([z.number(), z.number(), z.string()])),
});
export type ProfileViewPoints = z.infer<typeof profileViewPointsSchema>;

/** The network fields of the item and the carrier's own records of the VINs it shares. */
export const profileViewNetworkSchema = z.object({
  view: z.literal('network'),
  dot_number: z.string(),
  item: serviceItemSchema,
});
export type ProfileViewNetwork = z.infer<typeof profileViewNetworkSchema>;

/** Any answer of `GET /api/local/profile-view`, by its `view` (the summary view has none). */
export const profileViewSchema = z.union([
  profileViewPageSchema,
  profileViewPointsSchema,
  profileViewNetworkSchema,
  profileSummarySchema,
]);
