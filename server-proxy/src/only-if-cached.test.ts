import { afterEach, describe, expect, it } from 'vitest';
import {
  LIVE_KEY,
  SAMPLE_PROFILE,
  answerJson,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from './helpers.test-support.ts';

let origin: FakeOrigin;
let proxy: RunningProxy;

afterEach(async () => {
  await proxy?.close();
  await origin?.close();
});

async function setup() {
  origin = await startFakeOrigin((_req, res) => answerJson(res, 200, SAMPLE_PROFILE));
  proxy = await startProxy(
    testConfig({
      upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
    }),
  );
}

const PROFILE = '/api/v2/profile?dot_number=568253';
const ONLY_IF_CACHED = { headers: { 'cache-control': 'only-if-cached' } };

async function spentUsd(): Promise<number> {
  const usage = await proxy.call('/api/local/usage');
  return (usage.json as { spentUsd: number }).spentUsd;
}

describe('Cache-Control: only-if-cached', () => {
  it('answers 504 not_cached without calling upstream or billing, then the cached copy', async () => {
    await setup();
    const before = await proxy.call(PROFILE, ONLY_IF_CACHED);
    expect(before.status).toBe(504);
    expect(before.json).toMatchObject({ code: 'not_cached' });
    const summaryBefore = await proxy.call(
      '/api/local/profile-summary?dot_number=568253',
      ONLY_IF_CACHED,
    );
    expect(summaryBefore.status).toBe(504);
    expect(origin.requests).toHaveLength(0);
    expect(await spentUsd()).toBe(0);

    const fetched = await proxy.call(PROFILE);
    expect(fetched.status).toBe(200);
    const after = await proxy.call('/api/v2/profile?dot_number=0568253', ONLY_IF_CACHED);
    expect(after.status).toBe(200);
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(after.text).toBe(fetched.text);
    const summaryAfter = await proxy.call(
      '/api/local/profile-summary?dot_number=568253',
      ONLY_IF_CACHED,
    );
    expect(summaryAfter.status).toBe(200);
    expect(origin.requests).toHaveLength(1);
  });

  it('never forwards an uncached endpoint', async () => {
    await setup();
    const list = await proxy.call('/api/v2/monitoring/list', ONLY_IF_CACHED);
    expect(list.status).toBe(504);
    expect(origin.requests).toHaveLength(0);
  });
});
