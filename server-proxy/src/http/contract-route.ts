/**
 * Register a route from its contract (src/lib/api/route-contract.ts). The contract's schemas become
 * the Fastify route schema, and the handler's request and reply are typed from them.
 *
 * - Inputs: a route-level validator runs `parseInput` (parse-input.ts) on params, query and body, so
 *   a bad input is the same 400 `{error, code, hint}` the routes always sent; the handler gets the
 *   parsed values (transforms and defaults applied).
 * - Responses: sent with JSON.stringify as before (no fast-json-stringify, no stripping). Under
 *   Vitest (or CARRIER_DESK_CONTRACT_CHECK=1; see `contractCheckOn`) every JSON answer is checked against the
 *   contract's schema for its status (errors against the error body): a mismatch turns the answer
 *   into a 500 `contract_mismatch` naming the route, the status and the first issue. Each checked
 *   (route, status) is appended to the folder CARRIER_DESK_CONTRACT_COVERAGE names, when set, for
 *   `scripts/contract-coverage.ts`. docs/api.md, "Contracts".
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { z } from 'zod';
import {
  isZodSchema,
  jsonSchemaFor,
  routeKey,
  apiErrorSchema,
  type RouteContract,
} from '../../../src/lib/api/route-contract.ts';
import { ApiError, sendApiError } from './api-error.ts';
import { parseInput, type InputWording } from './parse-input.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route's contract, when it was registered with `contractRoute` (the OpenAPI document reads it) */
    contract?: RouteContract;
  }
}

/**
 * The type provider: a zod schema types the handler's input as what it parses to and the reply as
 * what it accepts. Our own five lines rather than fastify-type-provider-zod: that package needs
 * @fastify/swagger and openapi-types as (non-optional) peers, and we use neither its validator (ours
 * keeps our 400 wording) nor its serializer or swagger transform (docs/api.md, "Contracts").
 */
interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

type JsonResponses<R> = { [K in keyof R as R[K] extends z.ZodType ? K : never]: R[K] };

/** The Fastify schema a contract stands for (its JSON responses only). */
interface ContractSchema<C extends RouteContract> extends FastifySchema {
  params: C['params'];
  querystring: C['query'];
  body: C['body'];
  response: JsonResponses<C['responses']>;
}

/** A contract route's handler: request typed from the contract's inputs, reply from its answers. */
export type ContractHandler<C extends RouteContract> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  ContractSchema<C>,
  ZodTypeProvider
>;

/** How the 400s of each input are worded (parse-input.ts); an input without one uses `DEFAULT`. */
interface ContractWording {
  params?: InputWording;
  query?: InputWording;
  body?: InputWording;
}

export interface ContractRouteOptions {
  wording?: ContractWording;
  /**
   * Runs before the inputs are read: throw an ApiError to answer it instead of a 400 (e.g. the
   * sign-in's `login_not_available`, which comes before any check of the body).
   */
  beforeInputs?: (request: FastifyRequest) => void | Promise<void>;
}

const DEFAULT_WORDING: InputWording = {
  hint: 'See GET /api/openapi.json for what this route takes.',
  unknown: { code: 'unknown_field', message: (key) => `Unknown field "${key}"` },
};

const PARTS = { params: 'params', querystring: 'query', body: 'body' } as const;

/**
 * True when responses are checked against their contracts: under Vitest (which sets VITEST), or
 * wherever CARRIER_DESK_CONTRACT_CHECK=1; CARRIER_DESK_CONTRACT_CHECK=0 turns it off.
 */
export function contractCheckOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = env.CARRIER_DESK_CONTRACT_CHECK;
  return flag === undefined || flag === '' ? env.VITEST !== undefined : flag === '1';
}

/** The (route, status) pairs this process has already written to the coverage folder. */
const recorded = new Set<string>();

