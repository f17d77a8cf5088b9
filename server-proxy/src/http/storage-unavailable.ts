import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, sendApiError } from './api-error.ts';

/**
 * Run a route's database work. A database that refuses (503 `storage_unavailable`: PostgreSQL
 * down, or the SQLite file's Storage guard refusing a write) is an expected answer, sent with its
 * Retry-After and logged as a warning under `area`, never as an unexpected error of the proxy.
 */
export async function unlessStorageUnavailable<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  area: string,
  fn: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'storage_unavailable') throw err;
    request.log.warn({ code: err.code, reason: err.message }, `${area}: storage unavailable`);
    return sendApiError(reply, err);
  }
}

/**
 * How a contract route ends without its contract's answer: the error is sent (by `sendApiError`,
 * never thrown: a thrown 5xx would be logged as an unexpected error) and the handler returns
 * nothing more, which keeps its return type the contract's answer (contract-route.ts).
 */
export function refuse(reply: FastifyReply, error: ApiError): undefined {
  void sendApiError(reply, error);
  return undefined;
}

/**
 * `unlessStorageUnavailable` for a contract route of `area`: after a 503 sent here the handler
 * returns nothing more (its return type stays the contract's answer).
 */
export function storageGuard(area: string) {
  return async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    fn: () => Promise<T>,
  ): Promise<T | undefined> => {
    const answer = await unlessStorageUnavailable(request, reply, area, fn);
    return answer === reply ? undefined : (answer as T);
  };
}
