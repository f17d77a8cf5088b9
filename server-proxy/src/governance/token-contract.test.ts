/**
 * POST /api/local/tokens as a contract route (http/contract-route.ts) on a real proxy: a bad body
 * gets byte for byte the 400 the hand-parsed route sent, and the handler gets the parsed body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF,
  embeddedSandboxConfig,
  startProxy,
  type RunningProxy,
} from '../helpers.test-support.ts';

const ADMIN = { ...CSRF, 'x-forwarded-user': 'ada', 'x-forwarded-role': 'admin' };

const HINT = 'Send {"name": "TMS", "role": "viewer", "expires_in_days": 90}.';
const NAME = '"name" must be 1 to 80 characters, no control characters';
const DAYS = '"expires_in_days" must be an integer from 1 to 365';

/**
 * Bad bodies of POST /api/local/tokens and the exact bytes the route answered before it was a
 * contract route (taken from token-routes.ts at 8b62584, which parsed the body by hand).
 */
const BEFORE: { body: string | undefined; text: string }[] = [
  {
    body: undefined,
    text: JSON.stringify({
      error: 'The body must be a JSON object',
      code: 'invalid_body',
      hint: HINT,
    }),
  },
  {
    body: '[1]',
    text: JSON.stringify({
      error: 'The body must be a JSON object',
      code: 'invalid_body',
      hint: HINT,
    }),
  },
  {
    body: '{"name":"x","role":"viewer","expires_in_days":1,"scope":"all"}',
    text: JSON.stringify({ error: 'Unknown field "scope"', code: 'unknown_field', hint: HINT }),
  },
  {
    body: '{"name":"","role":"viewer","expires_in_days":1}',
    text: JSON.stringify({
      error: NAME,
      code: 'invalid_name',
      hint: 'Name the system that will use the token, e.g. "McLeod TMS".',
    }),
  },
  {
    body: '{"name":"x","role":"admin","expires_in_days":1}',
    text: JSON.stringify({
      error: '"role" must be "viewer" or "analyst"',
      code: 'invalid_role',
      hint: 'A token may be a viewer (reads) or an analyst (also records decisions).',
    }),
  },
  {
    body: '{"name":"x","role":"viewer","expires_in_days":366}',
    text: JSON.stringify({
      error: DAYS,
      code: 'invalid_expires_in_days',
      hint: 'A token lasts at most a year (365 days).',
    }),
  },
  {
    body: '{"name":"x","role":"viewer","expires_in_days":"30"}',
    text: JSON.stringify({
      error: DAYS,
      code: 'invalid_expires_in_days',
      hint: 'A token lasts at most a year (365 days).',
    }),
  },
];

describe('a contract route on the proxy', () => {
  let proxy: RunningProxy;
  beforeAll(async () => {
    proxy = await startProxy(
      embeddedSandboxConfig({
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
  });

  it('answers a bad body with the same bytes, status and type as the hand-parsed route did', async () => {
    for (const { body, text } of BEFORE) {
      const answer = await proxy.call('/api/local/tokens', {
        method: 'POST',
        headers: {
          ...ADMIN,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        rawBody: body,
      });
      expect({ body, status: answer.status, text: answer.text }).toEqual({
        body,
        status: 400,
        text,
      });
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });

  it('hands the parsed body to the handler (the name trimmed)', async () => {
    const made = await proxy.call('/api/local/tokens', {
      method: 'POST',
      headers: ADMIN,
      body: { name: '  McLeod TMS  ', role: 'viewer', expires_in_days: 30 },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ name: 'McLeod TMS', role: 'viewer' });
  });
});
