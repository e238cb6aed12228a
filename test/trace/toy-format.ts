/**
 * A made-up trace format, to show that a format is one reader module plus one registration line
 * (pluggable.test.ts): a text file that starts with `TOYTRACE <pid> <cpus>`, then one event per
 * line, `<ms> <thread> <event> <field>…`, where the event is a runtime GC event by its
 * TraceEvent name and the fields are its payload's integers in the CLR's layout order. The reader
 * turns each line into the format-neutral record (trace/model.ts) with the payload bytes the GC
 * analysis decodes, exactly as it does for a NetTrace file.
 */
import { RUNTIME } from '../../src-main/clr/gc-events.js';
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import type { EventMetadata, ReaderState, TraceEventRecord, TraceInfo } from '../../src-main/trace/model.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers } from '../../src-main/trace/reader.js';

/** The runtime events the toy format knows: event id, version and field widths (bytes). */
const EVENTS: Record<string, { id: number; version: number; fields: number[] }> = {
  SuspendEEBegin: { id: 9, version: 1, fields: [4, 4] },
  SuspendEEEnd: { id: 8, version: 1, fields: [] },
  GCStart: { id: 1, version: 1, fields: [4, 4, 4, 4] },
  GCEnd: { id: 2, version: 1, fields: [4, 4] },
  HeapStats: { id: 4, version: 1, fields: [8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4] },
  RestartEEBegin: { id: 7, version: 1, fields: [] },
  RestartEEEnd: { id: 3, version: 1, fields: [] },
};

const MAGIC = 'TOYTRACE ';

class ToyReader implements TraceReader {
  state: ReaderState = 'reading';
  error: TraceDecodeError | undefined;
  trace: TraceInfo | undefined;
  eventCount = 0;
  droppedEvents = 0;
  blockCounts: Record<string, number> = {};
  offset = 0;
  releasedBefore = 0;
  private text = '';
  private readonly decoder = new TextDecoder();
  private readonly metadata = new Map<string, EventMetadata>();

  constructor(private readonly handlers: TraceReaderHandlers) {}

  get formatName(): string {
    return this.trace === undefined ? 'unknown' : 'Toy V1';
  }

  push(chunk: Uint8Array): void {
    this.text += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.text.indexOf('\n')) >= 0) {
      this.line(this.text.slice(0, nl));
      this.offset += nl + 1;
      this.text = this.text.slice(nl + 1);
    }
  }

  end(): void {
    if (this.state !== 'reading') return;
    if (this.text.trim() !== '') this.line(this.text);
    this.state = this.trace !== undefined ? 'complete' : 'truncated';
    if (this.trace === undefined) this.error = new TraceDecodeError('truncated', this.offset, 'no TOYTRACE header');
  }

  eventStack(): Float64Array | undefined {
    return undefined;
  }

  private line(s: string): void {
    const w = s.trim().split(/\s+/);
    if (this.trace === undefined) {
      this.trace = {
        format: 'Toy',
        formatVersion: 1,
        formatMinorVersion: 0,
        syncTimeUtc: '2026-01-01T00:00:00.000Z',
        syncTimeUnixMs: Date.UTC(2026, 0, 1),
        syncTimeQpc: '0',
        qpcFrequency: 1000,
        pointerSize: 8,
        processId: Number(w[1]),
        numberOfProcessors: Number(w[2]),
        expectedCpuSamplingRate: 0,
        keyValues: {},
      };
      this.handlers.onTrace?.(this.trace);
      return;
    }
    const [ms, thread, name, ...values] = w;
    const layout = EVENTS[name!];
    if (layout === undefined) {
      this.state = 'failed';
      this.error = new TraceDecodeError('bad-event', this.offset, `unknown toy event "${name}"`);
      throw this.error;
    }
    let md = this.metadata.get(name!);
    if (md === undefined) {
      md = {
        id: this.metadata.size + 1,
        provider: RUNTIME,
        eventId: layout.id,
        eventName: name!,
        keywords: 1n,
        version: layout.version,
        level: 4,
        opcode: undefined,
        fields: [],
        hasV5Tags: false,
      };
      this.metadata.set(name!, md);
      this.handlers.onMetadata?.(md);
    }
    const bytes = new Uint8Array(layout.fields.reduce((a, b) => a + b, 0));
    const view = new DataView(bytes.buffer);
    let at = 0;
    layout.fields.forEach((width, i) => {
      const v = Number(values[i] ?? 0);
      if (width === 8) view.setBigUint64(at, BigInt(v), true);
      else view.setUint32(at, v, true);
      at += width;
    });
    const e: TraceEventRecord = {
      metadata: md,
      timestamp: Number(ms),
      threadId: Number(thread),
      captureThreadId: Number(thread),
      processorNumber: 0,
      sequenceNumber: this.eventCount,
      stackId: 0,
      processId: this.trace.processId,
      activityId: undefined,
      bytes,
      payloadStart: 0,
      payloadSize: bytes.length,
      payloadOffset: this.offset,
    };
    this.eventCount++;
    this.handlers.onEvent?.(e);
  }
}

export const TOY_FORMAT: TraceFormat = {
  name: 'Toy',
  extensions: ['.toy'],
  sniff(first) {
    const n = Math.min(first.length, MAGIC.length);
    for (let i = 0; i < n; i++) if (first[i] !== MAGIC.charCodeAt(i)) return 'no';
    return n === MAGIC.length ? 'yes' : 'more';
  },
  create: (handlers) => new ToyReader(handlers),
};

/** A toy trace of `n` gen0 GCs, 10 ms apart, each a 2 ms pause. */
export function toyTrace(n: number): string {
  const lines = ['TOYTRACE 4242 4'];
  for (let i = 1; i <= n; i++) {
    const t = i * 10;
    lines.push(
      `${t} 7 SuspendEEBegin 1 ${i}`,
      `${t + 0.2} 7 SuspendEEEnd`,
      `${t + 0.3} 7 GCStart ${i} 0 0 0`,
      `${t + 1.5} 7 GCEnd ${i} 0`,
      `${t + 1.6} 7 HeapStats ${1e6 * i} 0 2000000 100000 3000000 0 400000 0 0 0 0 0 5`,
      `${t + 1.8} 7 RestartEEBegin`,
      `${t + 2} 7 RestartEEEnd`,
    );
  }
  return lines.join('\n') + '\n';
}
