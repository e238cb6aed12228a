/**
 * Format detection by content: a reader that holds the stream's first bytes until one of the
 * known formats recognizes them (TraceFormat.sniff), then hands them and everything after to that
 * format's reader. Files, zip entries and live streams all go through it, so what a stream is
 * never depends on a file name. The chosen reader sees the stream from its first byte, so its
 * offsets (errors, blocks) are the stream's.
 *
 * A stream no format recognizes fails with 'bad-magic' at offset 0 and a message saying what the
 * bytes look like (looks-like.ts) and what GCScope reads. A stream that ends while its bytes are
 * still a prefix of some format's signature (an empty or cut-short file) goes to that format's
 * reader, which calls it truncated, as it would a trace cut anywhere else. Pure.
 */
import { TraceDecodeError } from './errors.js';
import { looksLike } from './looks-like.js';
import type { ReaderState, TraceEventRecord, TraceInfo, TraceImage, TraceProcess } from './model.js';
import type { TraceFormat, TraceReader, TraceReaderHandlers, TraceReaderOptions } from './reader.js';

const NO_BLOCKS: Record<string, number> = {};

export class DetectingReader implements TraceReader {
  /** The format's reader, once the first bytes told which. */
  private inner: TraceReader | undefined;
  /** Bytes pushed before the format was known. */
  private pending: Uint8Array[] = [];
  private failure: TraceDecodeError | undefined;

  constructor(
    private readonly formats: readonly TraceFormat[],
    private readonly handlers: TraceReaderHandlers,
    private readonly options: TraceReaderOptions = {},
  ) {}

  /** The format recognized, once it is. */
  get format(): TraceFormat | undefined {
    return this.chosen;
  }
  private chosen: TraceFormat | undefined;

  get state(): ReaderState {
    return this.inner?.state ?? (this.failure !== undefined ? 'failed' : 'reading');
  }
  get error(): TraceDecodeError | undefined {
    return this.inner?.error ?? this.failure;
  }
  get trace(): TraceInfo | undefined {
    return this.inner?.trace;
  }
  get eventCount(): number {
    return this.inner?.eventCount ?? 0;
  }
  get droppedEvents(): number {
    return this.inner?.droppedEvents ?? 0;
  }
  get formatName(): string {
    return this.inner?.formatName ?? 'unknown';
  }
  get blockCounts(): Record<string, number> {
    return this.inner?.blockCounts ?? NO_BLOCKS;
  }
  get offset(): number {
    return this.inner?.offset ?? 0;
  }
  get releasedBefore(): number {
    return this.inner?.releasedBefore ?? 0;
  }
  /** The format's process list (a machine-wide trace); undefined for a one-process format or before the format is known. */
  get processes(): readonly TraceProcess[] | undefined {
    return this.inner?.processes;
  }

  nextFile(): void {
    if (this.inner?.nextFile === undefined)
      throw new TraceDecodeError('bad-magic', this.offset, 'this trace format is read from one file; it has no sibling files to merge');
    this.inner.nextFile();
  }

  imagesOf(processId: number): readonly TraceImage[] {
    return this.inner?.imagesOf?.(processId) ?? [];
  }

  push(chunk: Uint8Array): void {
    if (this.inner !== undefined) {
      this.inner.push(chunk);
      return;
    }
    if (this.failure !== undefined) throw this.failure;
    if (chunk.length === 0) return;
    this.pending.push(chunk);
    const first = this.first();
    let more: TraceFormat | undefined;
    for (const f of this.formats) {
      const s = f.sniff(first);
      if (s === 'yes') return this.start(f, first);
      if (s === 'more') more ??= f;
    }
    if (more !== undefined) return;
    this.failure = new TraceDecodeError(
      'bad-magic',
      0,
      `not a trace GCScope can read: it looks like ${looksLike(first)}; GCScope reads ${readableFiles(this.formats)}`,
    );
    this.pending = [];
    throw this.failure;
  }

  end(): void {
    if (this.inner === undefined && this.failure === undefined) {
      // The stream ended while still a prefix of a signature (or empty): that format's reader
      // says where it stopped.
      const first = this.first();
      const f = this.formats.find((x) => x.sniff(first) !== 'no') ?? this.formats[0];
      if (f === undefined) return;
      this.start(f, first);
    }
    this.inner?.end();
  }

  eventStack(e: TraceEventRecord): Float64Array | undefined {
    return this.inner?.eventStack(e);
  }

  /** The bytes held so far as one view (the chunk itself when there is one). */
  private first(): Uint8Array {
    const p = this.pending;
    if (p.length === 1) return p[0]!;
    let n = 0;
    for (const c of p) n += c.length;
    const out = new Uint8Array(n);
    n = 0;
    for (const c of p) {
      out.set(c, n);
      n += c.length;
    }
    this.pending = [out];
    return out;
  }

  private start(f: TraceFormat, first: Uint8Array): void {
    this.chosen = f;
    this.pending = [];
    this.inner = f.create(this.handlers, this.options);
    if (first.length > 0) this.inner.push(first);
  }
}

/** ".nettrace and .netperf": every format's extensions, as an unknown file is told what GCScope reads. */
export function readableFiles(formats: readonly TraceFormat[]): string {
  const all = formats.flatMap((f) => f.extensions);
  return all.length <= 1 ? (all[0] ?? 'no trace format') : `${all.slice(0, -1).join(', ')} and ${all[all.length - 1]}`;
}
