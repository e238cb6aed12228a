/**
 * The WebSocket bridge's encoding: JSON, with typed arrays carried as base64 of their bytes (so a
 * 100 000-GC series crosses as compact binary, not as long decimal lists) and bigint as strings.
 * Pure and used on both ends: Node and the browser.
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

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000) as unknown as number[]);
  return btoa(s);
}

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return v.toString();
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      const name = v.constructor.name as CtorName;
      if (name in CTORS) return { $ta: name, b: toBase64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
    }
    return v;
  });
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object' && '$ta' in v && 'b' in v) {
      const { $ta, b } = v as { $ta: CtorName; b: string };
      const C = CTORS[$ta];
      if (C !== undefined) {
        const bytes = fromBase64(b);
        return new C(bytes.buffer as ArrayBuffer, 0, bytes.byteLength / C.BYTES_PER_ELEMENT);
      }
    }
    return v;
  });
}
