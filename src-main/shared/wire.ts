/**
 * The WebSocket bridge's frame format (binary WebSocket messages, both directions):
 *
 *   u32 LE  header length H
 *   H bytes UTF-8 JSON header: the message, with each typed array replaced by
 *           {"$ta": "Float64Array", "o": offset, "n": element count} and bigint as a string
 *   padding to a multiple of 8
 *   data    the typed arrays' bytes, each starting at a multiple of 8 (offsets are relative to
 *           the start of this section)
 *
 * A typed array whose elements are all the same bits may be sent as one element and a count:
 * {"$ta": …, "o": offset of that element, "n": count, "fill": 1}. Many of a session's columns are
 * (a trace without per-heap history has no survival or moved bytes: NaN for every GC; a
 * workstation GC always has one heap), and 100,000 GCs carry 400 KB per such column. Only the
 * service's answers use it (encodeWire's `fill` option), and a decoder caps what fills may
 * allocate (`maxFillBytes`): the service accepts none in requests.
 *
 * Likewise an integer array whose elements go up (or down) by the same step, as a session's row
 * indexes and GC numbers do, is sent as its first element and the step:
 * {"$ta": …, "o": offset of that element, "n": count, "step": k}. Its decoded elements are
 * first + i × k; it counts against the same budget.
 *
 * A 100 000-GC series is ~10 MB of typed arrays: shipping them as raw bytes (instead of base64 in
 * JSON) saves a third of the size and the encode/decode passes, and the receiver views them in
 * place without copying. Pure and used on both ends: Node and the browser.
 */

const CTORS = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
} as const;
type CtorName = keyof typeof CTORS;

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

const align8 = (n: number): number => (n + 7) & ~7;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Arrays shorter than this are sent whole even when constant: the header entry costs as much. */
const FILL_MIN = 64;

/** Whether every element of `v` has the bits of its first (compared as unsigned integers of the element's width). */
function isConstant(v: ArrayBufferView, width: number, n: number): boolean {
  if (n < FILL_MIN) return false;
  // Every supported array's byteOffset is a multiple of its element size (so of 4 for 8-byte ones).
  const words =
    width === 1
      ? new Uint8Array(v.buffer, v.byteOffset, n)
      : width === 2
        ? new Uint16Array(v.buffer, v.byteOffset, n)
        : new Uint32Array(v.buffer, v.byteOffset, (n * width) / 4);
  const step = width === 8 ? 2 : 1;
  for (let k = step; k < words.length; k += step) {
    if (words[k] !== words[0] || (step === 2 && words[k + 1] !== words[1])) return false;
  }
  return true;
}

const INTEGER_ARRAYS = new Set<CtorName>(['Int32Array', 'Uint32Array', 'Int16Array', 'Uint16Array', 'Int8Array', 'Uint8Array']);

/** The common difference of an integer array's elements (not 0: that is a fill), or undefined. */
function stepOf(v: ArrayLike<number>, n: number): number | undefined {
  if (n < FILL_MIN) return undefined;
  const k = v[1]! - v[0]!;
  if (k === 0) return undefined;
  for (let i = 2; i < n; i++) if (v[i]! - v[i - 1]! !== k) return undefined;
  return k;
}

