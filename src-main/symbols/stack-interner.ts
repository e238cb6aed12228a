/**
 * Stack interning: each distinct call stack is kept once (a stack table of frame ids) and each
 * distinct return address once (a frame table), so a session of a million samples whose code
 * paths repeat costs a few thousand stacks. Stack 0 is "no stack". Names are not resolved here:
 * a frame is an address until the method map is asked, which lets methods known only from the
 * rundown at the end of a recording resolve frames seen long before.
 */
export class StackInterner {
  /** Frame id → return address. */
  readonly frameAddresses: number[] = [];
  /** Stack id → frame ids, innermost first (index 0 is the empty "no stack"). */
  readonly stacks: Int32Array[] = [new Int32Array(0)];
  private readonly frameIds = new Map<number, number>();
  /** Hash of a stack's frame ids → the stack ids with that hash. */
  private readonly stackIds = new Map<number, number[]>();

  /** The reader hands the same array for the same stack until a sequence point: its id, remembered. */
  private readonly byArray = new WeakMap<object, number>();
  private lastArray: object | undefined;
  private lastId = 0;

  /** The id of this stack (innermost first), interning it on first sight; 0 for none. */
  intern(addresses: ArrayLike<number> | undefined): number {
    if (addresses === undefined || addresses.length === 0) return 0;
    // Consecutive samples often share a stack: the last array is checked before the WeakMap.
    if (addresses === this.lastArray) return this.lastId;
    let id = this.byArray.get(addresses);
    if (id === undefined) {
      id = this.internNew(addresses);
      this.byArray.set(addresses, id);
    }
    this.lastArray = addresses;
    this.lastId = id;
    return id;
  }

  private internNew(addresses: ArrayLike<number>): number {
    const ids = new Int32Array(addresses.length);
    for (let i = 0; i < addresses.length; i++) {
      const a = addresses[i]!;
      let f = this.frameIds.get(a);
      if (f === undefined) {
        f = this.frameAddresses.length;
        this.frameAddresses.push(a);
        this.frameIds.set(a, f);
      }
      ids[i] = f;
    }
    // FNV-1a over the frame ids: no string built per sample.
    let h = 0x811c9dc5;
    for (let i = 0; i < ids.length; i++) h = Math.imul(h ^ ids[i]!, 0x01000193);
    const bucket = this.stackIds.get(h);
    if (bucket !== undefined) {
      for (const s of bucket) if (sameFrames(this.stacks[s]!, ids)) return s;
    }
    const s = this.stacks.length;
    this.stacks.push(ids);
    if (bucket === undefined) this.stackIds.set(h, [s]);
    else bucket.push(s);
    return s;
  }

  /** Distinct stacks interned. */
  get stackCount(): number {
    return this.stacks.length - 1;
  }
}

function sameFrames(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
