import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startSandbox, type RunningSandbox } from './helpers.test-support.ts';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

const PATHS = [
  '/v2/profile',
  '/v2/profile-lite',
  '/v2/profile-fmcsa',
  '/v2/autocomplete',
  '/api/v2/profile',
  '/api/v2/autocomplete',
  '/v2/monitoring/list',
  '/v2/monitoring/add',
  '/v2/monitoring/remove',
  '/__sandbox/advance',
  '/__sandbox/faults',
];
const NAMES = [
  'dot_number',
  'docket_number',
  'company',
  'ein',
  'email',
  'phone',
  'address',
  'vin',
  'plate_number',
  'plate_state',
  'unit_number',
  'unit_type',
  'page',
  'pageSize',
  'q',
  'limit',
  'profile_id',
  'sortBy',
  'date_type',
];

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('568253', 'MC277621', '-1', '0', '1e9', '%', '%zz', '[]', '{}', 'null'),
);
const queryString = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), text), text), { maxLength: 5 })
  .map((pairs) =>
    pairs
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&'),
  );
const rawQuery = fc.string({ unit: 'grapheme-ascii', maxLength: 40 });

const isText = (value: unknown) => typeof value === 'string' && value.length > 0;

/** Every error answer is JSON `{error, code, hint}`. */
function expectErrorShape(status: number, text: string, label: string): void {
  if (status < 400) return;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // leaves body empty so the assertion below names the request
  }
  expect([isText(body.error), isText(body.code), isText(body.hint)], label).toEqual([
    true,
    true,
    true,
  ]);
}

/** Send a request; the sandbox must answer below 500, errors in the error shape. */
async function expectNo5xx(
  path: string,
  method = 'GET',
  body?: string,
  headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` },
): Promise<number> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  const label = `${method} ${path} -> ${response.status} ${text.slice(0, 200)}`;
  expect(response.status, label).toBeLessThan(500);
  expectErrorShape(response.status, text, label);
  return response.status;
}

describe('no input makes the sandbox answer 5xx', () => {
  it('encoded query strings on every GET endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), queryString, async (path, query) => {
        await expectNo5xx(`${path}?${query}`);
      }),
      { numRuns: 300 },
    );
  });

  it('raw (unencoded) query strings and paths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), rawQuery, async (path, raw) => {
        const safe = raw.replace(/[#\s]/g, '');
        await expectNo5xx(`${path}?${safe}`);
        await expectNo5xx(`${path}/${safe}`);
      }),
      { numRuns: 200 },
    );
  });

  it('JSON and non-JSON bodies on every POST endpoint', async () => {
    const body = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 50 }),
      fc.record({ days: fc.anything() }).map((v) => JSON.stringify(v)),
      fc.record({ rules: fc.array(fc.anything(), { maxLength: 3 }) }).map((v) => JSON.stringify(v)),
      fc
        .record({ profile_ids: fc.array(fc.string(), { maxLength: 5 }) })
        .map((v) => JSON.stringify(v)),
    );
    const posts = PATHS.filter((p) => p.includes('monitoring/') || p.startsWith('/__sandbox'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), body, async (path, payload) => {
        await expectNo5xx(path, 'POST', payload);
      }),
      { numRuns: 200 },
    );
    await sandbox.call('/__sandbox/reset', { method: 'POST' });
  });

  it('random credentials get a 401, never a crash', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 40 }).map((v) => ({ authorization: v })),
      fc.string({ maxLength: 40 }).map((v) => ({ authorization: `Bearer ${v}` })),
      fc.string({ maxLength: 40 }).map((v) => ({ 'x-api-key': v })),
    );
    const printable = (h: Record<string, string>) =>
      Object.values(h).every((v) => /^[\x20-\x7e]*$/.test(v));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), header.filter(printable), async (path, h) => {
        const status = await expectNo5xx(`${path}?dot_number=568253`, 'GET', undefined, h);
        expect([401, 404, 405]).toContain(status);
      }),
      { numRuns: 150 },
    );
  });

  it('the server is still healthy afterwards', async () => {
    const result = await sandbox.call('/v2/profile?dot_number=568253');
    expect(result.status).toBe(200);
  });
});
