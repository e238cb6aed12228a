/**
 * A made-up trace format, to show that a format is one reader module plus one registration line
 * (pluggable.test.ts): a text file that starts with `TOYTRACE <pid> <cpus>`, then one event per
 * line, `<ms> <thread> <event> <field>…`, where the event is a runtime GC event by its
 * TraceEvent name and the fields are its payload's integers in the CLR's layout order. The reader
 * turns each line into the format-neutral record (trace/model.ts) with the payload bytes the GC
 * analysis decodes, exactly as it does for a NetTrace file.
 */
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import type { ReaderState, TraceEventRecord, TraceInfo } from '../../src-main/trace/model.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers } from '../../src-main/trace/reader.js';
import { sniffMagic, TOY_EVENTS, ToyLines, ToyMetadata, toyPayload } from '../helpers/toy-events.js';

const MAGIC = 'TOYTRACE ';

class ToyReader implements TraceReader {
  state: ReaderState = 'reading';
  error: TraceDecodeError | undefined;
  trace: TraceInfo | undefined;
  eventCount = 0;
  droppedEvents = 0;
  blockCounts: Record<string, number> = {};
  releasedBefore = 0;
  private readonly lines = new ToyLines((l) => this.line(l));
  private readonly metadata: ToyMetadata;

  constructor(private readonly handlers: TraceReaderHandlers) {
    this.metadata = new ToyMetadata(handlers.onMetadata);
  }

  get formatName(): string {
    return this.trace === undefined ? 'unknown' : 'Toy V1';
  }

  get offset(): number {
    return this.lines.offset;
  }

  push(chunk: Uint8Array): void {
    this.lines.push(chunk);
  }

  end(): void {
    if (this.state !== 'reading') return;
    this.lines.end();
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
    const layout = TOY_EVENTS[name!];
    if (layout === undefined) {
      this.state = 'failed';
      this.error = new TraceDecodeError('bad-event', this.offset, `unknown toy event "${name}"`);
      throw this.error;
    }
    const bytes = toyPayload(layout.fields, values);
    const e: TraceEventRecord = {
      metadata: this.metadata.of(name!, layout),
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
  sniff: (first) => sniffMagic(MAGIC, first),
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
