/**
 * The contract layer (contract-route.ts) on a bare Fastify app with an error handler like the
 * proxy's: inputs are read by parseInput, and under tests an answer outside its contract becomes a
 * loud 500 naming route, status and issue. (On the proxy: governance/token-contract.test.ts.)
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, empty, errors, media } from '../../../src/lib/api/route-contract.ts';
import { ApiError, sendApiError, toApiError } from './api-error.ts';
import { checkResponse, contractCheckOn, contractRoute } from './contract-route.ts';

/** A bare Fastify app whose error handler sends ApiErrors as they are, as the proxy's does. */
function bareApp(): FastifyInstance {
  const app = Fastify();
  const wording = {
    framework: {},
    fallbackHint: 'Check the request.',
    internal: { message: 'Failed', hint: 'See the log.' },
  };
  app.setErrorHandler((error, _request, reply) => sendApiError(reply, toApiError(error, wording)));
  return app;
}

// The routes here break their contracts on purpose: what they answer is kept out of the suite's
// coverage record (scripts/contract-coverage.ts fails on any recorded mismatch).
const coverageDir = process.env.CARRIER_DESK_CONTRACT_COVERAGE;
beforeAll(() => {
  delete process.env.CARRIER_DESK_CONTRACT_COVERAGE;
});
afterAll(() => {
  if (coverageDir !== undefined) process.env.CARRIER_DESK_CONTRACT_COVERAGE = coverageDir;
});

const thing = z.object({ id: z.number(), name: z.string() });

const thingRoute = defineRoute({
  method: 'GET',
  path: '/api/local/things/:id',
  tag: 'Test',
  summary: 'A thing',
  params: z.object({ id: z.string() }),
  query: z.strictObject({ shape: z.enum(['good', 'bad', 'error', 'created']).default('good') }),
  responses: { 200: thing, 404: errors('thing_not_found') },
});

describe('response check (on under Vitest)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = bareApp();
    contractRoute(app, thingRoute, {}, async (request, reply) => {
      const { shape } = request.query;
      if (shape === 'error') throw new ApiError(404, 'thing_not_found', 'No such thing', 'Look.');
      if (shape === 'created')
        return (reply as unknown as FastifyReply).code(201).send({ id: 1, name: 'x' });
      // a planted mismatch: the name is a number, which the contract does not allow
      if (shape === 'bad') return { id: 1, name: 7 } as unknown as z.infer<typeof thing>;
      return { id: Number(request.params.id), name: 'a thing' };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('is on in this test run', () => {
    expect(contractCheckOn()).toBe(true);
    expect(contractCheckOn({ VITEST: 'true', CARRIER_DESK_CONTRACT_CHECK: '0' })).toBe(false);
    expect(contractCheckOn({})).toBe(false);
    expect(contractCheckOn({ CARRIER_DESK_CONTRACT_CHECK: '1' })).toBe(true);
  });

  it('lets an answer that holds through unchanged', async () => {
    const answer = await app.inject({ url: '/api/local/things/4' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('{"id":4,"name":"a thing"}');
  });

  it('turns a planted mismatch into a 500 naming the route, the status and the first issue', async () => {
    const answer = await app.inject({ url: '/api/local/things/4?shape=bad' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({
      error:
        'GET /api/local/things/:id answered 200 outside its contract: name: Invalid input: expected string, received number',
      code: 'contract_mismatch',
      hint: expect.stringContaining('Contracts'),
    });
  });

  it('refuses a success status the contract does not declare', async () => {
    const answer = await app.inject({ url: '/api/local/things/4?shape=created' });
    expect(answer.statusCode).toBe(500);
    expect(answer.json<{ error: string }>().error).toContain(
      'answered 201 outside its contract: status 201 with a JSON body is not in the contract',
    );
  });

  it('checks errors against the error body, and validates inputs with parseInput', async () => {
    const missing = await app.inject({ url: '/api/local/things/4?shape=error' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: 'No such thing',
      code: 'thing_not_found',
      hint: 'Look.',
    });
    const unknown = await app.inject({ url: '/api/local/things/4?colour=red' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: 'unknown_field',
      error: 'Unknown field "colour"',
    });
  });

  it('checkResponse: an error body must be {error, code, hint}', () => {
    expect(checkResponse(thingRoute, 404, { error: 'x', code: 'y', hint: 'z' })).toBeUndefined();
    expect(checkResponse(thingRoute, 503, { message: 'down' })).toBe(
      'error: Invalid input: expected string, received undefined',
    );
  });

  it('checks a media answer by its content type, and an empty answer has no body', async () => {
    const csvRoute = defineRoute({
      method: 'GET',
      path: '/api/local/things.csv',
      tag: 'Test',
      summary: 'Things as CSV',
      query: z.object({ as: z.string().optional() }),
      responses: { 200: media('Things', { 'text/csv': 'one row per thing' }), 204: empty('None') },
    });
    const other = bareApp();
    contractRoute(other, csvRoute, {}, async (request, reply) => {
      if (request.query.as === 'none') return reply.code(204).send();
      if (request.query.as === 'body') return reply.code(204).type('text/plain').send('x');
      return reply.type(request.query.as ?? 'text/csv').send('id\n1\n');
    });
    await other.ready();
    const good = await other.inject({ url: '/api/local/things.csv' });
    expect(good.statusCode).toBe(200);
    expect(good.body).toBe('id\n1\n');
    expect((await other.inject({ url: '/api/local/things.csv?as=none' })).statusCode).toBe(204);
    const html = await other.inject({ url: '/api/local/things.csv?as=text/html' });
    expect(html.statusCode).toBe(500);
    expect(html.json<{ error: string }>().error).toBe(
      'GET /api/local/things.csv answered 200 outside its contract: content type "text/html" is not one of text/csv',
    );
    const body = await other.inject({ url: '/api/local/things.csv?as=body' });
    expect(body.json<{ error: string }>().error).toContain('status 204 is declared without a body');
    await other.close();
  });
});
