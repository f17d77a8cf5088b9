/**
 * GET /api/openapi.json and GET /api/docs on a real proxy (docs/api.md, "Contracts"): the document
 * is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator), its operations are exactly the
 * routes the router has under /api (both ways), every contract route is in API_CONTRACTS and every
 * contract there is registered, the roles and both security schemes are there; the page is HTML
 * with no script and no inline style, under the proxy's CSP.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CONTRACTS } from '../../../src/lib/api/routes.ts';
import { routeKey } from '../../../src/lib/api/route-contract.ts';
import { ROUTE_ROLES } from '../governance/roles.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  startProxy,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { openApiDocument } from './openapi.ts';

const VIEWER = { ...CSRF, 'x-forwarded-user': 'val', 'x-forwarded-role': 'viewer' };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  tags: string[];
  'x-required-role'?: string;
  security: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
}

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

/** `METHOD /path/:param` of every operation of the document. */
function operationsOf(doc: Doc): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      out.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation);
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  let proxy: RunningProxy;
  let doc: Doc;
  beforeAll(async () => {
    proxy = await startProxy(
      embeddedSandboxConfig({
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      }),
    );
    const answer = await proxy.call('/api/openapi.json', { headers: VIEWER });
    expect(answer.status).toBe(200);
    doc = answer.json as Doc;
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
  });

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('the validator refuses a broken document (an answer without its description)', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, unknown> };
    broken.paths['/api/local/broken'] = { get: { responses: { 200: {} } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists exactly the routes the router has under /api, both ways', () => {
    const documented = operationsOf(doc);
    // every /api route the router has has a ROUTE_ROLES row (the proxy does not start otherwise)
    const routed = Object.keys(ROUTE_ROLES).filter((key) => {
      const [method = '', url = ''] = key.split(' ');
      return proxy.app.hasRoute({ method: method as 'GET', url });
    });
    expect(routed.length).toBeGreaterThan(40);
    expect([...documented.keys()].sort()).toEqual([...routed].sort());
    for (const key of documented.keys()) {
      const [method = '', url = ''] = key.split(' ');
      expect(proxy.app.hasRoute({ method: method as 'GET', url }), key).toBe(true);
    }
  });

  it('holds every contract of API_CONTRACTS, and every contract route is in API_CONTRACTS', () => {
    const documented = operationsOf(doc);
    const listed = new Set(API_CONTRACTS.map(routeKey));
    for (const key of listed) {
      expect(
        documented.get(key)?.tags,
        `${key} is in API_CONTRACTS but not registered`,
      ).not.toEqual(['Not yet declared']);
    }
    const declaredOnRouter = [...documented.entries()]
      .filter(([key]) => key.includes(' /api/local/'))
      .filter(([, op]) => !op.tags.includes('Not yet declared'))
      .map(([key]) => key);
    const missing = declaredOnRouter.filter((key) => !listed.has(key));
    expect(missing, 'contract routes missing from src/lib/api/routes.ts').toEqual([]);
  });

  it('names the role of every operation, and both security schemes', () => {
    for (const [key, operation] of operationsOf(doc)) {
      expect(operation['x-required-role'], key).toBe(ROUTE_ROLES[key]);
      expect(operation.security, key).toEqual(
        ROUTE_ROLES[key] === 'open'
          ? []
          : [{ sessionCookie: [], csrfHeader: [] }, { bearerToken: [] }],
      );
    }
    expect(doc.components.securitySchemes).toMatchObject({
      bearerToken: { type: 'http', scheme: 'bearer' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'cd_session' },
      csrfHeader: { type: 'apiKey', in: 'header', name: 'x-requested-with' },
    });
    expect(doc.components.schemas.ApiError).toMatchObject({
      required: ['error', 'code', 'hint'],
    });
  });

  it('describes a contract route from its schemas, and the mirror from the service vocabularies', () => {
    const operations = operationsOf(doc);
    const create = operations.get('POST /api/local/tokens') as unknown as {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
      responses: Record<string, unknown>;
    };
    expect(create.requestBody.content['application/json'].schema.required).toEqual([
      'name',
      'role',
      'expires_in_days',
    ]);
    expect(Object.keys(create.responses)).toEqual(['201', '400', 'default']);
    const audit = operations.get('GET /api/local/audit');
    expect(audit?.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:user',
      'query:dot',
      'query:page',
      'query:pageSize',
    ]);
    const revoke = operations.get('POST /api/local/tokens/:id/revoke');
    expect(revoke?.parameters).toMatchObject([{ name: 'id', in: 'path', required: true }]);
    const profile = operations.get('GET /api/v2/profile');
    expect(profile?.parameters?.map((p) => p.name)).toContain('dot_number');
    expect(operations.get('POST /api/v2/monitoring/add')?.requestBody).toBeDefined();
  });

  it('is read by a viewer, not by someone not signed in', async () => {
    const anonymous = await proxy.call('/api/openapi.json', { headers: CSRF });
    expect(anonymous.status).toBe(401);
  });

  it('GET /api/docs: the document as one page with no script and no inline style, under the CSP', async () => {
    const page = await proxy.call('/api/docs', { headers: VIEWER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script|style=|<style/i);
    expect(page.text).toContain(
      '<h3 id="post-api-local-tokens"><code>POST /api/local/tokens</code></h3>',
    );
    expect(page.text).toContain('<a href="/api/openapi.json">');
    // its styles are a file of ours, which the CSP's style-src 'self' allows
    expect(page.text).toContain('<link rel="stylesheet" href="/api-docs.css">');
    const styles = await proxy.call('/api-docs.css', { headers: VIEWER });
    expect(styles.status).toBe(200);
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('builds the document of the routes it is given, the role from the table given', () => {
    const built = openApiDocument([{ method: 'GET', path: '/api/local/things/:id' }], {
      roles: { 'GET /api/local/things/:id': 'analyst' },
    }) as unknown as Doc;
    expect(Object.keys(built.paths)).toEqual(['/api/local/things/{id}']);
    expect(built.paths['/api/local/things/{id}']?.get?.['x-required-role']).toBe('analyst');
  });
});
