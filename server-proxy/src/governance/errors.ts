import type { FastifyReply } from 'fastify';
import type { ErrorBody } from '../http/api-error.ts';

export type { ErrorBody };

/** Send an error body governance composed itself (refusals from hooks, invalid /api/local input). */
export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
