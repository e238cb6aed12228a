/**
 * A map of at most `max` keys that drops the least recently used first: the one eviction policy
 * of the caches that hold answers or data per key (common/promise-cache.ts's answers, the
 * analysis worker's column sets in service/analysis-runner.ts, the session views' columns of the
 * last few finished sessions in service/session-views.ts). A Map iterates in insertion
 * order, so moving a key to the end on each use keeps the least recently used first.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly max = Number.POSITIVE_INFINITY) {}

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** The value for `key`, now the most recently used (undefined when absent). */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const v = this.map.get(key)!;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** The value for `key` without counting it as a use. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets `key` (now the most recently used); returns the keys dropped to stay within `max`, oldest first. */
  set(key: K, value: V): K[] {
    this.map.delete(key);
    this.map.set(key, value);
    const dropped: K[] = [];
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
      dropped.push(oldest);
    }
    return dropped;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
