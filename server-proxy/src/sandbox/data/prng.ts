/**
 * Deterministic pseudo-randomness. Everything the sandbox generates is a pure function of the dataset
 * seed and a few integers (a row, a unit index, a salt), so any value can be re-derived lazily.
 */

/** murmur3's 32-bit finaliser: a cheap, well-mixing bijection on uint32. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combine integers into one well-mixed uint32. */
export function hash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) h = mix32(h ^ mix32(part + 0x7f4a7c15));
  return h;
}

/** A uint32 hash mapped to [0, 1). */
export function unit(h: number): number {
  return h / 4294967296;
}

/** FNV-1a over a string, for seeding from text (e.g. an address -> its id). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small seeded generator (mulberry32) with the helpers the generators need. */
export class Rng {
  private state: number;

  constructor(...seedParts: number[]) {
    this.state = hash(...seedParts);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Rng.pick on an empty list');
    return item;
  }

  /** Pick by weight; `weights` has the same length as `items`. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, w) => sum + w, 0);
    let r = this.next() * total;
    for (let i = 0; i < items.length; i += 1) {
      r -= weights[i] ?? 0;
      if (r < 0) return items[i] as T;
    }
    return this.pick(items);
  }

  /** Pick by precomputed cumulative weights (ascending, last = total): O(log n), no allocation. */
  pickCumulative<T>(items: readonly T[], cumulative: readonly number[]): T {
    const r = this.next() * (cumulative[cumulative.length - 1] ?? 0);
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cumulative[mid] ?? 0) > r) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  }

  /** A string of `length` decimal digits (the first one non-zero). */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < length; i += 1) out += String(this.int(0, 9));
    return out;
  }

  /** A version-4-shaped UUID, for the `_id` of history records. */
  uuid(): string {
    const hex = (n: number) =>
      Array.from({ length: n }, () => Math.floor(this.next() * 16).toString(16)).join('');
    const variant = (8 + Math.floor(this.next() * 4)).toString(16);
    return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
  }
}
