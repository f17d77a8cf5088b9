import type { FastifyInstance } from 'fastify';
import type { CarrierIdentity } from '../data/types.ts';
import { badRequest } from '../errors.ts';
import {
  AUTOCOMPLETE_Q_MAX,
  isValidAutocompleteQ,
} from '../../../../src/lib/service/search-rules.ts';
import { positiveInt, singleValues, type RawQuery } from '../validate.ts';
import type { ServiceDeps } from './deps.ts';

const AUTOCOMPLETE_DEFAULT_LIMIT = 10;
const AUTOCOMPLETE_MAX_LIMIT = 15;

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

/** q: required, 2..100 characters after trimming; limit: 1.. (default 10), above 15 clamped. */
export function parseAutocomplete(raw: RawQuery): { q: string; limit: number } {
  const values = singleValues(raw, ['q', 'limit']);
  const q = values.q?.trim();
  if (q === undefined) {
    throw badRequest(
      'missing_q',
      'The query parameter "q" is required',
      'Send q with at least 2 characters, e.g. q=hansen.',
    );
  }
  if (!isValidAutocompleteQ(q)) {
    throw badRequest(
      'invalid_q',
      `"q" must be 2 to ${AUTOCOMPLETE_Q_MAX} printable characters, got ${q.length}`,
      'Type at least 2 characters of a carrier name or USDOT number.',
    );
  }
  const limit = positiveInt(values.limit, 'limit', 'invalid_limit', 1_000_000_000);
  return { q, limit: Math.min(limit ?? AUTOCOMPLETE_DEFAULT_LIMIT, AUTOCOMPLETE_MAX_LIMIT) };
}

/** GET <prefix>/autocomplete: `{items, total_count}`, cacheable for 5 minutes, 0.003 USD a query. */
export function registerAutocompleteRoute(app: FastifyInstance, deps: ServiceDeps, prefix: string) {
  app.get(`${prefix}/autocomplete`, async (request, reply) => {
    const { q, limit } = parseAutocomplete(request.query as RawQuery);
    const items = deps.ctx.dataset.autocomplete(q, limit).map(toAutocompleteItem);
    deps.ctx.ledger.charge(request.apiKey, 'autocomplete', deps.ctx.clock.now());
    reply.header('cache-control', 'private, max-age=300');
    return { items, total_count: items.length };
  });
}
