import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PartialFault, SandboxFaults } from './context.ts';
import { badRequest } from './errors.ts';

const FAULT_STATUSES = [429, 503, 500, 207] as const;
type FaultStatus = (typeof FAULT_STATUSES)[number];
type FaultBody = 'malformed' | 'empty';

/** One rule of POST /__sandbox/faults; applies to the next `count` matching requests. */
export interface FaultRule {
  path: string;
  method?: string;
  status?: FaultStatus;
  count: number;
  retry_after?: number;
  delay_ms?: number;
  body?: FaultBody;
  reset_connection?: boolean;
}

const MAX_RULES = 100;
const MAX_COUNT = 10_000;
const MAX_DELAY_MS = 30_000;
const MAX_RETRY_AFTER = 3_600;
const PARTIAL_PATH = '/v2/monitoring/add';

/** '/api/v2/x/' and '/v2/x?y' both become '/v2/x', so rules match either deployment. */
export function normalizeServicePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  const unprefixed = path.startsWith('/api/v2/') ? path.slice(4) : path;
  return unprefixed.length > 1 ? unprefixed.replace(/\/+$/, '') : unprefixed;
}

function invalidRule(index: number, message: string): Error {
  return badRequest(
    'invalid_fault_rule',
    `rules[${index}]: ${message}`,
    'Each rule is {path, method?, status? (429|503|500|207), count, retry_after?, delay_ms?, body? ("malformed"|"empty"), reset_connection?}; see docs/sandbox.md.',
  );
}

function optionalInt(value: unknown, max: number): number | undefined | null {
  if (value === undefined) return undefined;
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max
    ? (value as number)
    : null;
}

function parseStatus(value: unknown, index: number): FaultStatus | undefined {
  if (value === undefined) return undefined;
  const status = FAULT_STATUSES.find((s) => s === value);
  if (status === undefined) throw invalidRule(index, 'status must be 429, 503, 500 or 207');
  return status;
}

function parseTiming(raw: Record<string, unknown>, index: number) {
  const retryAfter = optionalInt(raw.retry_after, MAX_RETRY_AFTER);
  if (retryAfter === null) throw invalidRule(index, `retry_after must be 0..${MAX_RETRY_AFTER}`);
  const delay = optionalInt(raw.delay_ms, MAX_DELAY_MS);
  if (delay === null) throw invalidRule(index, `delay_ms must be 0..${MAX_DELAY_MS}`);
  return { retry_after: retryAfter, delay_ms: delay };
}

function parsePathAndMethod(raw: Record<string, unknown>, index: number) {
  if (typeof raw.path !== 'string' || !/^\/(api\/)?v2\/[a-z0-9/_-]+$/i.test(raw.path)) {
    throw invalidRule(index, 'path must be a service path such as /v2/profile or /api/v2/profile');
  }
  if (
    raw.method !== undefined &&
    (typeof raw.method !== 'string' || !/^[a-z]+$/i.test(raw.method))
  ) {
    throw invalidRule(index, 'method must be an HTTP method such as GET or POST');
  }
  return {
    path: normalizeServicePath(raw.path),
    method: typeof raw.method === 'string' ? raw.method.toUpperCase() : undefined,
  };
}

/** Validate one rule of the request body; throws the 400 naming the rule. */
function parseFaultRule(raw: unknown, index: number): FaultRule {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalidRule(index, 'must be an object');
  }
  const fields = raw as Record<string, unknown>;
  const known = new Set(['path', 'method', 'status', 'count', 'retry_after', 'delay_ms', 'body']);
  known.add('reset_connection');
  const unknown = Object.keys(fields).find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidRule(index, `unknown field "${unknown.slice(0, 40)}"`);
  const count = optionalInt(fields.count ?? 1, MAX_COUNT);
  if (count === null || count === undefined || count < 1) {
    throw invalidRule(index, `count must be 1..${MAX_COUNT}`);
  }
  if (fields.body !== undefined && fields.body !== 'malformed' && fields.body !== 'empty') {
    throw invalidRule(index, 'body must be "malformed" or "empty"');
  }
  if (fields.reset_connection !== undefined && typeof fields.reset_connection !== 'boolean') {
    throw invalidRule(index, 'reset_connection must be a boolean');
  }
  const rule: FaultRule = {
    ...parsePathAndMethod(fields, index),
    status: parseStatus(fields.status, index),
    count,
    ...parseTiming(fields, index),
    body: fields.body,
    reset_connection: fields.reset_connection,
  };
  checkCoherent(rule, index);
  return stripUndefined(rule);
}

