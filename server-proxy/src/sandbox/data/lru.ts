/** A tiny least-recently-used cache on top of Map's insertion order. */
export class Lru<K, V> {
  private readonly items = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K, make: () => V): V {
    const hit = this.items.get(key);
    if (hit !== undefined) {
      this.items.delete(key);
      this.items.set(key, hit);
      return hit;
    }
    const value = make();
    this.items.set(key, value);
    if (this.items.size > this.capacity) {
      const oldest = this.items.keys().next();
      if (!oldest.done) this.items.delete(oldest.value);
    }
    return value;
  }
}
