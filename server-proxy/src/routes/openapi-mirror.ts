/**
 * The mirrored service routes (/api/v2, routes/mirror.ts) as OpenAPI operations: their query
 * parameters and bodies from the service's vocabularies (src/lib/service), their answers the
 * service's own (spec: /work/shared/spec/carrier-data-service.md, "Endpoints").
 */
import { CHANNELS } from '../../../src/lib/service/channels.ts';
import { ENDPOINTS, type Endpoint } from '../../../src/lib/service/endpoints.ts';
import { DATE_TYPES, SEARCH_KEYS, SORT_KEYS } from '../../../src/lib/service/params.ts';
import { AUTOCOMPLETE_MAX_LIMIT } from '../../../src/lib/service/rules/index.ts';

type Json = Record<string, unknown>;

function queryParam(name: string, schema: Json, description: string, required = false): Json {
  return { name, in: 'query', required, description, schema };
}

const STRING = { type: 'string' };
const PAGING = [
  queryParam('page', { type: 'integer', minimum: 1, default: 1 }, 'Page, from 1'),
  queryParam('pageSize', { type: 'integer', minimum: 1, default: 100 }, 'Items per page'),
];

const SEARCH_WORDS: Record<(typeof SEARCH_KEYS)[number], string> = {
  dot_number: 'USDOT number',
  docket_number: 'MC or MX docket number, with or without prefix',
  company: 'legal name or DBA, current or historical; partial match',
  ein: '9-digit EIN',
  email: 'address or domain; current and historical',
  phone: 'digits or formatted; current and historical',
  address: 'physical address; current and historical',
  vin: '17 characters',
  plate_number: 'licence plate (plate_state narrows)',
  unit_number: 'fleet unit number (unit_type narrows)',
};

const SEARCH = [
  ...SEARCH_KEYS.map((key) =>
    queryParam(key, STRING, `${SEARCH_WORDS[key]}; give exactly one key`),
  ),
  queryParam('plate_state', { type: 'string', pattern: '^[A-Za-z]{2}$' }, 'with plate_number'),
  queryParam('unit_type', { type: 'string', enum: ['TRUCK', 'TRAILER'] }, 'with unit_number'),
  ...PAGING,
];

const PROFILE_IDS_BODY = {
  required: true,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['profile_ids'],
        properties: {
          profile_ids: {
            type: 'array',
            items: { type: 'string', pattern: '^\\d{1,10}-((MC|MX|FF)?\\d{1,10})$' },
            description: 'profile ids <dot_number>-<docket>, e.g. 568253-MC277621',
          },
        },
      },
    },
  },
};

/** What each mirrored endpoint takes, and what it is. */
const MIRROR: Record<Endpoint, { summary: string; parameters?: Json[]; requestBody?: Json }> = {
  profile: { summary: 'Search carrier profiles (the full profile)', parameters: SEARCH },
  'profile-lite': {
    summary: 'Search carrier profiles (the reduced field set)',
    parameters: SEARCH,
  },
  'profile-fmcsa': {
    summary: 'The FMCSA record of one carrier (236 fields)',
    parameters: [
      queryParam('dot_number', STRING, 'USDOT number; this or docket_number'),
      queryParam('docket_number', STRING, 'MC or MX docket; this or dot_number'),
    ],
  },
  autocomplete: {
    summary: 'Carriers whose name starts with q',
    parameters: [
      queryParam('q', { type: 'string', minLength: 2 }, 'at least 2 characters', true),
      queryParam(
        'limit',
        { type: 'integer', minimum: 1, maximum: AUTOCOMPLETE_MAX_LIMIT },
        `at most ${AUTOCOMPLETE_MAX_LIMIT} results`,
      ),
    ],
  },
  'monitoring/add': { summary: 'Watch carriers for changes', requestBody: PROFILE_IDS_BODY },
  'monitoring/remove': { summary: 'Stop watching carriers', requestBody: PROFILE_IDS_BODY },
  'monitoring/list': {
    summary: 'The watched carriers with their change records',
    parameters: [
      queryParam('page', { type: 'integer', minimum: 1, default: 1 }, 'Page, from 1'),
      queryParam(
        'pageSize',
        { type: 'integer', minimum: 1, maximum: 500, default: 100 },
        'Items per page (at most 500)',
      ),
      queryParam('view_changes', { type: 'boolean' }, 'only carriers with any change'),
      ...CHANNELS.map((channel) =>
        queryParam(`view_changes_${channel}`, { type: 'boolean' }, `only ${channel} changes`),
      ),
      queryParam(
        'date_type',
        { type: 'string', enum: [...DATE_TYPES] },
        'the date the range bounds',
      ),
      queryParam('date_min', { type: 'string', pattern: '^\\d{8}$' }, 'YYYYMMDD, inclusive'),
      queryParam('date_max', { type: 'string', pattern: '^\\d{8}$' }, 'YYYYMMDD, inclusive'),
      queryParam(
        'sortBy',
        { type: 'string', enum: [...SORT_KEYS], default: 'last_changed_date' },
        'sort key',
      ),
      queryParam('sortOrder', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'order'),
      queryParam('profile_id', STRING, 'only this profile'),
    ],
  },
};

const PRICE: Record<string, string> = {
  'per-dot-month': 'billed per unique DOT per calendar month',
  'per-match': 'billed per matched lookup (no match free)',
  'per-call': 'billed per query',
  free: 'free',
};

/** The operation of the mirrored route `/api/v2/<endpoint>` (without security and role). */
export function mirrorOperation(endpoint: Endpoint): Json {
  const facts = ENDPOINTS[endpoint];
  const own = MIRROR[endpoint];
  return {
    tags: ['Service mirror'],
    summary: own.summary,
    description:
      `The service's \`${facts.path}\`, forwarded with the proxy's key (${PRICE[facts.price.kind]}). ` +
      'Answers are the service’s own (see its specification); the proxy adds caching, the budget and the audit.',
    ...(own.parameters && { parameters: own.parameters }),
    ...(own.requestBody && { requestBody: own.requestBody }),
    responses: {
      200: {
        description: 'The service’s answer',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    },
  };
}

/** The endpoint a mirrored path names (`/api/v2/monitoring/add` → `monitoring/add`), if any. */
export function mirroredEndpoint(path: string): Endpoint | undefined {
  const name = path.replace(/^\/api\/v2\//, '');
  return name in MIRROR ? (name as Endpoint) : undefined;
}
