import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_TYPES, SORT_KEYS } from '../../../../src/lib/service/params.ts';
import { LIST_PARAMS } from '../../../../src/lib/service/rules/index.ts';
import { startMonitoringServer, type MonitoringServer } from './server.test-support.ts';

const NOW = new Date('2026-11-20T12:00:00.000Z');

let server: MonitoringServer;
beforeAll(async () => {
  server = await startMonitoringServer(NOW);
});
afterAll(async () => {
  await server.close();
});

const paramValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('true', 'false', '1', '0', 'asc', 'desc', '20261101', '20260230', '-1', '501'),
  fc.constantFrom(...DATE_TYPES, ...SORT_KEYS, '568253-MC277621', '1000003', '99999999'),
  fc.integer({ min: -5, max: 100_000 }).map(String),
);
const query = fc.dictionary(
  fc.oneof(fc.constantFrom(...LIST_PARAMS), fc.string({ maxLength: 8 })),
  fc.oneof(paramValue, fc.array(paramValue, { minLength: 2, maxLength: 3 })),
  { maxKeys: 5 },
);

function queryString(params: Record<string, string | string[]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  }
  return search.toString();
}

const profileId = fc.oneof(
  fc.constantFrom('568253-MC277621', '1000003', '2000001-MC200001', '999999-MC000000', '1000001'),
  fc.string({ maxLength: 20 }),
  fc
    .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.constantFrom('MC', 'mx', 'FF', 'XX', ''))
    .map(([dot, prefix]) => `${dot}-${prefix}${dot % 1000}`),
);
const body = fc.oneof(
  fc.record({ profile_ids: fc.array(profileId, { maxLength: 30 }) }),
  fc.record({ profile_ids: fc.array(fc.jsonValue(), { maxLength: 5 }) }),
  fc.jsonValue(),
);

describe('no request makes the monitoring routes fail with 5xx', () => {
  it('GET list answers 200 or 400 for any query', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        const result = await server.call('GET', `/v2/monitoring/list?${queryString(params)}`);
        expect([200, 400], result.text).toContain(result.status);
        if (result.status === 200) {
          const parsed = result.json as { total_count: number; items: object };
          expect(Object.keys(parsed.items).length).toBeLessThanOrEqual(
            Math.min(parsed.total_count, 500),
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('POST add and remove answer 200, 207 or 400 for any JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('add', 'remove'), body, async (operation, json) => {
        const result = await server.call('POST', `/v2/monitoring/${operation}`, json);
        expect(operation === 'add' ? [200, 207, 400] : [200, 400], result.text).toContain(
          result.status,
        );
      }),
      { numRuns: 150 },
    );
  });

  it('POST add answers 400 for any text that is not a JSON object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (raw) => {
        const result = await server.call('POST', '/v2/monitoring/add', undefined, raw);
        expect(result.status, result.text).toBe(400);
      }),
      { numRuns: 100 },
    );
  });
});
