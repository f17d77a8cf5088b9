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
