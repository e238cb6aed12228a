/** Decodes bytes through the reader with a chosen chunking and records what came out. */
import { NettraceReader, type ReaderOptions } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord, TraceInfo } from '../../src-main/nettrace/types.js';
import { NettraceError } from '../../src-main/nettrace/errors.js';

export interface Decoded {
  trace: TraceInfo | undefined;
  events: TraceEventRecord[];
  state: string;
  error: NettraceError | undefined;
  dropped: number;
  blocks: { kind: number; start: number; end: number }[];
}

/**
 * A compact, comparable line per event. The payload is identified by its stream offset and size:
 * the same input bytes are compared, so equal offsets mean equal payloads.
 */
export function eventKey(e: TraceEventRecord): string {
  return `${e.metadata.eventId}v${e.metadata.version} t=${e.timestamp} th=${e.threadId} seq=${e.sequenceNumber} @${e.payloadOffset}+${e.payloadSize}`;
}

export function decode(bytes: Uint8Array, chunkSizes: number[] | number = bytes.length, opts: ReaderOptions = {}): Decoded {
  const out: Decoded = { trace: undefined, events: [], state: '', error: undefined, dropped: 0, blocks: [] };
  const r = new NettraceReader(
    {
      onTrace: (t) => (out.trace = t),
      onEvent: (e) => out.events.push(e),
      onBlock: (kind, start, end) => out.blocks.push({ kind, start, end }),
    },
    opts,
  );
  try {
    let pos = 0;
    let i = 0;
    while (pos < bytes.length) {
      const n = typeof chunkSizes === 'number' ? chunkSizes : chunkSizes[i++ % chunkSizes.length]!;
      r.push(bytes.subarray(pos, Math.min(bytes.length, pos + Math.max(1, n))));
      pos += Math.max(1, n);
    }
    r.end();
  } catch (e) {
    if (!(e instanceof NettraceError)) throw e;
  }
  out.state = r.state;
  out.error = r.error;
  out.dropped = r.droppedEvents;
  return out;
}
