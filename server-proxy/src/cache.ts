import { LRUCache } from 'lru-cache';
import { changeOutdates } from '../../src/lib/monitoring/change-freshness.ts';

/** An upstream answer as the proxy keeps and replays it. */
export interface StoredResponse {
  status: number;
  /** the JSON body exactly as the service sent it (key scrubbed) */
  body: string;
  /** the response headers the browser may see (allow-listed) */
  headers: Record<string, string>;
  fetchedAt: Date;
  /** DOT numbers the body concerns (billing, audit, invalidation) */
  dots: string[];
  /**
   * `YYYY-MM-DD` of a change the monitoring list reported after this answer was fetched: the entry
   * is kept (held data others may peek at) but the mirror fetches it anew on its next read
   */
  staleAfterChange?: string;
  /** `YYYY-MM-DD` of the change whose report made the mirror fetch this answer anew */
  refreshedAfterChange?: string;
}

/** Per DOT, the day of the newest change the monitoring list reported (`YYYY-MM-DD`). */
export type ChangeMarks = ReadonlyMap<string, string>;

/**
 * The day `entry` is out of date from, after the changes `days` names for its DOTs (the newest
 * change that outdates it), or undefined when none does. See src/lib/monitoring/change-freshness.ts.
 */
export function staleDayOf(
  entry: Pick<StoredResponse, 'dots' | 'fetchedAt' | 'refreshedAfterChange'>,
  days: (dot: string) => string | undefined,
): string | undefined {
  let stale: string | undefined;
  for (const dot of entry.dots) {
    const day = days(dot);
    if (day !== undefined && changeOutdates(day, entry) && (stale === undefined || day > stale)) {
      stale = day;
    }
  }
  return stale;
}

/** Fixed cost per entry on top of the body, for the map, headers and key. */
const ENTRY_OVERHEAD_BYTES = 512;

function sizeOf(entry: StoredResponse, key: string): number {
  return Buffer.byteLength(entry.body) + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}

/**
 * The part of the cache's bytes that answers fetched by bulk jobs may hold. A job of 5,000 carriers
 * would otherwise fill the whole cache with profiles nobody is looking at, pushing out what the
 * users have open and keeping ~64 MB after the job (issue 31 item 7); its results are stored with
 * the job, so it does not need them held.
 */
const BULK_SHARE = 0.125;

interface CacheSetOptions {
  /** fetched by a bulk job: kept within BULK_SHARE of the cache, oldest of them dropped first */
  bulk?: boolean;
}

/**
 * Successful responses in memory, bounded by bytes (least recently used go first), each with its
 * own time to live. Entries are also indexed by DOT so a monitoring change can drop what it affects.
 * Entries a bulk job fetched are held within their own share of the bytes (BULK_SHARE).
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, StoredResponse>;
  private readonly keysByDot = new Map<string, Set<string>>();
  /** bulk entries, oldest first, with their sizes */
  private readonly bulkKeys = new Map<string, number>();
  private bulkBytesHeld = 0;
  private readonly bulkMaxBytes: number;

  constructor(maxBytes: number, now?: () => number) {
    this.bulkMaxBytes = Math.floor(maxBytes * BULK_SHARE);
    this.lru = new LRUCache<string, StoredResponse>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => sizeOf(entry, key),
      ttlAutopurge: false,
      allowStale: false,
      perf: now ? { now } : undefined,
      dispose: (entry, key) => {
        this.unindex(entry, key);
        this.forgetBulk(key);
      },
    });
  }

  get(key: string): StoredResponse | undefined {
    return this.lru.get(key);
  }

  /**
   * Keep `entry` for `ttlMs` (0 = do not keep); entries larger than the whole cache are skipped. A
   * bulk entry larger than the bulk share is not kept; one that fits pushes out the oldest bulk
   * entries until the bulk share holds it.
   */
  set(key: string, entry: StoredResponse, ttlMs: number, options: CacheSetOptions = {}): void {
    const size = sizeOf(entry, key);
    const bound = options.bulk === true ? this.bulkMaxBytes : this.lru.maxSize;
    if (ttlMs <= 0 || size > bound) return;
    this.lru.set(key, entry, { ttl: ttlMs });
    // a user's fetch of the same request makes it an ordinary entry
    this.forgetBulk(key);
    if (options.bulk === true) this.holdAsBulk(key, size);
    for (const dot of entry.dots) {
      const keys = this.keysByDot.get(dot) ?? new Set<string>();
      keys.add(key);
      this.keysByDot.set(dot, keys);
    }
  }

  /** Bytes held by bulk entries. */
  get bulkBytes(): number {
    return this.bulkBytesHeld;
  }

  private holdAsBulk(key: string, size: number): void {
    if (!this.lru.has(key)) return;
    this.bulkKeys.set(key, size);
    this.bulkBytesHeld += size;
    for (const oldest of this.bulkKeys.keys()) {
      if (this.bulkBytesHeld <= this.bulkMaxBytes) break;
      // dispose forgets it (and its bytes)
      if (!this.lru.delete(oldest)) this.forgetBulk(oldest);
    }
  }

  private forgetBulk(key: string): void {
    const size = this.bulkKeys.get(key);
    if (size === undefined) return;
    this.bulkKeys.delete(key);
    this.bulkBytesHeld -= size;
  }

  /** Drop every entry that concerns one of `dots`; returns how many were dropped. */
  invalidateDots(dots: readonly string[]): number {
    let dropped = 0;
    for (const dot of dots) {
      for (const key of [...(this.keysByDot.get(dot) ?? [])]) {
        if (this.lru.delete(key)) dropped += 1;
      }
    }
    return dropped;
  }

  /**
   * Mark stale (kept, `staleAfterChange` set) every entry of a DOT in `marks` fetched before the
   * change reported for it; returns how many entries were newly marked.
   */
  markStale(marks: ChangeMarks): number {
    let marked = 0;
    for (const dot of marks.keys()) {
      for (const key of this.keysByDot.get(dot) ?? []) {
        const entry = this.lru.peek(key);
        if (!entry) continue;
        const day = staleDayOf(entry, (d) => marks.get(d));
        if (day === undefined || (entry.staleAfterChange ?? '') >= day) continue;
        entry.staleAfterChange = day;
        marked += 1;
      }
    }
    return marked;
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  private unindex(entry: StoredResponse, key: string): void {
    for (const dot of entry.dots) {
      const keys = this.keysByDot.get(dot);
      keys?.delete(key);
      if (keys?.size === 0) this.keysByDot.delete(dot);
    }
  }
}

/** Concurrent identical requests share one upstream call: later callers join the first. */
export class Coalescer<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  /** Run `task` for `key` unless one is running; `shared` tells whether this caller joined. */
  async run(key: string, task: () => Promise<T>): Promise<{ value: T; shared: boolean }> {
    const running = this.inFlight.get(key);
    if (running) return { value: await running, shared: true };
    const promise = task().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return { value: await promise, shared: false };
  }
}
