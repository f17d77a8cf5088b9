import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FMCSA_PROFILE_FIELDS, PROFILE_ALIASES } from '../../../../src/lib/service/index.ts';
import type { WireProfile } from '../data/types.ts';
import { SandboxError } from '../errors.ts';
import {
  exactlyOneKey,
  searchValue,
  singleValues,
  type RawQuery,
} from '../../../../src/lib/service/rules/index.ts';
import { isOperating, servedProfile, type ServiceDeps } from './deps.ts';

const FMCSA_KEYS = ['dot_number', 'docket_number'] as const;

/** Live spellings of canonical keys (e.g. bo3_address_city for boc3_address_city). */
const SPELLINGS = new Map<string, string[]>();
for (const [alias, canonical] of Object.entries(PROFILE_ALIASES)) {
  SPELLINGS.set(canonical, [...(SPELLINGS.get(canonical) ?? []), alias]);
}

function valueOf(profile: WireProfile, field: string): unknown {
  if (profile[field] !== undefined) return profile[field];
  const alias = SPELLINGS.get(field)?.find((name) => profile[name] !== undefined);
  return alias === undefined ? undefined : profile[alias];
}

/**
 * Every FMCSA field present under its canonical name, null where the profile has no value (absent,
 * null or ""); a value sent under a live alias spelling is served under the canonical name.
 */
export function toFmcsa(profile: WireProfile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of FMCSA_PROFILE_FIELDS) {
    const value = valueOf(profile, field);
    out[field] = value === undefined || value === '' ? null : value;
  }
  return out;
}

/** Matching profiles, operating carriers (Active USDOT, not out of service) first, stable. */
function matches(
  deps: ServiceDeps,
  request: FastifyRequest,
): { dot: string; profile: WireProfile }[] {
  const values = singleValues(request.query as RawQuery, FMCSA_KEYS);
  const key = exactlyOneKey(values, FMCSA_KEYS);
  const value = searchValue(key, values[key] ?? '');
  const dots = deps.ctx.dataset.search({ key, value });
  const found = dots.flatMap((dot) => {
    const profile = servedProfile(deps, dot);
    return profile ? [{ dot, profile }] : [];
  });
  return operatingFirst(found);
}

/** Operating carriers first; the dataset's order is kept within each group. */
export function operatingFirst<T extends { profile: WireProfile }>(found: readonly T[]): T[] {
  const operating = found.filter((match) => isOperating(match.profile));
  return [...operating, ...found.filter((match) => !isOperating(match.profile))];
}

function notFound(): SandboxError {
  return new SandboxError(
    404,
    'not_found',
    'No carrier matched the supplied identifier',
    'Check the USDOT or docket number; a lookup without a match is not billed.',
  );
}

/**
 * GET <prefix>/profile-fmcsa: a bare object with all FMCSA fields of the best match (operating
 * carrier first); one charge per matched lookup, 404 (free) without a match.
 */
export function registerFmcsaRoute(app: FastifyInstance, deps: ServiceDeps, prefix: string) {
  app.get(`${prefix}/profile-fmcsa`, async (request, reply) => {
    const found = matches(deps, request);
    const best = found[0];
    if (!best) throw notFound();
    deps.ctx.ledger.charge(request.apiKey, 'profile_fmcsa', deps.ctx.clock.now(), best.dot);
    reply.header('x-total-count', String(found.length));
    return toFmcsa(best.profile);
  });
}
