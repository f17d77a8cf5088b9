import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ChunkLoadError,
  importOrReload,
  isChunkLoadError,
  pageReloader,
  reloadOnceForChunk,
} from './chunk-reload.ts';

const CHROMIUM_FAILURE = new TypeError(
  'Failed to fetch dynamically imported module: http://127.0.0.1:8787/assets/SafetyTab-abc123.js',
);

let reload: ReturnType<typeof vi.fn<() => void>>;
const original = pageReloader.reload;
beforeEach(() => {
  window.sessionStorage.clear();
  reload = vi.fn<() => void>();
  pageReloader.reload = reload;
});
afterEach(() => {
  pageReloader.reload = original;
});

describe('chunk load failures', () => {
  it('recognises the browsers’ wordings and nothing else', () => {
    expect(isChunkLoadError(CHROMIUM_FAILURE)).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new ChunkLoadError(CHROMIUM_FAILURE))).toBe(true);
    expect(isChunkLoadError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once, then not again within a minute, then again later', () => {
    const t0 = 1_800_000_000_000;
    expect(reloadOnceForChunk(t0)).toBe(true);
    expect(reloadOnceForChunk(t0 + 5_000)).toBe(false);
    expect(reloadOnceForChunk(t0 + 59_000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunk(t0 + 61_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads when session storage is unavailable (it could not stop a loop)', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    try {
      expect(reloadOnceForChunk()).toBe(false);
      expect(reload).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('importOrReload reloads on the first failure and rejects readably on the next', async () => {
    const failing = () => Promise.reject(CHROMIUM_FAILURE);
    let settled = false;
    void importOrReload(failing).finally(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false); // the page is going away: nothing renders an error meanwhile
    const second = importOrReload(failing);
    await expect(second).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(second).rejects.toThrow(/could not be downloaded.*Reload the page/);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('importOrReload passes other errors and successes through', async () => {
    await expect(importOrReload(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(importOrReload(() => Promise.reject(new RangeError('x')))).rejects.toThrow(
      RangeError,
    );
    expect(reload).not.toHaveBeenCalled();
  });
});
