/**
 * The contract of `POST /api/local/watchlist/resolve` (server-proxy/src/triage/resolve.ts): the dry
 * run's plan and the resolution of pasted DOTs, dockets and profile ids to profile ids, as zod
 * schemas the proxy and the SPA (src/entities/watchlist/cost.ts) both import.
 */
import { z } from 'zod';

/** Most entries one request takes; more is a 400 naming the limit. */
export const MAX_RESOLVE_ENTRIES = 10_000;

/** `{plan}` of a dry run (`dryRun: true`): what resolving would ask, nothing called or billed. */
export const resolvePlanSchema = z.object({
  entries: z.number(),
  profileIds: z.number(),
  dots: z.number(),
  dockets: z.number(),
  invalid: z.number(),
  /** upper bound: every DOT needing both lookups, every lookup a billed miss */
  maxCostUsd: z.number(),
});
export type ResolvePlan = z.infer<typeof resolvePlanSchema>;
export const resolvePlanAnswerSchema = z.object({ plan: resolvePlanSchema });

/** How an entry was resolved: taken as given, by autocomplete, or by the FMCSA profile. */
const RESOLVE_VIA = ['given', 'autocomplete', 'profile-fmcsa'] as const;
export type ResolveVia = (typeof RESOLVE_VIA)[number];

const UNRESOLVED_REASONS = [
  'invalid_entry',
  'not_found',
  'budget_exceeded',
  'rate_limited',
  'upstream_error',
] as const;
export type UnresolvedReason = (typeof UNRESOLVED_REASONS)[number];

/** The resolution of the entries (without `dryRun`). */
export const resolutionSchema = z.object({
  resolved: z.array(
    z.object({ input: z.string(), profile_id: z.string(), via: z.enum(RESOLVE_VIA) }),
  ),
  unresolved: z.array(
    z.object({ input: z.string(), reason: z.enum(UNRESOLVED_REASONS), message: z.string() }),
  ),
  /** the distinct profile ids resolved, in input order: what to estimate and add */
  profile_ids: z.array(z.string()),
  /** what the lookups cost (cache hits and FMCSA 404s are free) */
  costUsd: z.number(),
  /** upstream lookups made (cache hits included) */
  lookups: z.object({ autocomplete: z.number(), 'profile-fmcsa': z.number() }),
});
export type Resolution = z.infer<typeof resolutionSchema>;

/** Either answer of `POST /api/local/watchlist/resolve`. */
export const resolveAnswerSchema = z.union([resolvePlanAnswerSchema, resolutionSchema]);
