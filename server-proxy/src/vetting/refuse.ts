/**
 * How a vetting route ends without its contract's answer: the error is sent (as ever, by
 * `sendApiError`, never thrown: a thrown 5xx would be logged as an unexpected error) and the
 * handler returns nothing more, which keeps its return type the contract's answer
 * (http/contract-route.ts types it from the route's schemas).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError, type ApiError } from '../http/api-error.ts';
import { unlessStorageUnavailable } from '../http/storage-unavailable.ts';

/** Send `error`; the handler then returns what this returns (nothing). */
export function refuse(reply: FastifyReply, error: ApiError): undefined {
  sendApiError(reply, error);
  return undefined;
}

/**
 * Run a route's database work; a database that refuses is a 503 `storage_unavailable` sent here
 * (http/storage-unavailable.ts), after which the handler returns nothing more.
 */
export async function unlessUnavailable<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  fn: () => Promise<T>,
): Promise<T | undefined> {
  const answer = await unlessStorageUnavailable(request, reply, 'vetting', fn);
  return answer === reply ? undefined : (answer as T);
}

export type Unless = typeof unlessUnavailable;
