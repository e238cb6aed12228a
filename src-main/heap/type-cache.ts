/**
 * Type names kept across heap walks of one process (heap-snapshots.md §9.2). The runtime logs a
 * type's BulkType once per "type-keyword epoch": while any session keeps the Type keyword enabled
 * (a recording of the process does), a second walk names only types it has not named before, and
 * the type-table flush cannot end the epoch. So the table each walk describes is kept here, by
 * runtime instance (pid + the runtime's cookie, so a new process with a recycled pid starts
 * empty), and a later walk names from it the types it was not told. Type ids are MethodTable
 * addresses, stable for the runtime's life except in collectible assemblies (unloaded then
 * reused: a rare stale name, which the walk's own BulkType overrides whenever it has one).
 */
import type { KnownType, KnownTypes } from './heap-walk.js';

/** The key of one runtime instance. */
export function runtimeKey(processId: number, runtimeCookie: string): string {
  return `${processId}/${runtimeCookie}`;
}

export class HeapTypeCache {
  private readonly byRuntime = new Map<string, Map<number, KnownType>>();

  /** `maxRuntimes`: processes remembered, the least recently used forgotten first. */
  constructor(private readonly maxRuntimes = 16) {}

  /** What earlier walks of this runtime named (undefined before its first walk). */
  typesOf(key: string): KnownTypes | undefined {
    const t = this.byRuntime.get(key);
    if (t !== undefined) {
      this.byRuntime.delete(key);
      this.byRuntime.set(key, t);
    }
    return t;
  }

  /** Adds what one walk named (a later walk's name for a type id replaces an earlier one). */
  remember(key: string, described: ReadonlyMap<number, KnownType>): void {
    let t = this.byRuntime.get(key);
    if (t === undefined) t = new Map();
    else this.byRuntime.delete(key);
    this.byRuntime.set(key, t);
    for (const [id, type] of described) t.set(id, type);
    while (this.byRuntime.size > this.maxRuntimes) this.byRuntime.delete(this.byRuntime.keys().next().value!);
  }
}
