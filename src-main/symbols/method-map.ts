/**
 * Address → method: the code ranges the trace's own method events report (MethodLoadVerbose as
 * methods are jitted, MethodDCStartVerbose/DCEndVerbose for every method with code — jitted and
 * ready-to-run — when the session asked for a rundown). TraceEvent's TraceLog resolves EventPipe
 * stacks the same way; nothing outside the trace (no symbol files, no module images) is read.
 *
 * A large process's rundown lists 100,000 methods and more, of which stacks hit a few hundred, so
 * ranges are kept as columns (typed arrays) and names as their raw UTF-16 bytes in one arena,
 * decoded when a frame first asks. Lookups binary-search an order sorted lazily after additions.
 * A range reported twice (a method's load event and its rundown entry) is kept once. Code ranges
 * of live methods never overlap; when they do (a collectible method unloaded and its memory
 * reused), the later report wins.
 */
import { METHOD_FLAG_JITTED, methodCodeName, type LazyMethodCode, type MethodCode } from '../clr/method-events.js';

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

export class MethodMap {
  private count = 0;
  private starts = new Float64Array(1024);
  private ends = new Float64Array(1024);
  private modules = new Float64Array(1024);
  private precompiled = new Uint8Array(1024);
  private nameAt = new Int32Array(1024);
  private nameLen = new Int32Array(1024);
  private nameBase = new Float64Array(1024);
  private arena = new Uint8Array(64 * 1024);
  private arenaUsed = 0;
  /** Indices sorted by start (then arrival) for the first `sortedCount` methods. */
  private order = new Int32Array(0);
  private sortedCount = 0;
  private readonly names = new Map<number, string>();
  /** start → index of the method(s) seen there (dedup of load + rundown). */
  private readonly seen = new Map<number, number | number[]>();
  /** Method ranges learnt from live load events and from the rundown. */
  loadEvents = 0;
  rundownEvents = 0;

  get size(): number {
    return this.count;
  }

  /** Adds a method's code range (its name bytes are copied; decoded when first asked for). */
  add(m: MethodCode | LazyMethodCode): void {
    if (m.source === 'unload' || m.size <= 0) return;
    if (m.source === 'load') this.loadEvents++;
    else this.rundownEvents++;
    const prior = this.seen.get(m.start);
    if (prior !== undefined) {
      for (const i of typeof prior === 'number' ? [prior] : prior) if (this.ends[i]! - this.starts[i]! === m.size) return;
    }
    const i = this.count;
    if (i === this.starts.length) this.grow();
    this.starts[i] = m.start;
    this.ends[i] = m.start + m.size;
    this.modules[i] = m.moduleId;
    this.precompiled[i] = (m.flags & METHOD_FLAG_JITTED) === 0 ? 1 : 0;
    if ('fullName' in m) {
      this.names.set(i, m.fullName);
      this.nameLen[i] = 0;
    } else {
      const n = m.names.length;
      if (this.arenaUsed + n > this.arena.length) {
        const a = new Uint8Array(Math.max(this.arena.length * 2, this.arenaUsed + n));
        a.set(this.arena.subarray(0, this.arenaUsed));
        this.arena = a;
      }
      this.arena.set(m.names, this.arenaUsed);
      this.nameAt[i] = this.arenaUsed;
      this.nameLen[i] = n;
      this.nameBase[i] = m.namesOffset;
      this.arenaUsed += n;
    }
    this.count++;
    this.seen.set(m.start, prior === undefined ? i : typeof prior === 'number' ? [prior, i] : [...prior, i]);
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
      name = methodCodeName({ names: this.arena.subarray(this.nameAt[i]!, this.nameAt[i]! + this.nameLen[i]!), namesOffset: this.nameBase[i]! }) ?? '';
      this.names.set(i, name);
    }
    return { start: this.starts[i]!, end: this.ends[i]!, name, moduleId: this.modules[i]!, precompiled: this.precompiled[i] === 1, seq: i };
  }

  private grow(): void {
    const n = this.starts.length * 2;
    const f64 = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
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

  private settle(): void {
    const s = this.starts;
    const o = new Int32Array(this.count);
    for (let i = 0; i < o.length; i++) o[i] = i;
    o.sort((a, b) => s[a]! - s[b]! || a - b);
    this.order = o;
    this.sortedCount = this.count;
  }
}
