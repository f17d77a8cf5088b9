/**
 * The contract coverage check (contract-coverage.ts) on what a real contract route records: a
 * route whose success was checked is covered, one with only errors or none is listed, a mismatch
 * fails the check.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute, routeKey } from '../src/lib/api/route-contract.ts';
import { ApiError, sendApiError, toApiError } from '../server-proxy/src/http/api-error.ts';
import { contractRoute } from '../server-proxy/src/http/contract-route.ts';
import { coverageOf, readCoverage } from './contract-coverage.ts';

/** A Fastify app whose error handler sends ApiErrors as they are, as the proxy's does. */
function appLikeTheProxy() {
  const app = Fastify();
  const wording = {
    framework: {},
    fallbackHint: 'Check.',
    internal: { message: 'Failed', hint: 'Log.' },
  };
  app.setErrorHandler((error, _request, reply) => sendApiError(reply, toApiError(error, wording)));
  return app;
}

const dir = mkdtempSync(join(tmpdir(), 'contract-coverage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const widget = defineRoute({
  method: 'GET',
  path: '/api/local/coverage-widget',
  tag: 'Test',
  summary: 'A widget',
  query: z.object({ fail: z.string().optional(), wrong: z.string().optional() }),
  responses: { 200: z.object({ id: z.number() }) },
});
const gadget = defineRoute({
  method: 'GET',
  path: '/api/local/coverage-gadget',
  tag: 'Test',
  summary: 'A gadget',
  responses: { 200: z.object({ id: z.number() }) },
});

describe('contract coverage', () => {
  it('covers a route whose success a test checked, and lists the others', async () => {
    const before = process.env.CARRIER_DESK_CONTRACT_COVERAGE;
    process.env.CARRIER_DESK_CONTRACT_COVERAGE = dir;
    const app = appLikeTheProxy();
    contractRoute(app, widget, {}, async (request) => {
      if (request.query.fail) throw new ApiError(404, 'gone', 'Gone', 'Look.');
      return request.query.wrong ? ({ id: 'x' } as unknown as { id: number }) : { id: 1 };
    });
    contractRoute(app, gadget, {}, async () => {
      throw new ApiError(404, 'gone', 'Gone', 'Look.');
    });
    try {
      expect((await app.inject({ url: '/api/local/coverage-widget' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/local/coverage-gadget' })).statusCode).toBe(404);
    } finally {
      process.env.CARRIER_DESK_CONTRACT_COVERAGE = before;
      await app.close();
    }
    const routes = [routeKey(widget), routeKey(gadget), 'GET /api/local/undeclared'];
    const report = coverageOf(
      readCoverage(dir),
      routes,
      new Set([routeKey(widget), routeKey(gadget)]),
    );
    expect(report.mismatches).toEqual([]);
    expect([...report.uncovered]).toEqual([
      ['GET /api/local/coverage-gadget', 'only errors checked (404): no test made it succeed'],
      ['GET /api/local/undeclared', 'no contract'],
    ]);
  });

  it('reports a mismatch a test met', async () => {
    const before = process.env.CARRIER_DESK_CONTRACT_COVERAGE;
    process.env.CARRIER_DESK_CONTRACT_COVERAGE = dir;
    const app = appLikeTheProxy();
    contractRoute(app, { ...widget, path: '/api/local/coverage-wrong' }, {}, async () => ({
      id: 'x' as unknown as number,
    }));
    try {
      expect((await app.inject({ url: '/api/local/coverage-wrong' })).statusCode).toBe(500);
    } finally {
      process.env.CARRIER_DESK_CONTRACT_COVERAGE = before;
      await app.close();
    }
    const report = coverageOf(readCoverage(dir), [], new Set());
    expect(report.mismatches).toEqual([
      'GET /api/local/coverage-wrong 200: id: Invalid input: expected number, received string',
    ]);
  });
});
