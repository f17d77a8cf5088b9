/** GET /api/local/usage over real HTTP on loopback: the month's breakdowns and its access rule. */
import { afterEach, describe, expect, it } from 'vitest';
import { startGovernedApp, testConfig, type GovernedApp } from './helpers.test-support.ts';

const running: GovernedApp[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
});

async function start(...args: Parameters<typeof startGovernedApp>) {
  const app = await startGovernedApp(...args);
  running.push(app);
  return app;
}

interface UsageBody {
  spentUsd: number;
  remainingUsd: number | null;
  byEndpoint: { endpoint: string; calls: number; usd: number }[];
  byUser: { user: string; calls: number; usd: number }[];
}

describe('GET /api/local/usage', () => {
  it('says what each endpoint and each user spent this month, with the budget left', async () => {
    const app = await start(testConfig({ monthlyBudgetUsd: 20 }));
    const at = new Date();
    const spend = app.parts.spend;
    spend.record({ endpoint: 'profile', dots: ['11', '12'], at, user: 'ann', cacheHit: false });
    spend.record({ endpoint: 'profile-lite', dots: ['13'], at, user: 'bo', cacheHit: false });
    spend.record({ endpoint: 'autocomplete', dots: [], at, user: 'bo', cacheHit: false });
    const reply = await app.call('/api/local/usage');
    expect(reply.status).toBe(200);
    const body = reply.json as UsageBody;
    expect(body).toMatchObject({ spentUsd: 6.503, remainingUsd: 13.497 });
    expect(body.byUser).toEqual([
      { user: 'ann', calls: 1, usd: 6 },
      { user: 'bo', calls: 2, usd: 0.503 },
    ]);
    const usd = Object.fromEntries(body.byEndpoint.map((line) => [line.endpoint, line.usd]));
    expect(usd).toEqual({
      profile: 6,
      'profile-lite': 0.5,
      'profile-fmcsa': 0,
      autocomplete: 0.003,
      'monitoring/add': 0,
      'monitoring/remove': 0,
      'monitoring/list': 0,
    });
  });

  it('keeps its access rule: no user, no usage (trusted-header mode without the header)', async () => {
    const app = await start(
      testConfig({
        auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
      }),
    );
    const anonymous = await app.call('/api/local/usage');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ code: 'unauthenticated' });
    expect(anonymous.text).not.toContain('byUser');
    const signedIn = await app.call('/api/local/usage', {
      headers: { 'x-forwarded-user': 'ann' },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toMatchObject({ byUser: [], spentUsd: 0 });
  });
});
