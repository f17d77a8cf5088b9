import type { FastifyReply } from 'fastify';
import { ApiError, sendApiError, type ErrorBody } from '../http/api-error.ts';

export type { ErrorBody };

/**
 * Send an error body governance composed itself (refusals from hooks). A thin shim over the one
 * error type, so every body goes through ApiError's builder.
 */
export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return sendApiError(reply, new ApiError(status, body.code, body.error, body.hint));
}
