/**
 * The contract of one API route: its method and path, what it reads (params, query, body) and what
 * it answers per status, as zod schemas. Runtime-neutral (zod only): the proxy registers its routes
 * from contracts (server-proxy/src/http/contract-route.ts), the SPA parses answers with the same
 * schemas, and GET /api/openapi.json is generated from them. docs/api.md, "Contracts".
 */
import { z } from 'zod';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * The body of every error our servers send (server-proxy/src/http/api-error.ts `ErrorBody`):
 * a sentence, a stable code to branch on and a hint saying what to do.
 */
export const apiErrorSchema = z
  .object({
    error: z.string().meta({ description: 'What went wrong, in a sentence' }),
    code: z.string().meta({ description: 'A stable machine-readable code, e.g. invalid_name' }),
    hint: z.string().meta({ description: 'What to do about it' }),
  })
  .meta({ id: 'ApiError', description: 'The body of every error: {error, code, hint}' });

/** An error status a route may answer, with the codes it may carry there (documentation). */
export interface ErrorResponse {
  readonly kind: 'error';
  readonly codes: readonly string[];
}

/** A body that is not JSON (CSV, HTML, a PDF…): its media types and what it holds. */
interface MediaResponse {
  readonly kind: 'media';
  readonly description: string;
  /** media type → what the body is, e.g. `{'text/html': 'the reference page'}` */
  readonly media: Readonly<Record<string, string>>;
  /** when the same status may also answer JSON (e.g. by `Accept`), its schema */
  readonly json?: z.ZodType;
}

/** An answer with no body (204, a redirect). */
interface EmptyResponse {
  readonly kind: 'empty';
  readonly description: string;
}

/** A JSON body: the zod schema of what is sent. Any other: see `errors`, `media`, `empty`. */
export type ResponseSpec = z.ZodType | ErrorResponse | MediaResponse | EmptyResponse;

export interface RouteContract {
  readonly method: HttpMethod;
  /** Fastify form, e.g. '/api/local/tokens/:id/revoke' */
  readonly path: string;
  /** one line for the reference */
  readonly summary: string;
  readonly description?: string;
  /** the group the reference lists it under, e.g. 'Tokens' */
  readonly tag: string;
  /** path parameters (`:id` → `{id}`): a z.object of strings */
  readonly params?: z.ZodType;
  /** the query string: a z.object whose members read strings (queries arrive as text) */
  readonly query?: z.ZodType;
  /** the JSON body */
  readonly body?: z.ZodType;
  /** per status: 200/201 JSON schemas, error statuses with their codes, media or empty answers */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
}

/** Declare a route's contract (typed as written, so the proxy and the SPA see its exact schemas). */
export function defineRoute<const C extends RouteContract>(contract: C): C {
  return contract;
}

/**
 * A custom zod issue with its own 400 code (and hint), for `ctx.addIssue` in a superRefine or
 * transform of an input schema; the proxy's parseInput (parse-input.ts) answers it as
 * `{error: message, code, hint}`.
 */
export function inputIssue(code: string, message: string, hint?: string) {
  return { code: 'custom' as const, message, params: { code, hint } };
}

/** An error status a route may answer, with the codes it carries there. */
export function errors(...codes: string[]): ErrorResponse {
  return { kind: 'error', codes };
}

/** The 503 of a route whose database refuses (http/storage-unavailable.ts sends it). */
export const STORAGE_UNAVAILABLE = errors('storage_unavailable');

/** A body that is not JSON. */
export function media(
  description: string,
  types: Record<string, string>,
  json?: z.ZodType,
): MediaResponse {
  return { kind: 'media', description, media: types, ...(json && { json }) };
}

/** An answer without a body. */
export function empty(description: string): EmptyResponse {
  return { kind: 'empty', description };
}

export function isZodSchema(spec: ResponseSpec | undefined): spec is z.ZodType {
  return spec instanceof z.ZodType;
}

/** `METHOD path`, the key ROUTE_ROLES and the contract checks use. */
export function routeKey(route: { method: string; path: string }): string {
  return `${route.method} ${route.path}`;
}

/**
 * The JSON schema of what `status` may carry on `contract`, or undefined when it carries no JSON:
 * a declared JSON body, the error body for error statuses (declared or not: any route can fail
 * with 400, 401, 403, 429, 500, 503), the JSON alternative of a media answer.
 */
export function jsonSchemaFor(contract: RouteContract, status: number): z.ZodType | undefined {
  const spec = contract.responses[status];
  if (isZodSchema(spec)) return spec;
  if (spec?.kind === 'media') return spec.json;
  if (spec?.kind === 'empty') return undefined;
  if (spec?.kind === 'error' || status >= 400) return apiErrorSchema;
  return undefined;
}
