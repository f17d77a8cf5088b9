import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openProxyDb } from '../db.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { makeTempDir } from '../helpers.test-support.ts';
import { createNameRecorder } from './recorder.ts';
import { createCarrierNameStore, type CarrierNameStore } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A real store over a SQLite file, counting the writes it is asked for. */
function countingStore() {
  const dir = makeTempDir();
  dirs.push(dir);
  const store = createCarrierNameStore(createSqliteEngine(openProxyDb(join(dir, 'p.sqlite'))));
  const puts: number[] = [];
  const counted: CarrierNameStore = {
    get: (dots) => store.get(dots),
    put: (sightings, at, before) => {
      puts.push(sightings.length);
      return store.put(sightings, at, before);
    },
  };
  return { store: counted, puts };
}

const page = (from: number, count: number) => ({
  items: Array.from({ length: count }, (_, i) => ({
    dot_number: String(from + i),
    legal_name: `CARRIER ${from + i}`,
  })),
});

describe('name recorder', () => {
  it('batches what several answers name into one write, after the answers', async () => {
    const { store, puts } = countingStore();
    const recorder = createNameRecorder(store, { flushDelayMs: 10_000 });
    recorder.observe('profile', page(100, 3));
    recorder.observe('autocomplete', [{ dot_number: '200', legal_name: 'SUGGESTED' }]);
    recorder.observe('monitoring/list', page(300, 5));
    expect(puts).toEqual([]);
    await recorder.flush();
    expect(puts).toEqual([4]);
    expect((await store.get(['100', '200', '300'])).size).toBe(2);
    await recorder.close();
  });

  it('does not queue a name already written unchanged, and writes a changed one', async () => {
    const { store, puts } = countingStore();
    const recorder = createNameRecorder(store, { flushDelayMs: 10_000 });
    recorder.observe('profile', page(100, 2));
    await recorder.flush();
    recorder.observe('profile', page(100, 2));
    await recorder.flush();
    expect(puts).toEqual([2]);
    recorder.observe('profile', { items: [{ dot_number: '101', legal_name: 'RENAMED' }] });
    await recorder.flush();
    expect(puts).toEqual([2, 1]);
    expect((await store.get(['101'])).get('101')?.legal).toBe('RENAMED');
    await recorder.close();
  });

  it('writes by itself after the delay, and a failing store is reported, never thrown', async () => {
    const { store, puts } = countingStore();
    const recorder = createNameRecorder(store, { flushDelayMs: 5 });
    recorder.observe('profile', page(1, 1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(puts).toEqual([1]);
    const errors: unknown[] = [];
    const broken = createNameRecorder(
      { get: store.get, put: () => Promise.reject(new Error('disk full')) },
      { onError: (err) => errors.push(err), flushDelayMs: 10_000 },
    );
    broken.observe('profile', page(1, 1));
    broken.observe('profile', 'not json at all');
    await broken.flush();
    expect(errors).toHaveLength(1);
    await recorder.close();
  });

  it('observing a 500-carrier search page takes well under a millisecond per carrier', () => {
    const { store } = countingStore();
    const recorder = createNameRecorder(store, { flushDelayMs: 10_000 });
    const big = page(1000, 500);
    const start = performance.now();
    recorder.observe('profile', big);
    expect(performance.now() - start).toBeLessThan(50);
  });
});
