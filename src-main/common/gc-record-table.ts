/**
 * GcRecords held compactly: one row of doubles per GC instead of an object per GC. A GcRecord
 * object costs ~1.8 KB in V8 (each of its ~75 numbers a boxed heap number, seven small arrays); a
 * row costs 8 bytes per number. `report FILE` on a 1 GB trace keeps 64,000 GCs until the report
 * is written: 114 MB of objects, 45 MB of rows.
 *
 * The layout is taken from the first record: its keys in order (so a record built back has the
 * same key order, and the same JSON text), and per key a kind — number or null (null stored as
 * NaN: records never hold NaN, to-record.ts makes it null), boolean or null, string, or an array
 * of numbers/null of a fixed length. A record that does not fit the layout (another key order, a
 * NaN, an array of another length) is kept as it is, so what comes back always equals what went in.
 * Pure; no I/O.
 */
import type { GcRecord } from '../shared/gc-column-registry.js';
import { grown } from '../shared/grown.js';

const enum Kind {
  Number,
  Boolean,
  String,
  Array,
}

interface Slot {
  key: string;
  kind: Kind;
  /** First column of the row. */
  at: number;
  /** Array: its length. */
  length: number;
}

interface Layout {
  slots: Slot[];
  width: number;
}

function layoutOf(r: GcRecord): Layout | undefined {
  const slots: Slot[] = [];
  let width = 0;
  for (const [key, v] of Object.entries(r)) {
    let kind: Kind;
    let length = 1;
    if (typeof v === 'number' || v === null) kind = Kind.Number;
    else if (typeof v === 'boolean') kind = Kind.Boolean;
    else if (typeof v === 'string') kind = Kind.String;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'number' || x === null)) {
      kind = Kind.Array;
      length = v.length;
    } else return undefined;
    slots.push({ key, kind, at: width, length });
    width += kind === Kind.String ? 0 : length;
  }
  return { slots, width };
}

export class GcRecordTable {
  private layout: Layout | undefined;
  private shape: Record<string, unknown> = {};
  private data = new Float64Array(0);
  private count = 0;
  /** String fields, per row (a GC's generation name: a handful of distinct strings, shared). */
  private readonly strings: string[][] = [];
  /** Rows that did not fit the layout, kept as given. */
  private readonly odd = new Map<number, GcRecord>();

  get length(): number {
    return this.count;
  }

  /** Stores the record of row `i` (a later set of the same row replaces it). */
  set(i: number, r: GcRecord): void {
    if (this.layout === undefined) {
      this.layout = layoutOf(r) ?? { slots: [], width: 0 };
      this.shape = { ...r };
    }
    const { slots, width } = this.layout;
    if (i >= this.count) this.grow(i + 1);
    if (width === 0 || !this.write(i, r, slots, width)) this.odd.set(i, r);
    else this.odd.delete(i);
  }

  /** The record of row `i`, built anew (equal to what was stored, not the same object). */
  get(i: number): GcRecord {
    if (i < 0 || i >= this.count) throw new RangeError(`GC row ${i} of ${this.count}`);
    const o = this.odd.get(i);
    if (o !== undefined) return o;
    const { slots, width } = this.layout!;
    const d = this.data;
    const base = i * width;
    // A copy of the first record, every value then replaced: the object keeps that record's
    // shape (built key by key, one over 50 keys turns V8's object into a slow dictionary).
    const out: Record<string, unknown> = { ...this.shape };
    let s = 0;
    for (const slot of slots) {
      const at = base + slot.at;
      switch (slot.kind) {
        case Kind.Number:
          out[slot.key] = numberOrNull(d[at]!);
          break;
        case Kind.Boolean:
          out[slot.key] = Number.isNaN(d[at]!) ? null : d[at] === 1;
          break;
        case Kind.String:
          out[slot.key] = this.strings[s++]![i];
          break;
        case Kind.Array: {
          const a = new Array<number | null>(slot.length);
          for (let k = 0; k < slot.length; k++) a[k] = numberOrNull(d[at + k]!);
          out[slot.key] = a;
          break;
        }
      }
    }
    return out as unknown as GcRecord;
  }

