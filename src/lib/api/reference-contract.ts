/**
 * The API's own reference: the OpenAPI 3.1 document and its readable rendering (docs/api.md,
 * "Contracts").
 */
import { z } from 'zod';
import { defineRoute, media } from './route-contract.ts';

export const openApiRoute = defineRoute({
  method: 'GET',
  path: '/api/openapi.json',
  tag: 'Reference',
  summary: 'This document: OpenAPI 3.1 of every route the proxy has under /api',
  responses: {
    200: z
      .looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) })
      .meta({ description: 'The OpenAPI 3.1 document' }),
  },
});

export const apiDocsRoute = defineRoute({
  method: 'GET',
  path: '/api/docs',
  tag: 'Reference',
  summary: 'The same document as a readable page',
  responses: {
    200: media('The API reference', { 'text/html': 'a page with no script, allowed by the CSP' }),
  },
});
