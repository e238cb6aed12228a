/**
 * NetPerf/NetTrace as one entry of the format list (trace/reader.ts TraceFormat): recognized by
 * its first bytes — `"Nettrace"` (NetTrace V4–V6) or the FastSerialization header
 * `i32 20 "!FastSerialization.1"` (NetPerf V3, and the NetPerf V1/V2 that reader.ts refuses by
 * version) — and read by NettraceReader.
 */
import type { SniffResult, TraceFormat } from '../trace/reader.js';
import { NettraceReader } from './reader.js';

const NETTRACE = [0x4e, 0x65, 0x74, 0x74, 0x72, 0x61, 0x63, 0x65];
const FAST_SERIALIZATION = [20, 0, 0, 0, ...[...'!FastSerialization.1'].map((c) => c.charCodeAt(0))];

/** 'yes' when `first` starts with `sig`, 'more' while it is a shorter prefix of it, else 'no'. */
function prefixOf(first: Uint8Array, sig: readonly number[]): SniffResult {
  const n = Math.min(first.length, sig.length);
  for (let i = 0; i < n; i++) if (first[i] !== sig[i]) return 'no';
  return n === sig.length ? 'yes' : 'more';
}

export const NETTRACE_FORMAT: TraceFormat = {
  name: 'NetTrace',
  extensions: ['.nettrace', '.netperf'],
  sniff(first) {
    const a = prefixOf(first, NETTRACE);
    const b = prefixOf(first, FAST_SERIALIZATION);
    return a === 'yes' || b === 'yes' ? 'yes' : a === 'more' || b === 'more' ? 'more' : 'no';
  },
  create: (handlers, options) => new NettraceReader(handlers, options),
};
