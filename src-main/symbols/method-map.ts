/**
 * Address → method: the code ranges the trace's own method events report (MethodLoadVerbose as
 * methods are jitted, MethodDCStartVerbose/DCEndVerbose for every method with code — jitted and
 * ready-to-run — when the session asked for a rundown). TraceEvent's TraceLog resolves EventPipe
 * stacks the same way; nothing outside the trace (no symbol files, no module images) is read.
 *
 * A large process's rundown lists 100,000 methods and more, of which stacks hit a few hundred, so
 * ranges are kept as columns (typed arrays) and names as their raw UTF-16 bytes in 1 MB pages,
 * decoded when a frame first asks. Lookups binary-search an order sorted lazily after additions.
 * A range reported twice (a method's load event and its rundown entry) is kept once. Code ranges
 * of live methods never overlap; when they do (a collectible method unloaded and its memory
 * reused), the later report wins.
 */
import { METHOD_FLAG_JITTED, methodCodeName, type MethodCode, type MethodSource } from '../clr/method-events.js';
import type { TraceEventRecord } from '../trace/model.js';
import { grown } from '../shared/grown.js';

export interface MethodRange {
  start: number;
  /** End, exclusive. */
  end: number;
  /** TraceLog's full name ('' when its event was damaged). */
  name: string;
  moduleId: number;
  /** Ready-to-run (precompiled) code rather than jitted. */
  precompiled: boolean;
  /** Order of arrival: the later of two overlapping ranges wins. */
  seq: number;
}

/** How far back a lookup looks for an overlapping, later range (overlaps are rare and short). */
const LOOK_BACK = 8;

/**
 * Name bytes live in pages of this size (a page is never copied to grow; a method's names come
 * from one event payload, which is far smaller, so they always fit in one page).
 */
const PAGE = 1 << 20;

/**
 * Reads `length` bytes at an absolute stream offset of the trace being read, or undefined when it
 * cannot (the file is gone or changed). Given to a MethodMap reading a trace file, it lets the map
 * keep where a method's name is instead of a copy: a 100,000-method rundown's names are ~30 MB of
 * UTF-16, of which stacks need a few hundred, and copying them cost more than decoding the events.
 */
export type StreamBytes = (offset: number, length: number) => Uint8Array | undefined;

/** nameAt of a name left in the stream (read back through StreamBytes when first asked for). */
const IN_STREAM = -2;

/** Below this many methods, settle sorts with a comparator; above, with a radix sort. */
const RADIX_MIN = 2048;

export class MethodMap {
  private count = 0;
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private modules = new Float64Array(1024);
  private precompiled = new Uint8Array(1024);
  /** Where a method's name bytes are: page × PAGE + offset in the page, or IN_STREAM (unused for a name given decoded, in `names`). */
  private nameAt = new Int32Array(1024);
  private nameLen = new Int32Array(1024);
  private nameBase = new Float64Array(1024);
  private pages: Uint8Array[] = [];
  private pageUsed = PAGE;
  /** Indices sorted by start (then arrival) of the distinct ranges among the first `sortedCount` methods. */
  private order = new Int32Array(0);
  private sortedCount = 0;
  private readonly names = new Map<number, string>();
  /** Method ranges learnt from live load events and from the rundown. */
  loadEvents = 0;
  rundownEvents = 0;

  /** `stream`: where names can be read back from (a trace file); without it they are copied. */
  constructor(private readonly stream?: StreamBytes) {}

  /**
   * Distinct code ranges held. A range reported twice (a load event and the rundown) counts once:
   * duplicates are found when the order is sorted, not per addition (a lookup keyed by start
   * addresses — doubles above 2^31 — boxed two numbers per method of a 100,000-method rundown).
   */
  get size(): number {
    if (this.sortedCount !== this.count) this.settle();
    return this.order.length;
  }

  /** Adds a method's code range from its decoded event (its name kept as given). */
  add(m: MethodCode): void {
    const i = this.push(m.source, m.start, m.size, m.moduleId, m.flags);
    if (i >= 0) this.names.set(i, m.fullName);
  }

  /**
   * Adds the method of a load/unload/rundown event straight from its payload (the layout in
   * clr/method-events.ts), copying its name bytes: what a trace's 100,000-method rundown goes
   * through, so no object is made per event. A payload too short for the fixed fields is skipped.
   */
  addEvent(source: MethodSource, e: TraceEventRecord): void {
    if (e.payloadSize < 36) return;
    const b = e.bytes;
    const o = e.payloadStart;
    const start = u32(b, o + 20) * 4294967296 + u32(b, o + 16);
    const i = this.push(source, start, u32(b, o + 24), u32(b, o + 12) * 4294967296 + u32(b, o + 8), u32(b, o + 32));
    if (i < 0) return;
    if (this.stream === undefined) this.keepNames(i, b, o + 36, e.payloadSize - 36, e.payloadOffset + 36);
    else {
      this.nameAt[i] = IN_STREAM;
      this.nameLen[i] = e.payloadSize - 36;
      this.nameBase[i] = e.payloadOffset + 36;
    }
  }

