import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LITE_PROFILE_FIELDS } from '../../../../src/lib/service/index.ts';
import type { BillableKind } from '../context.ts';
import type { SearchQuery, WireProfile } from '../data/types.ts';
import { parseProfileSearch, type RawQuery } from '../../../../src/lib/service/rules/index.ts';
import { envelopeJson, servedProfile, type ServiceDeps } from './deps.ts';

export interface SearchEnvelope {
  items: WireProfile[];
  total_count: number;
}

/** Keep only the lite fields that have a value, in LITE_PROFILE_FIELDS order. */
function toLite(profile: WireProfile): WireProfile {
  const lite: WireProfile = {};
  for (const field of LITE_PROFILE_FIELDS) {
    if (profile[field] !== undefined) lite[field] = profile[field];
  }
  return lite;
}

/** For VIN searches: the decoded vehicle and its own inspection history, added to each item. */
function withVehicle(deps: ServiceDeps, query: SearchQuery, profile: WireProfile): WireProfile {
  if (query.key !== 'vin') return profile;
  const vehicle = deps.ctx.dataset.vehicle(query.value.toUpperCase());
  if (!vehicle) return profile;
  return { ...profile, vin_decoded: vehicle.decoded, vin_inspection_history: vehicle.inspections };
}

/**
 * Run a search, serve one page, and bill each DOT served on it (per unique DOT per month, so a
 * repeat in the same month is free).
 */
function searchAndServe(
  deps: ServiceDeps,
  request: FastifyRequest,
  kind: Extract<BillableKind, 'profile' | 'profile_lite'>,
): SearchEnvelope {
  const { query, page, pageSize } = parseProfileSearch(request.query as RawQuery);
  const dots = deps.ctx.dataset.search(query);
  const start = (page - 1) * pageSize;
  const now = deps.ctx.clock.now();
  const items: WireProfile[] = [];
  for (const dot of dots.slice(start, start + pageSize)) {
    const profile = servedProfile(deps, dot);
    if (!profile) continue;
    items.push(kind === 'profile' ? withVehicle(deps, query, profile) : toLite(profile));
    deps.ctx.ledger.charge(request.apiKey, kind, now, dot);
  }
  return { items, total_count: dots.length };
}

/**
 * The envelope as JSON text, exactly what `JSON.stringify(envelope)` (Fastify's default) would
 * send, built from each item's cached JSON so a repeat or heavy profile is not serialised again.
 */
function sendEnvelope(reply: FastifyReply, envelope: SearchEnvelope): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .send(envelopeJson(envelope.items, envelope.total_count));
}

/** GET <prefix>/profile and GET <prefix>/profile-lite. */
export function registerProfileRoutes(app: FastifyInstance, deps: ServiceDeps, prefix: string) {
  app.get(`${prefix}/profile`, async (request, reply) =>
    sendEnvelope(reply, searchAndServe(deps, request, 'profile')),
  );
  app.get(`${prefix}/profile-lite`, async (request) =>
    searchAndServe(deps, request, 'profile_lite'),
  );
}
