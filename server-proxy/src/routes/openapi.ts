/**
 * GET /api/openapi.json: an OpenAPI 3.1 document of the routes the router has under /api. Each
 * route registered with a contract (http/contract-route.ts) is described from its zod schemas
 * (zod 4's `z.toJSONSchema`, JSON Schema 2020-12, which OpenAPI 3.1 uses as it is); a route not yet
 * declared appears with its path parameters and a generic answer; the mirrored /api/v2 routes
 * from the service's vocabularies (openapi-mirror.ts). Every operation carries the role it needs
 * (`x-required-role`, ROUTE_ROLES). GET /api/docs renders the same document as plain HTML
 * (api-docs.ts). docs/api.md, "Contracts".
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  apiErrorSchema,
  isZodSchema,
  routeKey,
  type ResponseSpec,
  type RouteContract,
} from '../../../src/lib/api/route-contract.ts';
import { openApiRoute } from '../../../src/lib/api/reference-contract.ts';
import { SESSION_COOKIE } from '../governance/access.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../governance/csrf.ts';
import { ROUTE_ROLES, type RouteRole } from '../governance/roles.ts';
import { contractRoute } from '../http/contract-route.ts';
import { mirrorOperation, mirroredEndpoint } from './openapi-mirror.ts';

type Json = Record<string, unknown>;

/** An OpenAPI 3.1 document (its top level). */
export type OpenApiDocument = Json & { openapi: '3.1.0'; paths: Record<string, Json> };

/** A route the router has under /api: its method, its path and, when declared, its contract. */
export interface ApiRoute {
  method: string;
  path: string;
  contract?: RouteContract;
}

/**
 * Every route under /api as it registers (an onRoute hook: add it before the routes), in order.
 * The list is live: it grows as routes register.
 */
export function collectApiRoutes(app: FastifyInstance): ApiRoute[] {
  const routes: ApiRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (route.url !== '/api' && !route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method, path: route.url, contract: route.config?.contract });
    }
  });
  return routes;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  207: 'Partly done',
  302: 'Redirect',
  303: 'See other',
  400: 'Bad input',
  401: 'Not signed in, or an unknown, revoked or expired token',
  403: 'The role does not allow it, or the CSRF check refused it',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  429: 'Too many requests',
  500: 'Failed',
  502: 'The service failed',
  503: 'Unavailable',
};

const ERROR_REF = { $ref: '#/components/schemas/ApiError' };

/** Schemas named with `.meta({id})`, gathered into components.schemas while a document is built. */
class SchemaSet {
  readonly named: Record<string, Json> = {};

  /** The JSON Schema of `schema` as sent (`output`) or as read (`input`), named parts as $refs. */
  toJson(schema: z.ZodType, io: 'input' | 'output'): Json {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      // a plain z.object is not closed: answers may carry members added later
      override: (ctx) => {
        const def = ctx.zodSchema._zod.def as { type: string; catchall?: unknown };
        if (def.type === 'object' && def.catchall === undefined) {
          delete ctx.jsonSchema.additionalProperties;
        }
      },
    }) as Json;
    const { $defs, $schema: _dialect, ...root } = json;
    const renames = new Map<string, string>();
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      renames.set(id, this.place(id, def, io));
    }
    const fix = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(fix);
      if (typeof value !== 'object' || value === null) return value;
      const out: Json = {};
      for (const [key, inner] of Object.entries(value)) {
        out[key] =
          key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
            ? `#/components/schemas/${renames.get(inner.slice(8)) ?? inner.slice(8)}`
            : fix(inner);
      }
      return out;
    };
    for (const final of renames.values()) this.named[final] = fix(this.named[final]) as Json;
    return fix(root) as Json;
  }

  /** Keep a named schema; the input form of one that reads otherwise than it is sent gets `…Input`. */
  private place(name: string, def: Json, io: 'input' | 'output'): string {
    const existing = this.named[name];
    if (existing === undefined || same(existing, def)) {
      this.named[name] = def;
      return name;
    }
    const other = io === 'input' ? `${name}Input` : `${name}Output`;
    this.named[other] = def;
    return other;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `/api/local/tokens/:id/revoke` → `/api/local/tokens/{id}/revoke`, and the parameters' names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_match, param: string) => {
    params.push(param);
    return `{${param}}`;
  });
  return { path: converted, params };
}