function checkCoherent(rule: FaultRule, index: number): void {
  if (rule.status === 207 && rule.path !== PARTIAL_PATH) {
    throw invalidRule(index, `status 207 is only supported on ${PARTIAL_PATH}`);
  }
  const acts = rule.status !== undefined || rule.delay_ms || rule.body || rule.reset_connection;
  if (!acts) {
    throw invalidRule(
      index,
      'the rule does nothing: give status, delay_ms, body or reset_connection',
    );
  }
}

function stripUndefined(rule: FaultRule): FaultRule {
  return Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined)) as FaultRule;
}

/** Parse the body of POST /__sandbox/faults. */
export function parseFaultRules(body: unknown): FaultRule[] {
  const rules = (body as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules) || rules.length === 0 || rules.length > MAX_RULES) {
    throw badRequest(
      'invalid_fault_rules',
      `The body must be {"rules": [...]} with 1 to ${MAX_RULES} rules`,
      'Example: {"rules": [{"path": "/v2/profile", "status": 503, "count": 1}]}',
    );
  }
  return rules.map(parseFaultRule);
}

/** The armed fault rules, in memory (they do not survive a restart). */
export class FaultStore implements SandboxFaults {
  private rules: FaultRule[] = [];

  add(rules: FaultRule[]): FaultRule[] {
    const room = MAX_RULES - this.rules.length;
    if (rules.length > room) {
      throw badRequest(
        'too_many_fault_rules',
        `At most ${MAX_RULES} rules can be armed; ${this.rules.length} already are`,
        'DELETE /__sandbox/faults first.',
      );
    }
    this.rules.push(...rules.map((rule) => ({ ...rule })));
    return this.list();
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.rules = [];
  }

  /** Consume the first rule matching the request; `partial` selects 207 rules or all others. */
  private consume(url: string, method: string, partial: boolean): FaultRule | undefined {
    const path = normalizeServicePath(url);
    const verb = method.toUpperCase();
    const rule = this.rules.find(
      (r) =>
        r.path === path &&
        (r.method === undefined || r.method === verb) &&
        (r.status === 207) === partial,
    );
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count === 0) this.rules = this.rules.filter((r) => r !== rule);
    return { ...rule };
  }

  /** A non-207 rule for this request, applied by the app's fault hook. */
  takeImmediate(url: string, method: string): FaultRule | undefined {
    return this.consume(url, method, false);
  }

  take(path: string, method: string): PartialFault | undefined {
    const rule = this.consume(path, method, true);
    return rule ? { status: 207, remaining: rule.count } : undefined;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Cut a JSON payload in half: an unclosed object or array is never valid JSON. */
export function malformedPayload(payload: string): string {
  return payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
}

const FAULT_ERRORS: Record<Exclude<FaultStatus, 207>, { error: string; code: string }> = {
  429: { error: 'Too many requests', code: 'rate_limited' },
  503: { error: 'Service temporarily unavailable', code: 'service_unavailable' },
  500: { error: 'Internal server error', code: 'internal_error' },
};

function faultResponse(rule: FaultRule, status: Exclude<FaultStatus, 207>, reply: FastifyReply) {
  const retryAfter = rule.retry_after ?? (status === 429 ? 1 : status === 503 ? 5 : undefined);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  const hint = retryAfter === undefined ? 'Retry later.' : `Retry after ${retryAfter} seconds.`;
  const payload = JSON.stringify({ ...FAULT_ERRORS[status], hint });
  reply.code(status).header('content-type', 'application/json; charset=utf-8');
  reply.header('x-sandbox-fault', 'true');
  return reply.send(bodyFor(rule.body, payload));
}

function bodyFor(mode: FaultBody | undefined, payload: string): string {
  if (mode === 'empty') return '';
  return mode === 'malformed' ? malformedPayload(payload) : payload;
}

/**
 * Apply armed rules to service paths after authentication: delay, reset the connection, answer
 * with the fault status, or (without a status) let the route answer and then mangle its body.
 */
export function registerFaults(app: FastifyInstance, store: FaultStore): void {
  const mangle = new WeakMap<FastifyRequest, FaultBody>();
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 || !normalizeServicePath(request.url).startsWith('/v2/')) return;
    const rule = store.takeImmediate(request.url, request.method);
    if (!rule) return;
    if (rule.delay_ms) await sleep(rule.delay_ms);
    if (rule.reset_connection) {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (rule.status !== undefined && rule.status !== 207) {
      return faultResponse(rule, rule.status, reply);
    }
    if (rule.body) mangle.set(request, rule.body);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const mode = mangle.get(request);
    if (mode === undefined) return payload;
    // profiles are sent as cached bytes (routes/deps.ts), the other routes' JSON as text
    const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
    if (typeof text !== 'string') return payload;
    reply.header('x-sandbox-fault', 'true');
    return bodyFor(mode, text);
  });
}
