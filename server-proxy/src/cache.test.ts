import { describe, expect, it } from 'vitest';
import { Coalescer, ResponseCache, type StoredResponse } from './cache.ts';

function entry(body: string, dots: string[] = []): StoredResponse {
  return { status: 200, body, headers: {}, fetchedAt: new Date(), dots };
}

describe('ResponseCache', () => {
  it('expires entries after their own TTL', () => {
    let now = 1000;
    const cache = new ResponseCache(1024 * 1024, () => now);
    cache.set('a', entry('{"a":1}'), 100);
    cache.set('b', entry('{"b":1}'), 10_000);
    now += 101;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.body).toBe('{"b":1}');
  });

  it('stays within its byte bound, dropping the least recently used', () => {
    const cache = new ResponseCache(10_000);
    const big = 'x'.repeat(3000);
    for (const key of ['k1', 'k2', 'k3', 'k4']) cache.set(key, entry(big), 60_000);
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k4')?.body).toBe(big);
    cache.set('huge', entry('y'.repeat(20_000)), 60_000);
    expect(cache.get('huge')).toBeUndefined();
  });

  it("holds a bulk job's answers within their share of the bytes, leaving the users' entries", () => {
    // 80,000 bytes: the bulk share is 10,000, room for two entries of ~3,500
    const cache = new ResponseCache(80_000);
    const body = 'x'.repeat(3000);
    cache.set('user-1', entry(body), 60_000);
    cache.set('user-2', entry(body), 60_000);
    for (let i = 1; i <= 10; i += 1) cache.set(`bulk-${i}`, entry(body), 60_000, { bulk: true });
    expect(cache.get('bulk-1')).toBeUndefined();
    expect(cache.get('bulk-8')).toBeUndefined();
    expect(cache.get('bulk-9')?.body).toBe(body);
    expect(cache.get('bulk-10')?.body).toBe(body);
    expect(cache.get('user-1')?.body).toBe(body);
    expect(cache.get('user-2')?.body).toBe(body);
    expect(cache.bulkBytes).toBeLessThanOrEqual(10_000);
    expect(cache.bytes).toBeLessThanOrEqual(20_000);
    // a user's fetch of a bulk entry makes it an ordinary one, no longer pushed out by the bulk
    cache.set('bulk-10', entry(body), 60_000);
    for (let i = 11; i <= 14; i += 1) cache.set(`bulk-${i}`, entry(body), 60_000, { bulk: true });
    expect(cache.get('bulk-10')?.body).toBe(body);
    expect(cache.get('bulk-12')).toBeUndefined();
    expect(cache.bulkBytes).toBeLessThanOrEqual(10_000);
  });

  it('drops the entries of given DOTs', () => {
    const cache = new ResponseCache(1024 * 1024);
    cache.set('profile?dot_number=1', entry('{}', ['1']), 60_000);
    cache.set('profile-lite?dot_number=1', entry('{}', ['1']), 60_000);
    cache.set('profile?dot_number=2', entry('{}', ['2']), 60_000);
    expect(cache.invalidateDots(['1'])).toBe(2);
    expect(cache.size).toBe(1);
    expect(cache.get('profile?dot_number=2')).toBeDefined();
  });
});

describe('Coalescer', () => {
  it('runs one task for concurrent callers of one key and a new one afterwards', async () => {
    const coalescer = new Coalescer<number>();
    let runs = 0;
    const task = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return runs;
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => coalescer.run('k', task)));
    expect(runs).toBe(1);
    expect(results.filter((r) => !r.shared)).toHaveLength(1);
    expect(results.every((r) => r.value === 1)).toBe(true);
    expect((await coalescer.run('k', task)).value).toBe(2);
  });

  it('shares a failure and forgets it', async () => {
    const coalescer = new Coalescer<number>();
    const failing = () => Promise.reject(new Error('boom'));
    await expect(coalescer.run('k', failing)).rejects.toThrow('boom');
    await expect(coalescer.run('k', async () => 7)).resolves.toEqual({ value: 7, shared: false });
  });
});