/** Append one checked answer (or mismatch) to the coverage folder, once per process. */
function record(route: string, status: number, mismatch?: string): void {
  const dir = process.env.CARRIER_DESK_CONTRACT_COVERAGE;
  if (!dir) return;
  const key = `${route} ${status} ${mismatch ?? ''}`;
  if (recorded.has(key)) return;
  recorded.add(key);
  mkdirSync(dir, { recursive: true });
  const line = JSON.stringify({ route, status, ...(mismatch && { mismatch }) });
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${line}\n`);
}

/** The first issue of a failed parse, with its path: `tokens[0].name: Invalid input…`. */
function firstIssue(error: z.ZodError): string {
  const found = error.issues[0];
  if (found === undefined) return 'invalid';
  const path = found.path
    .map((part, i) =>
      typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
  return `${path || '(body)'}: ${found.message}`;
}

/**
 * Check one JSON answer against the contract: undefined when it holds, else why not. A status the
 * contract does not declare (below 400) is a mismatch too.
 */
export function checkResponse(
  contract: RouteContract,
  status: number,
  payload: unknown,
): string | undefined {
  const schema = jsonSchemaFor(contract, status);
  if (schema === undefined) {
    return `status ${status} with a JSON body is not in the contract`;
  }
  const parsed = schema.safeParse(payload);
  return parsed.success ? undefined : firstIssue(parsed.error);
}

/**
 * Check (and record) one answer against the contract: a mismatch throws the 500
 * `contract_mismatch`. The hook runs it on every object a contract route answers; a route that
 * sends JSON text it made itself (a large body compressed off the event loop, an upstream refusal
 * passed on as it came) runs it on that text's value, when `contractCheckOn()`.
 */
export function assertAnswer(contract: RouteContract, status: number, payload: unknown): void {
  const key = routeKey(contract);
  const problem = checkResponse(contract, status, payload);
  record(key, status, problem);
  if (problem === undefined) return;
  throw new ApiError(
    500,
    'contract_mismatch',
    `${key} answered ${status} outside its contract: ${problem}`,
    `Fix the route or its contract (${contract.tag}); docs/api.md, "Contracts".`,
  );
}

/**
 * Check (and record) an answer the contract declares as media or empty: its content type must be
 * one the contract names, an empty answer must have no body. JSON answers are checked (and
 * recorded) by `assertAnswer`; anything else passes.
 */
function assertOtherAnswer(
  contract: RouteContract,
  status: number,
  contentType: unknown,
  payload: unknown,
): void {
  const spec = contract.responses[status];
  if (spec === undefined || isZodSchema(spec) || spec.kind === 'error') return;
  const key = routeKey(contract);
  let problem: string | undefined;
  if (spec.kind === 'empty') {
    const size = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
    if (size > 0) problem = `status ${status} is declared without a body`;
  } else {
    const type =
      String(contentType ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const allowed = [...Object.keys(spec.media), ...(spec.json ? ['application/json'] : [])];
    if (!allowed.includes(type))
      problem = `content type "${type}" is not one of ${allowed.join(', ')}`;
  }
  record(key, status, problem);
  if (problem === undefined) return;
  throw new ApiError(
    500,
    'contract_mismatch',
    `${key} answered ${status} outside its contract: ${problem}`,
    `Fix the route or its contract (${contract.tag}); docs/api.md, "Contracts".`,
  );
}

/** The Fastify response schema: the contract's JSON answers and the error body for 4xx/5xx. */
function responseSchemas(contract: RouteContract): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = { '4xx': apiErrorSchema, '5xx': apiErrorSchema };
  for (const [status, spec] of Object.entries(contract.responses)) {
    if (isZodSchema(spec)) out[status] = spec;
  }
  return out;
}

/**
 * Register `contract` on `app` with `handler`. Its role still comes from ROUTE_ROLES (roles.ts):
 * the contract is put on the route's config for the OpenAPI document.
 */
export function contractRoute<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  options: ContractRouteOptions,
  handler: NoInfer<ContractHandler<C>>,
): void {
  const check = contractCheckOn();
  const { beforeInputs } = options;
  const schema: FastifySchema = {
    ...(contract.params && { params: contract.params }),
    ...(contract.query && { querystring: contract.query }),
    ...(contract.body && { body: contract.body }),
    response: responseSchemas(contract),
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    method: contract.method,
    url: contract.path,
    schema,
    config: { contract },
    ...(beforeInputs && {
      preValidation: async (request: FastifyRequest) => {
        await beforeInputs(request);
      },
    }),
    validatorCompiler: ({ schema: part, httpPart }) => {
      const name = PARTS[httpPart as keyof typeof PARTS];
      const wording = (name && options.wording?.[name]) ?? DEFAULT_WORDING;
      return (data: unknown) => {
        // an absent body stays absent ("The body must be a JSON object"); an absent query is empty
        const value = httpPart === 'body' ? data : (data ?? {});
        const input = parseInput(part as z.ZodType, value, wording);
        return input.ok ? { value: input.value } : { error: input.error };
      };
    },
    // JSON.stringify as before: the schemas document and check, they never reshape an answer
    serializerCompiler: () => (data) => JSON.stringify(data),
    ...(check && {
      preSerialization: async (_request, reply, payload) => {
        assertAnswer(contract, reply.statusCode, payload);
        return payload;
      },
      // answers that are no JSON object (a page, a CSV, no body) never reach preSerialization
      onSend: async (_request, reply, payload) => {
        assertOtherAnswer(contract, reply.statusCode, reply.getHeader('content-type'), payload);
        return payload;
      },
    }),
    // A bad input is answered here, as the routes always answered it (sendApiError), so it is the
    // same `{error, code, hint}` on an app without the proxy's error handler (a route's own tests).
    attachValidation: true,
    handler(request, reply) {
      const invalid = request.validationError;
      if (invalid instanceof ApiError) return sendApiError(reply, invalid);
      if (invalid) throw invalid;
      return (handler as RouteHandlerMethod).call(this, request, reply);
    },
  });
}