export function encodeWire(value: unknown, options: { fill?: boolean } = {}): Uint8Array {
  const arrays: Uint8Array[] = [];
  const offsets: number[] = [];
  let dataLength = 0;
  const header =
    JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
        const name = v.constructor.name as CtorName;
        if (name in CTORS) {
          const n = (v as unknown as ArrayLike<number>).length;
          const width = CTORS[name].BYTES_PER_ELEMENT;
          const fill = options.fill === true && isConstant(v, width, n);
          const step = options.fill === true && !fill && INTEGER_ARRAYS.has(name) ? stepOf(v as unknown as ArrayLike<number>, n) : undefined;
          const bytes = new Uint8Array(v.buffer, v.byteOffset, fill || step !== undefined ? width : v.byteLength);
          const o = dataLength;
          arrays.push(bytes);
          offsets.push(o);
          dataLength = align8(o + bytes.byteLength);
          return fill ? { $ta: name, o, n, fill: 1 } : step !== undefined ? { $ta: name, o, n, step } : { $ta: name, o, n };
        }
      }
      return v;
    }) ?? 'null';
  const h = utf8.encode(header);
  const dataStart = align8(4 + h.byteLength);
  const out = new Uint8Array(dataStart + dataLength);
  new DataView(out.buffer).setUint32(0, h.byteLength, true);
  out.set(h, 4);
  arrays.forEach((a, i) => out.set(a, dataStart + offsets[i]!));
  return out;
}

/**
 * Decodes a frame; typed arrays are views into it (a filled one is a new array). Throws WireError
 * on a malformed frame, and on fills that would allocate more than `maxFillBytes` in all.
 */
export function decodeWire(frame: ArrayBuffer | Uint8Array, options: { maxFillBytes?: number } = {}): unknown {
  let fillBudget = options.maxFillBytes ?? 1 << 30;
  let bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame);
  // Views need 8-byte alignment of the frame itself (Node's pooled Buffers may not have it).
  // A copy: a Buffer's own slice() would be a view at the same offset.
  if (bytes.byteOffset % 8 !== 0) bytes = Uint8Array.prototype.slice.call(bytes);
  if (bytes.byteLength < 4) throw new WireError('frame shorter than its header length');
  const h = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  if (4 + h > bytes.byteLength) throw new WireError(`header of ${h} bytes does not fit in a ${bytes.byteLength}-byte frame`);
  let header: string;
  try {
    header = utf8Decoder.decode(bytes.subarray(4, 4 + h));
  } catch {
    throw new WireError('header is not UTF-8');
  }
  const dataStart = align8(4 + h);
  const dataLength = Math.max(0, bytes.byteLength - dataStart);
  try {
    // A reviver is called for every value: a live batch (GC records, no typed array) parses
    // several times faster without one.
    if (!header.includes('"$ta"')) return JSON.parse(header) as unknown;
    return JSON.parse(header, (_k, v: unknown) => {
      if (v !== null && typeof v === 'object' && '$ta' in v) {
        const { $ta, o, n, fill, step } = v as { $ta: CtorName; o: unknown; n: unknown; fill?: unknown; step?: unknown };
        const C = Object.hasOwn(CTORS, $ta) ? CTORS[$ta] : undefined;
        const stepped = step !== undefined;
        if (C === undefined || !Number.isInteger(o) || !Number.isInteger(n) || (fill !== undefined && fill !== 1))
          throw new WireError('bad typed-array reference');
        if (stepped && (fill !== undefined || !Number.isInteger(step) || step === 0 || !INTEGER_ARRAYS.has($ta))) throw new WireError('bad typed-array step');
        const off = o as number;
        const len = n as number;
        const stored = fill === 1 || stepped ? 1 : len;
        if (off < 0 || len < 0 || off % 8 !== 0 || off + stored * C.BYTES_PER_ELEMENT > dataLength)
          throw new WireError(`typed array at ${off} (${len} elements) is outside the frame`);
        const at = new C(bytes.buffer as ArrayBuffer, bytes.byteOffset + dataStart + off, stored);
        if (fill !== 1 && !stepped) return at;
        fillBudget -= len * C.BYTES_PER_ELEMENT;
        if (fillBudget < 0) throw new WireError(`filled typed arrays of more than ${options.maxFillBytes ?? 1 << 30} bytes`);
        const out = new C(len);
        if (!stepped) return out.fill(at[0]!);
        const first = at[0]!;
        const k = step as number;
        for (let i = 0; i < len; i++) out[i] = first + i * k;
        return out;
      }
      return v;
    });
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError(`header is not JSON: ${(e as Error).message}`);
  }
}
