/**
 * "Is it held?" in team mode (issue 30, item 4): two proxies sharing one Redis (REDIS_URL), each
 * with its own SQLite file (so neither the spend ledger nor the name store carries what the other
 * saw), in front of one sandbox behind a recording pass-through. A profile fetched on A is used on B
 * by the bulk estimate, the inbox's names and the verdict — through the mirror's peek at the shared
 * cache — and the service sees no second call. Then the peek itself over a real shared cache: a
 * held answer a reported change outdated is returned flagged, a fetch in flight is not waited for,
 * a Redis that cannot be asked holds nothing. Skipped, with the reason, only where redis-server is
 * not installed (replicas.test-support.ts).
 */
import { describe, expect, it } from 'vitest';
import { ResponseCache, type StoredResponse } from '../cache.ts';
import { peekAt } from '../routes/mirror.ts';
import { requestKey, validateRequest } from '../validate.ts';
import { createRedisClient } from './redis-buckets.ts';
import { SharedResponseCache } from './redis-cache.ts';
import type { RunningProxy } from '../helpers.test-support.ts';
import { asUser, useRedis, useReplicas, useSandbox } from './replicas.test-support.ts';

const SANDBOX_KEY = 'sk_test_peek_replicas';
const DOT = '4418207';
const headers = asUser('val');
const redis = useRedis();
const sandbox = useSandbox({ apiKey: SANDBOX_KEY, recording: true });
const replicas = useReplicas(sandbox);

/** A replica on its own SQLite file (testConfig's own temporary data dir) and the shared Redis. */
const replica = (): Promise<RunningProxy> => replicas.start({ mode: 'live', redisUrl: redis.url });

const profileCalls = () => sandbox.front.callsTo('/v2/profile').length;

describe('peek across replicas', () => {
  it('B estimates, names and judges a carrier from what A fetched, calling the service no more', async () => {
    const a = await replica();
    const b = await replica();
    const fetched = await a.call(`/api/v2/profile?dot_number=${DOT}`, { headers });
    expect(fetched.status, fetched.text).toBe(200);
    const fetchedAt = fetched.headers.get('x-fetched-at');
    expect(fetchedAt).toBeTruthy();
    expect(profileCalls()).toBe(1);

    // the bulk estimate: the carrier is held (free), though B's own ledger never saw it
    const dry = await b.call('/api/local/bulk-jobs', {
      method: 'POST',
      headers,
      body: { identifiers: [DOT], dry_run: true },
    });
    expect(dry.status, dry.text).toBe(200);
    // soft: each of the three readers is reported, whichever fails
    expect.soft((dry.json as { estimate: unknown }).estimate).toMatchObject({
      carriers: 1,
      already_fetched: 1,
      billable: 0,
      metered_cost_usd: 0,
    });

    // the inbox's names: B's name store is empty; the held profile names the carrier
    const names = await b.call(`/api/local/triage/names?dots=${DOT}`, { headers });
    expect(names.status, names.text).toBe(200);
    expect.soft(names.json).toEqual({
      names: { [DOT]: { name: expect.any(String) as unknown, source: 'profile' } },
    });

    // the verdict: on A's answer, fetched when A fetched it
    const verdict = await b.call(`/api/local/verdict?dot_number=${DOT}`, { headers });
    expect(verdict.status, verdict.text).toBe(200);
    expect.soft(verdict.headers.get('x-cache')).toBe('hit');
    expect.soft(verdict.json).toMatchObject({ dot_number: DOT, fetched_at: fetchedAt });

    expect(profileCalls()).toBe(1);
  });
});

describe('the peek over a shared cache', () => {
  const key = requestKey(validateRequest('profile', { dot_number: DOT }, undefined));
  const options = { lockMs: 2000, maxWaitMs: 5000, pollMs: 25 };
  const answer = (): StoredResponse => ({
    status: 200,
    body: '{"items":[]}',
    headers: {},
    fetchedAt: new Date(),
    dots: [DOT],
  });

  function shared(url = redis.url) {
    const client = createRedisClient(url);
    client.on('error', () => {});
    return { client, store: new SharedResponseCache(client, `sk_test_peek_${url}`, options) };
  }

  it('returns a shared answer a reported change outdated, flagged, and keeps it here', async () => {
    const { client, store } = shared();
    try {
      await store.invalidateDots([DOT]);
      const stored = answer();
      await store.fetch(key, 60_000, false, () => Promise.resolve(stored));
      // a change reported on the day of the fetch outdates it
      const today = stored.fetchedAt.toISOString().slice(0, 10);
      await store.markStale(new Map([[DOT, today]]), 60_000);
      const local = new ResponseCache(1_000_000);
      const held = await peekAt(local, store)('profile', { dot_number: DOT });
      expect(held).toMatchObject({ status: 200, staleAfterChange: today });
      expect(local.get(key)).toBe(held);
    } finally {
      client.disconnect();
    }
  });

  it('does not wait for a fetch in flight elsewhere, nor call', async () => {
    const { client, store } = shared();
    try {
      await store.invalidateDots([DOT]);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const inFlight = store.fetch(key, 60_000, false, async () => {
        holding();
        await released;
        return answer();
      });
      await held;
      const started = Date.now();
      expect(
        await peekAt(new ResponseCache(1_000_000), store)('profile', { dot_number: DOT }),
      ).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(1000);
      release();
      await inFlight;
    } finally {
      client.disconnect();
    }
  });

  it('holds nothing when Redis cannot be asked, or the request is not one the mirror takes', async () => {
    const { client, store } = shared('redis://127.0.0.1:9');
    try {
      const peek = peekAt(new ResponseCache(1_000_000), store);
      expect(await peek('profile', { dot_number: DOT })).toBeUndefined();
      expect(await peek('profile', { dot_number: 'not-a-dot' })).toBeUndefined();
    } finally {
      client.disconnect();
    }
  });
});
