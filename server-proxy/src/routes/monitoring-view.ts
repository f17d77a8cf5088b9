/**
 * `GET /api/local/monitoring-view`: one page of the watchlist as the inbox draws it. It takes the
 * query of `/api/v2/monitoring/list` and asks the mirror for it (`MirrorClient.get`: the same
 * validation, upstream queue, retries, metering and audit as the browser's own call; the list is
 * free and never cached), then answers `{ list, changeIds }`: the page as the shared parser reads
 * it (`parseMonitoringList`) and, per profile in the same order, the ids of its changes
 * (`changeIdsOf`). The browser then reads plain JSON instead of parsing megabytes of the service's
 * shape and hashing thousands of change ids itself. A refusal of the mirror (a non-2xx answer) is
 * sent on exactly as the mirror route sends it: status, body and headers (`Retry-After`); thrown
 * errors take the usual way. See docs/proxy.md, "Monitoring view".
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContract } from '../../../src/lib/api/route-contract.ts';
import { changeIdsOf } from '../../../src/lib/monitoring/change-id.ts';
import { monitoringViewRoute, type MonitoringView } from '../../../src/lib/monitoring/contract.ts';
import { parseMonitoringList } from '../../../src/lib/service/monitoring.ts';
import { contractRoute } from '../http/contract-route.ts';
import { compress, largeBodyEncoding } from '../http/precompressed.ts';
import { checkText } from './contract-text.ts';
import type { MirrorAnswer, MirrorClient } from './mirror.ts';
import { callerOf } from './profile-summary.ts';

export const MONITORING_VIEW_PATH = '/api/local/monitoring-view';

/** The route's successful body (its schema: src/lib/monitoring/contract.ts). */
export type { MonitoringView } from '../../../src/lib/monitoring/contract.ts';

/** The view of a successful `monitoring/list` body. */
export function monitoringViewOf(body: unknown): MonitoringView {
  const list = parseMonitoringList(body).value;
  return { list, changeIds: changeIdsOf(list.profiles) };
}

export interface MonitoringViewDeps {
  mirror: MirrorClient;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The headers the mirror route adds to every answer of the list (and the stored upstream ones). */
export function withMirrorHeaders(reply: FastifyReply, answer: MirrorAnswer): FastifyReply {
  const stored = answer.stored;
  if (stored) void reply.headers(stored.headers);
  else if (answer.retryAfter !== undefined) void reply.header('retry-after', answer.retryAfter);
  return reply
    .code(answer.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('x-cache', answer.cacheHit ? 'hit' : 'miss')
    .header('x-fetched-at', (stored?.fetchedAt ?? new Date()).toISOString());
}

/**
 * A large body compressed through zlib's thread pool (as the mirror sends its large answers), so the
 * event loop is not held while a page of 500 profiles is compressed; a small one is left to the
 * compression plugin.
 */
async function sendBody(request: FastifyRequest, reply: FastifyReply, body: string) {
  const encoding = largeBodyEncoding(request.headers, body.length);
  if (!encoding) return reply.send(body);
  const compressed = await compress(body, encoding);
  return reply
    .header('content-encoding', encoding)
    .header('vary', 'accept-encoding')
    .send(compressed);
}

/** `sendBody` for a contract route's JSON text, checked against its contract under tests. */
export function sendChecked(
  contract: RouteContract,
  request: FastifyRequest,
  reply: FastifyReply,
  text: string,
) {
  checkText(contract, reply.statusCode, text);
  return sendBody(request, reply, text);
}

/** Register `GET /api/local/monitoring-view` (the parameters of `/api/v2/monitoring/list`). */
export function registerMonitoringViewRoute(app: FastifyInstance, deps: MonitoringViewDeps) {
  contractRoute(app, monitoringViewRoute, {}, async (request, reply) => {
    // Passed on as Fastify read it, as the mirror route passes it: the list's own validation
    // decides (repeated parameters, unknown ones, ranges).
    const query = request.query as Record<string, string>;
    const answer = await deps.mirror.get('monitoring/list', query, callerOf(request));
    withMirrorHeaders(reply, answer);
    const text = isSuccess(answer.status)
      ? JSON.stringify(monitoringViewOf(answer.json))
      : (answer.stored?.body ?? JSON.stringify(answer.json));
    // Fastify takes the returned reply as answered
    return sendChecked(monitoringViewRoute, request, reply, text) as Promise<never>;
  });
}
