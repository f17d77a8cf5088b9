import type { FastifyReply } from 'fastify';

/** The service's error body shape, used for every error governance sends. */
export interface ErrorBody {
  error: string;
  code: string;
  hint: string;
}

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
