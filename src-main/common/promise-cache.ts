/**
 * Answers computed once per key and version and shared by every caller, also while still in
 * flight: opening a session asks for its row, data, summary and findings at once, and each would
 * otherwise start the same read or diagnosis again.
 * - A newer version of a key replaces the older one (a session re-imported, or grown while recording).
 * - A rejected answer is dropped, so asking again computes it again; a failure is never kept.
 * - At most `max` keys, the least recently used dropped first (lru.ts).
 */
import { Lru } from './lru.js';

export class PromiseCache<K, V> {
  private readonly entries: Lru<K, { version: string; value: Promise<V> }>;

  constructor(max = Number.POSITIVE_INFINITY) {
    this.entries = new Lru(max);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The answer for `key` at `version`: the one held, or `compute()`'s, kept from now on. */
  get(key: K, version: string, compute: () => Promise<V>): Promise<V> {
    const held = this.entries.get(key);
    if (held !== undefined && held.version === version) return held.value;
    const mine = { version, value: compute() };
    this.entries.set(key, mine);
    mine.value.catch(() => {
      if (this.entries.peek(key) === mine) this.entries.delete(key);
    });
    return mine.value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Drops every key `which` picks (e.g. all of one session's ranges). */
  deleteWhere(which: (key: K) => boolean): void {
    for (const k of [...this.entries.keys()]) if (which(k)) this.entries.delete(k);
  }
}