  private push(source: MethodSource, start: number, size: number, moduleId: number, flags: number): number {
    if (source === 'unload' || size <= 0) return -1;
    if (source === 'load') this.loadEvents++;
    else this.rundownEvents++;
    const i = this.count;
    if (i === this.starts.length) this.grow();
    this.starts[i] = start;
    this.ends[i] = start + size;
    this.modules[i] = moduleId;
    this.precompiled[i] = (flags & METHOD_FLAG_JITTED) === 0 ? 1 : 0;
    this.count++;
    return i;
  }

  private keepNames(i: number, src: Uint8Array, from: number, n: number, streamOffset: number): void {
    if (this.pageUsed + n > PAGE) {
      this.pages.push(new Uint8Array(Math.max(PAGE, n)));
      this.pageUsed = 0;
    }
    const page = this.pages[this.pages.length - 1]!;
    const at = this.pageUsed;
    // A loop, not page.set(src.subarray(…)): for a few hundred bytes, making the view and
    // entering set() cost more than the copy.
    for (let k = 0; k < n; k++) page[at + k] = src[from + k]!;
    this.pageUsed += n;
    this.nameAt[i] = (this.pages.length - 1) * PAGE + at;
    this.nameLen[i] = n;
    this.nameBase[i] = streamOffset;
  }

  /** The method whose code contains `address`, or undefined. */
  find(address: number): MethodRange | undefined {
    if (this.sortedCount !== this.count) this.settle();
    const o = this.order;
    const s = this.starts;
    // Last range starting at or before the address.
    let lo = 0;
    let hi = o.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (s[o[mid]!]! <= address) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    let best = -1;
    for (let k = at; k >= 0 && k > at - LOOK_BACK; k--) {
      const i = o[k]!;
      if (address < this.ends[i]! && i > best) best = i;
    }
    return best < 0 ? undefined : this.range(best);
  }

  private range(i: number): MethodRange {
    let name = this.names.get(i);
    if (name === undefined) {
      const at = this.nameAt[i]!;
      const len = this.nameLen[i]!;
      let bytes: Uint8Array | undefined;
      if (at === IN_STREAM) bytes = this.stream?.(this.nameBase[i]!, len);
      else {
        const from = at % PAGE;
        bytes = this.pages[Math.floor(at / PAGE)]!.subarray(from, from + len);
      }
      name = (bytes === undefined ? undefined : methodCodeName({ names: bytes, namesOffset: this.nameBase[i]! })) ?? '';
      this.names.set(i, name);
    }
    return { start: this.starts[i]!, end: this.ends[i]!, name, moduleId: this.modules[i]!, precompiled: this.precompiled[i] === 1, seq: i };
  }

  private grow(): void {
    const n = this.starts.length * 2;
    const f64 = (a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => grown(a, n);
    const i32 = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => grown(a, n);
    this.starts = f64(this.starts);
    this.ends = f64(this.ends);
    this.modules = f64(this.modules);
    this.nameBase = f64(this.nameBase);
    this.nameAt = i32(this.nameAt);
    this.nameLen = i32(this.nameLen);
    const p = new Uint8Array(n);
    p.set(this.precompiled);
    this.precompiled = p;
  }

  /**
   * Sorts the methods by start address (ties by arrival) and drops a range reported again with
   * the same start and size (the first report is kept, as its name).
   */
  private settle(): void {
    const n = this.count;
    const s = this.starts;
    const sorted = n < RADIX_MIN ? comparatorOrder(s, n) : radixOrder(s, n);
    let w = 0;
    for (let k = 0; k < n; k++) {
      const i = sorted[k]!;
      const start = s[i]!;
      const size = this.ends[i]! - start;
      let dup = false;
      // Earlier kept ranges with the same start sit just before, in arrival order.
      for (let j = w - 1; j >= 0 && s[sorted[j]!] === start; j--) {
        if (this.ends[sorted[j]!]! - start === size) {
          dup = true;
          break;
        }
      }
      if (!dup) sorted[w++] = i;
    }
    this.order = sorted.slice(0, w);
    this.sortedCount = n;
  }
}

function u32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function comparatorOrder(s: Float64Array, n: number): Int32Array {
  const o = new Int32Array(n);
  for (let i = 0; i < n; i++) o[i] = i;
  return o.sort((a, b) => s[a]! - s[b]! || a - b);
}

/**
 * Indices 0..n−1 ordered by key, ties in index order: a stable LSD radix sort over the keys' IEEE
 * bits, four 16-bit digits, low to high (a non-negative double's bit pattern orders as its value;
 * code addresses are unsigned). A pass whose digit is the same for every key is skipped. For a
 * 100,000-method rundown this is ~20× faster than Int32Array.sort with a comparator.
 */
function radixOrder(keys: Float64Array, n: number): Int32Array {
  const bits = new Uint32Array(keys.buffer, keys.byteOffset, n * 2);
  let from = new Int32Array(n);
  let to = new Int32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  const counts = new Int32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1; // 0: low 32 bits, 1: high 32 bits (little-endian doubles)
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(bits[2 * i + word]! >>> shift) & 0xffff]!++;
    if (counts[(bits[word]! >>> shift) & 0xffff] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let k = 0; k < n; k++) {
      const i = from[k]!;
      to[counts[(bits[2 * i + word]! >>> shift) & 0xffff]!++] = i;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}