  /**
   * The rows as a read-only array of records: indexing, `length`, iteration and every array
   * method work as on the array of records it stands for, each element built when read (about a
   * microsecond). What reports and renderers take, without holding every record at once.
   */
  asArray(): readonly GcRecord[] {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const table = this;
    const index = (p: string | symbol): number => (typeof p === 'string' && /^(0|[1-9][0-9]*)$/.test(p) ? Number(p) : -1);
    return new Proxy<GcRecord[]>([], {
      get(target, p, receiver) {
        if (p === 'length') return table.count;
        const i = index(p);
        if (i >= 0) return i < table.count ? table.get(i) : undefined;
        return Reflect.get(target, p, receiver) as unknown;
      },
      has(target, p) {
        const i = index(p);
        return i >= 0 ? i < table.count : Reflect.has(target, p);
      },
      getOwnPropertyDescriptor(target, p) {
        const i = index(p);
        if (i >= 0) return i < table.count ? { value: table.get(i), writable: false, enumerable: true, configurable: true } : undefined;
        if (p === 'length') return { value: table.count, writable: true, enumerable: false, configurable: false };
        return Reflect.getOwnPropertyDescriptor(target, p);
      },
      ownKeys() {
        return [...Array.from({ length: table.count }, (_, i) => String(i)), 'length'];
      },
      set() {
        throw new TypeError('the GC rows of a report are read-only');
      },
      defineProperty() {
        throw new TypeError('the GC rows of a report are read-only');
      },
      deleteProperty() {
        throw new TypeError('the GC rows of a report are read-only');
      },
    });
  }

  private write(i: number, r: GcRecord, slots: Slot[], width: number): boolean {
    const d = this.data;
    const base = i * width;
    let j = 0;
    let s = 0;
    // Same keys in the same order, each of its slot's kind.
    for (const key in r) {
      const slot = slots[j++];
      if (slot === undefined || slot.key !== key) return false;
      const v = (r as unknown as Record<string, unknown>)[key];
      const at = base + slot.at;
      switch (slot.kind) {
        case Kind.Number:
          if (v === null) d[at] = Number.NaN;
          else if (typeof v === 'number' && !Number.isNaN(v)) d[at] = v;
          else return false;
          break;
        case Kind.Boolean:
          if (v === null) d[at] = Number.NaN;
          else if (typeof v === 'boolean') d[at] = v ? 1 : 0;
          else return false;
          break;
        case Kind.String:
          if (typeof v !== 'string') return false;
          (this.strings[s++] ??= [])[i] = this.intern(v);
          break;
        case Kind.Array: {
          if (!Array.isArray(v) || v.length !== slot.length) return false;
          for (let k = 0; k < slot.length; k++) {
            const x: unknown = v[k];
            if (x === null) d[at + k] = Number.NaN;
            else if (typeof x === 'number' && !Number.isNaN(x)) d[at + k] = x;
            else return false;
          }
          break;
        }
      }
    }
    return j === slots.length;
  }

  /** One copy of each distinct string (generation names: 0N, 1N, 2B…). */
  private readonly interned = new Map<string, string>();

  private intern(v: string): string {
    const x = this.interned.get(v);
    if (x !== undefined) return x;
    if (this.interned.size < 1024) this.interned.set(v, v);
    return v;
  }

  private grow(rows: number): void {
    const width = this.layout!.width;
    if (rows * width > this.data.length) {
      this.data = grown(this.data, Math.max(rows * width, this.data.length * 2, 64 * width));
    }
    // Rows not yet set read as all-null until set (callers fill every row).
    this.data.fill(Number.NaN, this.count * width, rows * width);
    this.count = rows;
  }
}

function numberOrNull(x: number): number | null {
  return Number.isNaN(x) ? null : x;
}
