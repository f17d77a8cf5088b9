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
