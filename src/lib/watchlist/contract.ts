/**
 * The contract of `POST /api/local/watchlist/resolve` (server-proxy/src/triage/resolve.ts): the dry
 * run's plan and the resolution of pasted DOTs, dockets and profile ids to profile ids, as zod
 * schemas the proxy and the SPA (src/entities/watchlist/cost.ts) both import.
 */
import { z } from 'zod';
import { defineRoute, errors, inputIssue } from '../api/route-contract.ts';
import { MAX_ENTRY_CHARS } from '../service/rules/entries.ts';

/** Most entries one request takes; more is a 400 naming the limit. */
export const MAX_RESOLVE_ENTRIES = 10_000;

/** `{plan}` of a dry run (`dryRun: true`): what resolving would ask, nothing called or billed. */
const resolvePlanSchema = z.object({
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
const resolveAnswerSchema = z.union([resolvePlanAnswerSchema, resolutionSchema]);

const ENTRIES = `"entries" must be an array of 1 to ${MAX_RESOLVE_ENTRIES} strings`;
export const RESOLVE_HINT = `Send {"entries": ["568253", "MC277621", "568253-MC277621"], "dryRun"?: true} with at most ${MAX_RESOLVE_ENTRIES} entries.`;

const isEntry = (entry: unknown): entry is string =>
  typeof entry === 'string' && entry.trim() !== '' && entry.length <= MAX_ENTRY_CHARS;

/** `{entries: string[], dryRun?: boolean}`. */
const resolveBodySchema = z.strictObject(
  {
    entries: z
      .array(z.unknown(), { error: ENTRIES })
      .min(1, { error: ENTRIES })
      .max(MAX_RESOLVE_ENTRIES, { error: ENTRIES })
      .transform((entries, ctx) => {
        const bad = entries.findIndex((entry) => !isEntry(entry));
        if (bad >= 0) {
          const message = `entries[${bad}] must be a non-empty string of at most ${MAX_ENTRY_CHARS} characters`;
          ctx.addIssue(inputIssue('invalid_entries', message));
        }
        return entries.filter(isEntry);
      })
      .meta({
        description: 'USDOT numbers, dockets (MC/MX/FF) or profile ids',
        items: { type: 'string' },
      }),
    dryRun: z
      .boolean({ error: '"dryRun" must be true or false' })
      .default(false)
      .meta({ description: 'true: only the plan, nothing called or billed' }),
  },
  { error: 'The body must be a JSON object' },
);

export const resolveRoute = defineRoute({
  method: 'POST',
  path: '/api/local/watchlist/resolve',
  tag: 'Monitoring',
  summary: 'Resolve pasted DOTs, dockets and profile ids to the profile ids the watchlist takes',
  description:
    'With dryRun: the plan and its highest cost, nothing called. Without: the look-ups through the mirror (budget, queue, audit), each failure named per entry.',
  body: resolveBodySchema,
  responses: {
    200: resolveAnswerSchema,
    400: errors('invalid_body', 'invalid_entries', 'invalid_dry_run', 'unknown_field'),
  },
});
