/**
 * Prefix index over names for autocomplete. Entries are bucketed by their first three characters
 * at start-up (linear); a bucket is sorted the first time a query needs it, so start-up stays cheap
 * at a million names and later queries are binary searches.
 */

const KEY_LENGTH = 3;

export class NameIndex {
  private readonly buckets = new Map<string, number[]>();
  private readonly sorted = new Set<string>();
  private keys: string[] | undefined;

  /** `nameOf(entry)` must be upper case; entries are opaque integers. */
  constructor(private readonly nameOf: (entry: number) => string) {}

  add(entry: number): void {
    const key = this.nameOf(entry).slice(0, KEY_LENGTH);
    const bucket = this.buckets.get(key);
    if (bucket) bucket.push(entry);
    else this.buckets.set(key, [entry]);
    this.keys = undefined;
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
      return this.buckets.has(key) ? [key] : [];
    }
    this.keys ??= [...this.buckets.keys()].sort();
    return this.keys.filter((k) => k.startsWith(prefix));
  }

  private bucket(key: string): number[] {
    const bucket = this.buckets.get(key) ?? [];
    if (!this.sorted.has(key)) {
      bucket.sort((a, b) => {
        const x = this.nameOf(a);
        const y = this.nameOf(b);
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      this.sorted.add(key);
    }
    return bucket;
  }

  private lowerBound(bucket: number[], prefix: string): number {
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
