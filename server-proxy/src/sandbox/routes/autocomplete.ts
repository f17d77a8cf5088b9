import type { FastifyInstance } from 'fastify';
import type { CarrierIdentity } from '../data/types.ts';
import { parseAutocompleteQuery, type RawQuery } from '../../../../src/lib/service/rules/index.ts';
import type { ServiceDeps } from './deps.ts';

interface AutocompleteItem {
  dot_number: string;
  legal_name: string;
  dba_name: string | null;
  city: string;
  state: string;
  docket: string | null;
}

function toAutocompleteItem(identity: CarrierIdentity): AutocompleteItem {
  return {
    dot_number: identity.dot,
    legal_name: identity.legalName,
    dba_name: identity.dbaName ?? null,
    city: identity.city,
    state: identity.state,
    docket: identity.docket ?? null,
  };
}

/** GET <prefix>/autocomplete: `{items, total_count}`, cacheable for 5 minutes, 0.003 USD a query. */
export function registerAutocompleteRoute(app: FastifyInstance, deps: ServiceDeps, prefix: string) {
  app.get(`${prefix}/autocomplete`, async (request, reply) => {
    const { q, limit } = parseAutocompleteQuery(request.query as RawQuery);
    const items = deps.ctx.dataset.autocomplete(q, limit).map(toAutocompleteItem);
    deps.ctx.ledger.charge(request.apiKey, 'autocomplete', deps.ctx.clock.now());
    reply.header('cache-control', 'private, max-age=300');
    return { items, total_count: items.length };
  });
}
