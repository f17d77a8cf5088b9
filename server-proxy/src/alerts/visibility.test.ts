/**
 * Who sees which alert subscriptions and deliveries (issue 31, items 1 and 4; docs/alerts.md "Who
 * sees what"), over a real proxy in trusted-header mode on each engine: a viewer and an analyst
 * see their own subscriptions and deliveries and the team's deliveries with the addresses masked,
 * never another user's; an admin sees every subscription (with its owner) and every delivery in
 * full, and may test and remove anyone's subscription. Deliveries go to closed ports on loopback:
 * nothing leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { forEachDatabase } from '../sql/engines.test-support.ts';
import { maskText, shownTarget } from './visibility.ts';

const HOOK = 'http://127.0.0.1:9/hook/T0KEN-in-the-path?key=abc';

function as(user: string, role: string): Record<string, string> {
  return { ...CSRF, 'x-forwarded-user': user, 'x-role': role };
}

interface SubscriptionView {
  id: number;
  user: string;
  mine: boolean;
  kind: string;
  target: string;
}

interface DeliveryView {
  subscription_id: number | null;
  owner: string | null;
  mine: boolean;
  kind: string;
  target: string;
}

forEachDatabase('who sees which alerts', (database) => {
  let origin: FakeOrigin;
  let proxy: RunningProxy;
  const ids: Record<string, number> = {};

  const get = async (path: string, user: string, role: string) => {
    const answer = await proxy.call(path, { headers: as(user, role) });
    expect(answer.status, answer.text).toBe(200);
    return answer;
  };
  const subscriptionsOf = async (user: string, role: string) =>
    ((await get('/api/local/alerts', user, role)).json as { subscriptions: SubscriptionView[] })
      .subscriptions;
  const deliveriesOf = async (user: string, role: string) => {
    const answer = await get('/api/local/alerts/deliveries', user, role);
    return { text: answer.text, list: (answer.json as { deliveries: DeliveryView[] }).deliveries };
  };
  const post = (path: string, user: string, role: string, body: unknown = {}) =>
    proxy.call(path, { method: 'POST', headers: as(user, role), body });

  beforeAll(async () => {
    origin = await startFakeOrigin();
    proxy = await startProxy(
      testConfig({
        mode: 'test',
        upstream: { baseUrl: origin.url, apiKey: 'sk_test_alerts', timeoutMs: 2000 },
        auth: {
          kind: 'trusted-header',
          header: 'x-forwarded-user',
          roleHeader: 'x-role',
          trustedProxies: ['127.0.0.1'],
        },
        alerts: {
          pollIntervalSeconds: 0,
          smtpUrl: 'smtp://127.0.0.1:9',
          from: 'desk@corp.example',
          emailTo: ['team-lead@corp.example'],
          webhookSecret: 'whsec_test_0123456789abcdef',
          webhookHosts: ['127.0.0.1:9'],
        },
        ...database.config,
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await origin?.close();
  });

  it('lists a non-admin their own subscriptions, an admin every one with its owner', async () => {
    const subscribe = async (user: string, kind: string, target: string) => {
      const answer = await post('/api/local/alerts/subscriptions', user, 'analyst', {
        kind,
        target,
        channels: ['authority'],
        severity: 'all',
        schedule: 'immediate',
      });
      expect(answer.status, answer.text).toBe(201);
      return (answer.json as { id: number }).id;
    };
    ids.alMail = await subscribe('al', 'email', 'al@corp.example');
    ids.alHook = await subscribe('al', 'webhook', HOOK);
    ids.boMail = await subscribe('bo', 'email', 'bo@corp.example');

    const al = await subscriptionsOf('al', 'analyst');
    expect(al.map((sub) => [sub.id, sub.user, sub.mine, sub.target])).toEqual([
      [ids.alMail, 'al', true, 'al@corp.example'],
      [ids.alHook, 'al', true, HOOK],
    ]);
    expect((await subscriptionsOf('bo', 'analyst')).map((sub) => sub.id)).toEqual([ids.boMail]);
    // a viewer (say, a demoted analyst) still sees only their own
    expect(await subscriptionsOf('bo', 'viewer')).toHaveLength(1);
    expect(await subscriptionsOf('vic', 'viewer')).toEqual([]);

    const ann = await subscriptionsOf('ann', 'admin');
    expect(ann.map((sub) => [sub.id, sub.user, sub.mine, sub.target])).toEqual([
      [ids.alMail, 'al', false, 'al@corp.example'],
      // another's webhook: its origin only, even to an admin (the path may be the receiver's token)
      [ids.alHook, 'al', false, 'http://127.0.0.1:9/…'],
      [ids.boMail, 'bo', false, 'bo@corp.example'],
    ]);
  });

  it('lets an admin test and remove anyone’s subscription, an analyst only their own', async () => {
    expect(
      (await post('/api/local/alerts/test', 'bo', 'analyst', { subscription_id: ids.alMail }))
        .status,
    ).toBe(404);
    const own = await post('/api/local/alerts/test', 'al', 'analyst', {
      subscription_id: ids.alMail,
    });
    expect(own.status, own.text).toBe(202);
    const byAdmin = await post('/api/local/alerts/test', 'ann', 'admin', {
      subscription_id: ids.boMail,
    });
    expect(byAdmin.status, byAdmin.text).toBe(202);
    // an admin's "send test" for all: the team destinations (and her own, none)
    const team = await post('/api/local/alerts/test', 'ann', 'admin');
    expect(team.json).toMatchObject({ deliveries_queued: 1 });
    // an analyst's for all: their own only, never the team's
    const alAll = await post('/api/local/alerts/test', 'al', 'analyst');
    expect(alAll.status, alAll.text).toBe(202);
    expect(alAll.json).toMatchObject({ deliveries_queued: 1 });

    expect(
      (await post(`/api/local/alerts/subscriptions/${ids.alHook}/remove`, 'bo', 'analyst')).status,
    ).toBe(404);
    const removed = await post(
      `/api/local/alerts/subscriptions/${ids.alHook}/remove`,
      'ann',
      'admin',
    );
    expect(removed.json).toEqual({ removed: ids.alHook });
  });

  it('shows a non-admin their own deliveries and the team’s masked, an admin every one in full', async () => {
    const al = await deliveriesOf('al', 'analyst');
    expect(al.list.map((d) => [d.subscription_id, d.owner, d.target]).sort()).toEqual(
      [
        [ids.alMail, 'al', 'al@corp.example'],
        [null, null, 't…@corp.example'],
      ].sort(),
    );
    expect(al.list.map((d) => d.mine).sort()).toEqual([false, true]);
    expect(al.text).not.toContain('bo@corp.example');
    expect(al.text).not.toContain('team-lead@');
    // the removed webhook's test: its owner is gone with the subscription, so an admin's only
    expect(al.list.some((d) => d.subscription_id === ids.alHook)).toBe(false);

    const vic = await deliveriesOf('vic', 'viewer');
    expect(vic.list.map((d) => [d.subscription_id, d.owner, d.target])).toEqual([
      [null, null, 't…@corp.example'],
    ]);

    const ann = await deliveriesOf('ann', 'admin');
    expect(ann.list.map((d) => [d.subscription_id, d.owner, d.target]).sort()).toEqual(
      [
        [ids.alMail, 'al', 'al@corp.example'],
        [ids.boMail, 'bo', 'bo@corp.example'],
        [null, null, 'team-lead@corp.example'],
        [ids.alHook, null, 'http://127.0.0.1:9/…'],
      ].sort(),
    );
    expect(ann.text).not.toContain('T0KEN');
  });
});

describe('masking a delivery for a non-admin', () => {
  it('masks e-mail lists, webhook paths, and the addresses a last error names', () => {
    expect(shownTarget('email', 'team-lead@corp.example, ops@corp.example', 'masked')).toBe(
      't…@corp.example, o…@corp.example',
    );
    expect(shownTarget('email', 'al@corp.example', 'full')).toBe('al@corp.example');
    expect(shownTarget('webhook', HOOK, 'full')).toBe('http://127.0.0.1:9/…');
    expect(
      maskText(
        '550 <team-lead@corp.example>: Recipient rejected; see https://mx.corp.example/why?u=1',
      ),
    ).toBe('550 <t…@corp.example>: Recipient rejected; see https://mx.corp.example/…');
  });
});
