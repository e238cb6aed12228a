/**
 * The one way a typed column grows: a new array of the same type with room for `capacity`
 * elements, the first `keep` of the old one copied in and the rest set to `fill`. Every column
 * that grows as data arrives — a session's columns (gc-column-registry.ts), the compact GC table
 * (gc-record-table.ts), the method map (symbols/), pinned objects (gc/), the live rollup's sorted
 * pauses and the renderer's live series — doubles with this, so none copies, fills or types it
 * differently. Pure: the renderer imports it too.
 */
export type TypedColumn = Float64Array | Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

export function grown<T extends TypedColumn>(a: T, capacity: number, fill?: number, keep = a.length): T {
  const out = new (a.constructor as new (n: number) => T)(capacity);
  out.set(keep === a.length ? a : a.subarray(0, keep));
  if (fill !== undefined && fill !== 0) out.fill(fill, keep);
  return out;
}
