/**
 * The contract of a carrier's profile cut by the proxy: `GET /api/local/profile-summary` and
 * `GET /api/local/profile-view` (server-proxy/src/routes/profile-summary.ts, profile-view.ts,
 * docs/proxy.md "Profile views"), as zod schemas the proxy and the SPA (src/features/profile) both
 * import. The profile items themselves are the service's, as sent: their fields are read by the
 * shared parser (src/lib/service/profile.ts), not here.
 */
import { z } from 'zod';
import { defineRoute, errors } from '../api/route-contract.ts';
import { SERVICE_REFUSALS } from '../service/errors.ts';
import { PROFILE_PARAMS } from '../service/rules/profile-search.ts';

/** One profile item, or one element of a history, as the service sent it. */
const serviceItemSchema = z.record(z.string(), z.unknown());

/**
 * A `/v2/profile` answer: the spec's envelope `{items, total_count}`, or the bare array or bare
 * item the shared parser also reads (src/lib/service/envelope.ts). The summary is this answer with
 * the four long histories left out of every item (`x-profile-summary-omitted` names them):
 * `GET /api/local/profile-summary` and the `summary` view of `/api/local/profile-view`.
 */
export const profileSummarySchema = z.union([
  z.looseObject({ items: z.array(serviceItemSchema), total_count: z.unknown().optional() }),
  z.array(serviceItemSchema),
  serviceItemSchema.refine((item) => !Object.hasOwn(item, 'view'), {
    error: 'a bare profile item, not a view',
  }),
]);

/** The paged views and the history each one pages through. */
const PAGED_VIEWS = ['inspections', 'crashes', 'equipment'] as const;
export type PagedView = (typeof PAGED_VIEWS)[number];
const POINTS_VIEWS = ['inspection-points', 'crash-points'] as const;

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
const profileViewSchema = z.union([
  profileViewPageSchema,
  profileViewPointsSchema,
  profileViewNetworkSchema,
  profileSummarySchema,
]);

// ---------------------------------------------------------------------------------------------
// The routes. Their parameters are read by the route itself: the profile's by the rules of
// `/api/v2/profile` (src/lib/service/rules), a view's by its own schema (server-proxy/src/routes/
// profile-view-model.ts), so the query schemas here document them and let every value through as
// it came (a repeated parameter is an array, refused by those rules with their own 400).

/** A parameter passed on as it came; documented as the string it should be. */
const passedOn = (description: string) =>
  z.unknown().optional().meta({ type: 'string', description });

const profileQuerySchema = z.looseObject(
  Object.fromEntries(PROFILE_PARAMS.map((name) => [name, passedOn(`as /api/v2/profile takes it`)])),
);

const VIEWS = ['summary', ...PAGED_VIEWS, ...POINTS_VIEWS, 'network'] as const;

const profileViewQuerySchema = z.looseObject({
  dot_number: passedOn('the carrier’s USDOT number'),
  view: passedOn(`one of ${VIEWS.join(', ')}`),
  offset: passedOn('paged views: the first row, from 0'),
  limit: passedOn('paged views: rows, 1 to 10000 (default 100)'),
  sort: passedOn('paged views: a column of the view (default: its date)'),
  dir: passedOn('paged views: asc or desc (default desc)'),
  from: passedOn('inspections, crashes and their points: from this date, YYYY-MM-DD'),
  to: passedOn('inspections, crashes and their points: to this date, YYYY-MM-DD'),
  state: passedOn('inspections and their points: the report state'),
  level: passedOn('inspections and their points: the inspection level'),
  oos: passedOn('inspections and their points: 1 for out-of-service inspections only'),
  type: passedOn('equipment: POWER UNIT or TRAILER'),
});

const TAG = 'Carrier profile';

export const profileSummaryRoute = defineRoute({
  method: 'GET',
  path: '/api/local/profile-summary',
  tag: TAG,
  summary: 'A carrier’s profile without its four long histories',
  description:
    'Cut from the mirror’s own /v2/profile answer (same validation, cache, budget, meter and audit); the full profile and its summary together cost one billed call. A refusal of the service is passed on with its status.',
  query: profileQuerySchema,
  responses: {
    200: profileSummarySchema,
    // the mirror's refusals as they came; the route's own: 404 unknown_dot
    ...SERVICE_REFUSALS,
    409: errors('summary_unavailable'),
  },
});

export const profileViewRoute = defineRoute({
  method: 'GET',
  path: '/api/local/profile-view',
  tag: TAG,
  summary: 'One view of a carrier’s profile: a page of a history, map points, network, summary',
  description:
    'Cut on the proxy from the one /v2/profile answer (billed as the summary is). A refusal of the service is passed on with its status.',
  query: profileViewQuerySchema,
  responses: {
    200: profileViewSchema,
    // the mirror's refusals as they came; the route's own: 400 invalid_view_query (and the
    // profile's parameter codes), 404 unknown_dot
    ...SERVICE_REFUSALS,
    409: errors('view_unavailable'),
  },
});
