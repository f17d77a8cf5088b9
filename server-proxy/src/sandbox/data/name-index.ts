/**
 * Prefix index over names for autocomplete. Entries are bucketed by their first three characters
 * at start-up (linear); a bucket is sorted the first time a query needs it, so start-up stays cheap
 * at a million names and later queries are binary searches.
 *
 * All entries sit in one Int32Array, bucket after bucket (a JS array per bucket cost about twice
 * the memory, and its growth was start-up garbage). Names are not kept here: `nameOf` reads them
 * from the population's packed text columns when a query or a sort needs them.
 */

const KEY_LENGTH = 3;

export class NameIndex {
  /** entries grouped by key; each bucket is a [from, to) range */
  private readonly entries: Int32Array;
  private readonly ranges = new Map<string, { from: number; to: number }>();
  private readonly sorted = new Set<string>();
  /** bucket keys in order */
  private readonly keys: string[];

  /**
   * `nameOf(entry)` must be upper case; entries are opaque non-negative integers. `each` calls its
   * callback once per entry to index, the same entries in the same order each time, at most
   * `capacity` of them.
   */
  constructor(
    private readonly nameOf: (entry: number) => string,
    capacity: number,
    each: (add: (entry: number) => void) => void,
  ) {
    // Two passes (count, then place) so the entries go straight into an array of the final size.
    const keyIds = new Map<string, number>();
    const keyOfEntry = new Uint32Array(capacity);
    const counts: number[] = [];
    let total = 0;
    each((entry) => {
      if (total >= capacity) throw new Error(`NameIndex: more than ${capacity} entries`);
      const key = nameOf(entry).slice(0, KEY_LENGTH);
      let id = keyIds.get(key);
      if (id === undefined) {
        id = counts.length;
        keyIds.set(key, id);
        counts.push(0);
      }
      counts[id] = (counts[id] ?? 0) + 1;
      keyOfEntry[total] = id;
      total += 1;
    });
    this.entries = new Int32Array(total);
    const next: number[] = [];
    let at = 0;
    for (const [key, id] of keyIds) {
      const count = counts[id] ?? 0;
      this.ranges.set(key, { from: at, to: at + count });
      next[id] = at;
      at += count;
    }
    let i = 0;
    each((entry) => {
      const id = keyOfEntry[i] ?? 0;
      const slot = next[id] ?? 0;
      this.entries[slot] = entry;
      next[id] = slot + 1;
      i += 1;
    });
    this.keys = [...keyIds.keys()].sort();
  }

  /** Entries whose name starts with `prefix`, in name order (ties by entry), at most `limit`. */
  prefix(prefix: string, limit: number): number[] {
    const out: number[] = [];
    for (const key of this.keysFor(prefix)) {
      const bucket = this.bucket(key);
      for (let i = this.lowerBound(bucket, prefix); i < bucket.length && out.length < limit; i += 1) {
        const entry = bucket[i] ?? 0;
        if (!this.nameOf(entry).startsWith(prefix)) break;
        out.push(entry);
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  private keysFor(prefix: string): string[] {
    if (prefix.length >= KEY_LENGTH) {
      const key = prefix.slice(0, KEY_LENGTH);
      return this.ranges.has(key) ? [key] : [];
    }
    return this.keys.filter((k) => k.startsWith(prefix));
  }

  private bucket(key: string): Int32Array {
    const range = this.ranges.get(key);
    if (!range) return new Int32Array(0);
    const bucket = this.entries.subarray(range.from, range.to);
    if (!this.sorted.has(key)) {
      // Each name is read once for the sort, not once per comparison.
      const named = Array.from(bucket, (entry) => ({ entry, name: this.nameOf(entry) }));
      named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.entry - b.entry));
      named.forEach((n, i) => {
        bucket[i] = n.entry;
      });
      this.sorted.add(key);
    }
    return bucket;
  }

  private lowerBound(bucket: Int32Array, prefix: string): number {
    let lo = 0;
    let hi = bucket.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.nameOf(bucket[mid] ?? 0) < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