/**
 * The members of an object schema as parameters `in` path or query. A union of objects (one key
 * or another, as the verdict's `dot_number` | `docket_number`) gives every member's keys, each
 * required only when every alternative requires it.
 */
function parametersOf(schema: Json, where: 'path' | 'query'): Json[] {
  const alternatives = (schema.anyOf ?? schema.oneOf ?? [schema]) as Json[];
  const properties = Object.assign(
    {},
    ...alternatives.map((alternative) => alternative.properties ?? {}),
  ) as Record<string, Json>;
  const required = new Set(
    Object.keys(properties).filter((key) =>
      alternatives.every((alternative) => ((alternative.required ?? []) as string[]).includes(key)),
    ),
  );
  return Object.entries(properties).map(([param, inner]) => {
    const { description, ...rest } = inner;
    return {
      name: param,
      in: where,
      required: where === 'path' || required.has(param),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    };
  });
}

function responseOf(status: number, spec: ResponseSpec, schemas: SchemaSet): Json {
  const text = STATUS_TEXT[status] ?? 'Answer';
  if (isZodSchema(spec)) {
    const schema = schemas.toJson(spec, 'output');
    const description = typeof schema.description === 'string' ? schema.description : text;
    return { description, content: { 'application/json': { schema } } };
  }
  if (spec.kind === 'error') {
    return {
      description: `${text}: {error, code, hint}; code ${spec.codes.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  if (spec.kind === 'empty') return { description: spec.description };
  const content: Json = {};
  for (const [type, what] of Object.entries(spec.media)) {
    content[type] = { schema: { type: 'string', description: what } };
  }
  if (spec.json) content['application/json'] = { schema: schemas.toJson(spec.json, 'output') };
  return { description: spec.description, content };
}

const ROLE_WORDS: Record<RouteRole, string> = {
  open: 'open: no sign-in needed',
  viewer: 'viewer or above (any signed-in user or API token)',
  analyst: 'analyst or admin (an analyst API token too)',
  admin: 'admin (people only: a token is at most an analyst)',
};

/** Sign-in with the session cookie (plus the CSRF header), or an API token. */
const SIGNED_IN = [{ sessionCookie: [], csrfHeader: [] }, { bearerToken: [] }];

function withRole(operation: Json, role: RouteRole | undefined): Json {
  const roleLine = role === undefined ? '' : `Role: ${ROLE_WORDS[role]}.`;
  const description = [operation.description, roleLine].filter(Boolean).join('\n\n');
  return {
    ...operation,
    ...(description && { description }),
    ...(role !== undefined && { 'x-required-role': role }),
    security: role === 'open' ? [] : SIGNED_IN,
  };
}

/** The operation of a contract route. */
function contractOperation(contract: RouteContract, schemas: SchemaSet): Json {
  const { params } = openApiPath(contract.path);
  const pathSchema = contract.params ? schemas.toJson(contract.params, 'input') : undefined;
  const parameters = [
    ...(pathSchema
      ? parametersOf(pathSchema, 'path')
      : params.map((param) => ({
          name: param,
          in: 'path',
          required: true,
          schema: { type: 'string' },
        }))),
    ...(contract.query ? parametersOf(schemas.toJson(contract.query, 'input'), 'query') : []),
  ];
  const responses: Json = {};
  for (const [status, spec] of Object.entries(contract.responses)) {
    responses[status] = responseOf(Number(status), spec, schemas);
  }
  responses.default = {
    description: 'Any error: {error, code, hint}',
    content: { 'application/json': { schema: ERROR_REF } },
  };
  return {
    tags: [contract.tag],
    summary: contract.summary,
    ...(contract.description && { description: contract.description }),
    operationId: operationId(contract.method, contract.path),
    ...(parameters.length > 0 && { parameters }),
    ...(contract.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemas.toJson(contract.body, 'input') } },
      },
    }),
    responses,
  };
}

/** A route registered without a contract yet: its path parameters and a generic JSON answer. */
function undeclaredOperation(method: string, path: string): Json {
  const { params } = openApiPath(path);
  return {
    tags: ['Not yet declared'],
    summary: `${method} ${path}`,
    description: 'This route has no contract yet: its inputs and answer are not described here.',
    operationId: operationId(method, path),
    ...(params.length > 0 && {
      parameters: params.map((param) => ({
        name: param,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
    }),
    responses: {
      200: { description: 'OK', content: { 'application/json': { schema: {} } } },
      default: {
        description: 'Any error: {error, code, hint}',
        content: { 'application/json': { schema: ERROR_REF } },
      },
    },
  };
}

/** `POST /api/local/tokens/:id/revoke` → `postApiLocalTokensIdRevoke` (unique per route). */
function operationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${method.toLowerCase()}${words.join('')}`;
}

export interface OpenApiOptions {
  /** the least role of each route (default ROUTE_ROLES) */
  roles?: Readonly<Record<string, RouteRole>>;
  version?: string;
}

/** The OpenAPI 3.1 document of `routes`. */
export function openApiDocument(
  routes: readonly ApiRoute[],
  options: OpenApiOptions = {},
): OpenApiDocument {
  const roles = options.roles ?? ROUTE_ROLES;
  const schemas = new SchemaSet();
  schemas.toJson(apiErrorSchema, 'output');
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    const endpoint = route.path.startsWith('/api/v2/') ? mirroredEndpoint(route.path) : undefined;
    const operation = route.contract
      ? contractOperation(route.contract, schemas)
      : endpoint
        ? { ...mirrorOperation(endpoint), operationId: operationId(route.method, route.path) }
        : undeclaredOperation(route.method, route.path);
    for (const tag of operation.tags as string[]) tags.add(tag);
    const { path } = openApiPath(route.path);
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: withRole(operation, roles[routeKey(route)]),
    };
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'carrier-desk API',
      version: options.version ?? '1',
      description:
        'The proxy’s own API (/api/local) and its mirror of the carrier data service (/api/v2). ' +
        `Call it with an API token (\`Authorization: Bearer cdk_…\`, made by an admin on the Settings page) ` +
        `or, from the dashboard, with the session cookie and the \`${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\` header. ` +
        'Every error is {error, code, hint}. Each operation names the least role it needs (x-required-role).',
    },
    servers: [{ url: '/' }],
    tags: [...tags].map((tag) => ({ name: tag })),
    paths,
    components: {
      schemas: schemas.named,
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'cdk_…',
          description: 'An API token: needs no CSRF header and no cookie.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'The dashboard’s session (DASHBOARD_AUTH=password; POST /api/local/session).',
        },
        csrfHeader: {
          type: 'apiKey',
          in: 'header',
          name: CSRF_HEADER,
          description: `With the session cookie: "${CSRF_HEADER}: ${CSRF_HEADER_VALUE}" on every state-changing or billable request.`,
        },
      },
    },
  };
}

/**
 * GET /api/openapi.json, built once from the routes the router has when first asked (all routes
 * are registered by then).
 */
export function registerOpenApiRoute(
  app: FastifyInstance,
  routes: readonly ApiRoute[],
): () => OpenApiDocument {
  let document: OpenApiDocument | undefined;
  const current = () => (document ??= openApiDocument(routes));
  contractRoute(app, openApiRoute, {}, async () => current());
  return current;
}
