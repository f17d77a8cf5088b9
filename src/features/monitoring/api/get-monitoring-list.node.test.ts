// @vitest-environment node
/**
 * The inbox's page read from a real proxy in front of its embedded sandbox: the page the mirror
 * gives, read by the shared parser, with the proxy's change ids adopted; failures as the same
 * `ApiError`s the inbox shows (validation, 429 countdown, outage, unreadable answer).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from '../../../../server-proxy/src/config.ts';
import {
  embeddedSandboxConfig,
  startProxy,
  type RunningProxy,
} from '../../../../server-proxy/src/helpers.test-support.ts';
import { ApiError, apiGet } from '../../../lib/api-client.ts';
import { changeIdsOf, inboxChangesOf } from '../../../lib/monitoring/change-id.ts';
import { parseMonitoringList } from '../../../lib/service/index.ts';
import { getMonitoringList, MONITORING_VIEW_PATH } from './get-monitoring-list.ts';

let proxy: RunningProxy;

async function sandbox(path: string, body: unknown) {
  const response = await fetch(`${proxy.app.proxy.sandbox?.url ?? ''}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${EMBEDDED_SANDBOX_KEY}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.ok, await response.text()).toBe(true);
}

/** The failure `getMonitoringList` gives for `query`. */
async function failureOf(query: Record<string, string | number>): Promise<ApiError> {
  const error = await getMonitoringList(query, undefined, proxy.url).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  proxy = await startProxy(embeddedSandboxConfig({}, { retryDelayMs: 1 }));
  await sandbox('/__sandbox/advance', { days: 30 });
});
afterAll(() => proxy.close());
afterEach(() => vi.unstubAllGlobals());

describe('getMonitoringList', () => {
  it('reads the page the mirror gives, with the proxy’s change ids', async () => {
    const query = { page: 1, pageSize: 500, view_changes: 'true' };
    const list = await getMonitoringList(query, undefined, proxy.url);
    const mirror = await apiGet('/api/v2/monitoring/list', query, { baseUrl: proxy.url });
    const parsed = parseMonitoringList(mirror).value;
    expect(list.profiles.length).toBeGreaterThan(0);
    expect(list).toEqual(parsed);
    expect(list.profiles.map((profile) => inboxChangesOf(profile).map((c) => c.id))).toEqual(
      changeIdsOf(parsed.profiles),
    );
  });

  it('uses the ids the proxy sent instead of hashing the changes again', async () => {
    const answer = await fetch(`${proxy.url}${MONITORING_VIEW_PATH}?pageSize=500`, {
      headers: { 'x-requested-with': 'carrier-desk' },
    });
    const view = (await answer.json()) as { changeIds: string[][] };
    const marked = view.changeIds.map((ids, p) => ids.map((_, c) => `sent-${p}-${c}`));
    const real = fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await real(input, init);
      const body = (await response.json()) as Record<string, unknown>;
      return Response.json({ ...body, changeIds: marked });
    });
    const list = await getMonitoringList({ pageSize: 500 }, undefined, proxy.url);
    const shown = list.profiles.map((profile) => inboxChangesOf(profile).map((c) => c.id));
    expect(shown).toEqual(marked);
    expect(shown.flat().length).toBeGreaterThan(0);
  });

  it('gives the validation error of the list, with its code and hint', async () => {
    const error = await failureOf({ pageSize: 0 });
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.code).toEqual(expect.any(String));
    expect(error.hint).toEqual(expect.any(String));
  });

  // last of this proxy's tests: the 429 pauses its queue for the list
  it('gives a 429 with the seconds to count down', async () => {
    await sandbox('/__sandbox/faults', {
      rules: [{ path: '/v2/monitoring/list', status: 429, count: 10, retry_after: 600 }],
    });
    const error = await failureOf({ page: 1 });
    expect(error).toMatchObject({ kind: 'http', status: 429 });
    expect(error.retryAfter).toBeGreaterThan(0);
  });
});

describe('getMonitoringList during an outage', () => {
  let down: RunningProxy;
  beforeAll(async () => {
    down = await startProxy(embeddedSandboxConfig({}, { retryDelayMs: 1 }));
    const response = await fetch(`${down.app.proxy.sandbox?.url ?? ''}/__sandbox/faults`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${EMBEDDED_SANDBOX_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        rules: [{ path: '/v2/monitoring/list', status: 503, retry_after: 0, count: 100 }],
      }),
    });
    expect(response.ok).toBe(true);
  });
  afterAll(() => down.close());

  it('gives the outage as a 503 the inbox retries', async () => {
    const error = await getMonitoringList({ page: 1 }, undefined, down.url).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 503 });
  });
});

describe('an unreadable answer', () => {
  it.each([
    ['not JSON', 'not json', /not JSON/],
    ['JSON but not a page', '{"total_count": 0, "items": {}}', /not a page/],
    [
      'a page of the wrong types',
      '{"list": {"totalCount": "3", "profiles": {}}, "changeIds": []}',
      /not a page/,
    ],
  ])('is an invalid-body error: %s', async (_, text, message) => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response(text, { headers: { 'content-type': 'application/json' } })),
    );
    const error = await getMonitoringList({ page: 1 }, undefined, 'http://127.0.0.1:9').catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'invalid-body', status: 200, message });
  });
});
