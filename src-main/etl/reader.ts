/**
 * The incremental ETW log-file reader (.etl): push chunks of any size, get the trace's facts,
 * metadata and time-ordered events through the format-neutral handlers (trace/reader.ts).
 *
 * The container (docs/formats.md "ETL"): a sequence of buffers, each a 0x48-byte
 * WMI_BUFFER_HEADER then 8-byte-aligned events (buffer.ts, headers.ts); compressed buffers
 * (PerfView's merge) are MS-XCA LZ77 (xpress.ts). The first event of the first buffer is the
 * EventTrace/Header event whose TRACE_LOGFILE_HEADER gives the clock (logfile-header.ts).
 *
 * Time order: buffers are per processor and not in time order in the file (a circular file's
 * sequence numbers run 0,2,3,4,1). Each decoded buffer becomes a run of its events sorted by
 * timestamp; runs are merged through a heap keyed by (timestamp, buffer's file order, position),
 * so equal timestamps keep file order. Memory: events are held until the end of the stream as
 * long as the held buffers total under HOLD_BYTES (64 MiB: every real PerfView file we have, and
 * any trace of ~1M events); past it, events older than the watermark — once every processor has
 * written a buffer, the oldest "last timestamp of its newest buffer" over processors, before which
 * no later buffer of a processor writing in order can reach — are delivered, and if that is not
 * enough the oldest are delivered anyway (a processor whose buffer is flushed long after its
 * events — relogged files do this — may then deliver some events late: counted in `lateEvents`
 * and blockCounts['events delivered late']; docs/formats.md says so).
 * So a 1 GB file is decoded in bounded memory whatever it claims.
 *
 * Processes: kernel Process events name them (kernel-process.ts), kernel Image events place their
 * modules (kernel-image.ts; `imagesOf`, for frames no CLR method covers); each process's pointer size
 * is its events' header type (a 32-bit process on 64-bit Windows writes 32-bit headers). With
 * `options.processId`, only that process's events are kept (kernel events with no process id are
 * not) and TraceInfo.pointerSize is its pointer size.
 *
 * Stacks (options.stacks): a CLR event's stack is the ClrStack/Walk event (runtime id 82) that
 * follows it on the same thread in the same buffer; a manifest event's stack is its
 * STACK_TRACE64 extended item. Both are linked when the buffer is decoded. The walk events are
 * delivered too (as TraceEvent lists them before TraceLog consumes them).
 *
 * Errors: damage throws an EtlError from push() (state 'failed'); end() then delivers, once, the
 * events held before it. A stream that stops inside a buffer is 'truncated': the whole buffers
 * before it are delivered.
 */
import type { TraceDecodeError } from '../trace/errors.js';
import type { EventMetadata, ReaderState, TraceEventRecord, TraceImage, TraceInfo, TraceProcess } from '../trace/model.js';
import type { TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';
import { BUFFER_FLAG_COMPRESSED, BUFFER_HEADER_SIZE, logicalBuffer, readBufferHeader, type BufferHeader } from './buffer.js';
import { asEtlError, EtlError } from './errors.js';
import {
  guidAt,
  HEADER_KIND,
  HEADER_POINTER,
  HEADER_SIZE,
  i64,
  KIND_CLASSIC,
  KIND_EVENT,
  KIND_PERFINFO,
  KIND_SKIP,
  KIND_SYSTEM,
  kernelGroupName,
  u16,
  u32,
} from './headers.js';
import { classicEventName, kernelEventName, manifestEventName, providerName } from './event-names.js';
import { isImageEvent, readImageEvent } from './kernel-image.js';
import { readProcessEvent } from './kernel-process.js';
import { FILETIME_UNIX_EPOCH, readLogFileHeader, type LogFileHeader } from './logfile-header.js';
import { CLR_PROVIDERS, CLR_STACK_WALK_ID, KERNEL_PROVIDER, PRIVATE_GUID_U32, RUNDOWN_GUID_U32, RUNTIME_GUID_U32 } from './providers.js';

/** Held buffer bytes beyond which events are delivered before the end of the stream. */
export const HOLD_BYTES = 64 << 20;

/** One decoded buffer: its logical bytes and its events' positions, sorted by timestamp. */
interface Run {
  /** File order of the buffer (the tie-break). */
  index: number;
  bytes: Uint8Array;
  /** Absolute stream offset of the buffer's first byte. */
  base: number;
  compressed: boolean;
  processor: number;
  pos: Uint32Array;
  ts: Float64Array;
  /** Position of each event's ClrStack/Walk event (0 = none), when stacks are on. */
  walk: Uint32Array | undefined;
  n: number;
  /** Next event to deliver. */
  i: number;
}

export class EtlReader implements TraceReader {
  state: ReaderState = 'reading';
  error: TraceDecodeError | undefined;
  eventCount = 0;
  droppedEvents = 0;
  readonly blockCounts: Record<string, number> = {};
  /** The log-file header, once the first buffer is read. */
  logFile: LogFileHeader | undefined;

  private info: TraceInfo | undefined;
  private traceDelivered = false;
  private chunks: Uint8Array[] = [];
  private avail = 0;
  /** Absolute offset of the next buffer. */
  private consumed = 0;
  private bufferIndex = 0;
  private headerTs = 0;
  private readonly heap: Run[] = [];
  private heldBytes = 0;
  /** Per processor: the last timestamp of its newest buffer (the watermark's inputs). */
  private readonly latestStart = new Map<number, number>();
  private flushedAfterFailure = false;
  private readonly metadata = new Map<number, { key: Float64Array; md: EventMetadata }[]>();
  /** The identity of the event being delivered (see metadataFor). */
  private readonly key = new Float64Array(9);
  private nextMetadataId = 1;
  private readonly names = new Map<number, { name: string; commandLine: string }>();
  /** Per process: its images by base address (Load, DCStart, DCEnd and Unload all report one). */
  private readonly images = new Map<number, Map<number, TraceImage>>();
  private readonly pointerSizes = new Map<number, number>();
  /** Processes whose pointer size came from a CLR event. */
  private readonly clrPointerSizes = new Set<number>();
  private processList: TraceProcess[] | undefined;
  private readonly wantStacks: boolean;
  private readonly sort: boolean;
  private readonly reuse: boolean;
  private readonly filterPid: number | undefined;
  private record: TraceEventRecord | undefined;
  private current: TraceEventRecord | undefined;
  private currentStack: Float64Array | undefined;
  private sequence = 0;
  private lastDelivered = -Infinity;
  /**
   * Events delivered after a later one because memory ran out before their buffer came (a file
   * over the hold size whose processors' buffers are far out of step); 0 for files under it.
   */
  lateEvents = 0;
  /** Past the last buffer: the rest of the stream is zero padding (until nextFile()). */
  private padding = false;
  /** nextFile() was called: the next buffer is the first of another file of the session. */
  private fileStart = false;
  private scratchPos = new Uint32Array(0);
  private scratchTs = new Float64Array(0);
  private scratchWalk = new Uint32Array(0);

  constructor(
    private readonly handlers: TraceReaderHandlers,
    options: TraceReaderOptions = {},
    /** Held buffer bytes before events are released early (tests lower it to exercise the watermark). */
    private readonly holdBytes = HOLD_BYTES,
  ) {
    this.wantStacks = options.stacks === true;
    this.sort = options.sort ?? true;
    this.reuse = options.reuseRecords === true;
    this.filterPid = options.processId;
  }

  get trace(): TraceInfo | undefined {
    return this.info;
  }
  get offset(): number {
    return this.consumed;
  }
  /** Buffers are copied (or decompressed) out of the pushed chunks: nothing before the next buffer is held. */
  get releasedBefore(): number {
    return this.consumed;
  }
  get formatName(): string {
    const h = this.logFile;
    if (h === undefined) return 'unknown';
    return `ETL (Windows build ${h.providerVersion}, ${h.pointerSize * 8}-bit)`;
  }

  get processes(): readonly TraceProcess[] {
    if (this.processList !== undefined) return this.processList;
    const pids = new Set<number>([...this.names.keys(), ...this.pointerSizes.keys()]);
    const list: TraceProcess[] = [];
    for (const pid of [...pids].sort((a, b) => a - b)) {
      const n = this.names.get(pid);
      list.push({
        processId: pid,
        name: n?.name ?? '',
        commandLine: n?.commandLine ?? '',
        pointerSize: this.pointerSizes.get(pid) ?? this.logFile?.pointerSize ?? 8,
      });
    }
    return (this.processList = list);
  }

  push(chunk: Uint8Array): void {
    if (this.state !== 'reading') {
      if (this.state === 'failed') throw this.error!;
      return;
    }
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.avail += chunk.length;
    try {
      this.run();
      if (this.heldBytes > this.holdBytes) this.release();
    } catch (e) {
      const err = asEtlError(e, this.consumed);
      this.state = 'failed';
      this.error = err;
      throw err;
    }
  }

  end(): void {
    if (this.state === 'failed') {
      if (!this.flushedAfterFailure) {
        this.flushedAfterFailure = true;
        this.drain(Infinity);
      }
      return;
    }
    if (this.state !== 'reading') return;
    if (this.avail > 0 || this.info === undefined) {
      this.state = 'truncated';
      const what = this.avail === 0 ? 'before its first buffer' : `inside a buffer (${this.avail} byte(s) of it present)`;
      this.error = new EtlError('truncated', this.consumed, `ETW trace is truncated: it stops ${what}; the events of the buffers before that point were read`);
    } else {
      this.state = 'complete';
    }
    this.drain(Infinity);
    if (this.info !== undefined) this.deliverTrace();
  }

  /**
   * The next file of the same session begins (PerfView's unmerged X.kernel.etl / X.etl /
   * X.clrRundown.etl): its first buffer starts with its own log-file header, which must be on the
   * clock of the first file (same QPC frequency: one machine, one boot); its buffers join the
   * same time-ordered merge, and times stay relative to the first file's header.
   */
  nextFile(): void {
    if (this.state !== 'reading') {
      if (this.state === 'failed') throw this.error!;
      return;
    }
    if (this.info === undefined || this.avail > 0) {
      const what = this.info === undefined ? 'before its first buffer' : `inside a buffer (${this.avail} byte(s) of it present)`;
      const err = new EtlError('truncated', this.consumed, `an ETW file of this session stops ${what}; the files after it were not read`);
      this.state = 'failed';
      this.error = err;
      throw err;
    }
    this.padding = false;
    this.fileStart = true;
  }

  eventStack(e: TraceEventRecord): Float64Array | undefined {
    return e === this.current ? this.currentStack : undefined;
  }

  // ---- framing ----

  /** The next `n` bytes as one owned copy (chunks are the caller's and may be reused). */
  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let k = 0;
    while (k < n) {
      const c = this.chunks[0]!;
      const m = Math.min(c.length, n - k);
      out.set(m === c.length ? c : c.subarray(0, m), k);
      k += m;
      if (m === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(m);
    }
    this.avail -= n;
    return out;
  }

  /** The first `n` (≤ 0x48) pending bytes, without consuming them. */
  private peek(n: number): Uint8Array {
    const c = this.chunks[0]!;
    if (c.length >= n) return c;
    const out = new Uint8Array(n);
    let k = 0;
    for (const x of this.chunks) {
      const m = Math.min(x.length, n - k);
      out.set(x.subarray(0, m), k);
      k += m;
      if (k === n) break;
    }
    return out;
  }

  private run(): void {
    if (this.padding) {
      // Zeros after the last buffer (a preallocated file): consumed and ignored.
      this.consumed += this.avail;
      this.chunks = [];
      this.avail = 0;
      return;
    }
    while (this.avail >= BUFFER_HEADER_SIZE) {
      const head = this.peek(BUFFER_HEADER_SIZE);
      if (this.info !== undefined && head[0] === 0 && head[1] === 0 && head[2] === 0 && head[3] === 0) {
        // BufferSize 0 after the first buffer: the unused, zero-filled end of a preallocated log file.
        this.padding = true;
        return this.run();
      }
      const h = readBufferHeader(head, this.consumed);
      if (this.avail < h.bufferSize) return;
      const at = this.consumed;
      const raw = this.take(h.bufferSize);
      this.consumed += h.bufferSize;
      this.decodeBuffer(raw, h, at);
    }
  }

  // ---- one buffer ----

  private decodeBuffer(raw: Uint8Array, h: BufferHeader, at: number): void {
    const compressed = (h.flags & BUFFER_FLAG_COMPRESSED) !== 0;
    const { bytes, end } = logicalBuffer(raw, h, at);
    this.blockCounts['buffers'] = (this.blockCounts['buffers'] ?? 0) + 1;
    if (compressed) this.blockCounts['compressed buffers'] = (this.blockCounts['compressed buffers'] ?? 0) + 1;
    const first = this.info === undefined;
    if (first) this.readTraceHeader(bytes, end, at);
    else if (this.fileStart) this.checkSiblingHeader(bytes, end, at);
    this.fileStart = false;
    // Walked into scratch arrays (an event takes at least 8 bytes), kept trimmed to the events found.
    const cap = Math.max(0, (end - BUFFER_HEADER_SIZE) >> 3);
    if (this.scratchPos.length < cap) {
      this.scratchPos = new Uint32Array(cap);
      this.scratchTs = new Float64Array(cap);
      this.scratchWalk = new Uint32Array(cap);
    }
    const pos = this.scratchPos;
    const ts = this.scratchTs;
    const walk = this.wantStacks ? this.scratchWalk.fill(0, 0, cap) : undefined;
    const filter = this.filterPid;
    let n = 0;
    let sorted = true;
    let p = BUFFER_HEADER_SIZE;
    // The offset of an event in the stream: exact for a plain buffer, the buffer's own for a compressed one.
    const where = (q: number): number => (compressed ? at : at + q);
    while (p + 4 <= end) {
      const marker = u32(bytes, p);
      if (marker === 0xffffffff || marker === 0) break;
      const type = bytes[p + 2]!;
      if ((bytes[p + 3]! & 0xc0) !== 0xc0) {
        throw new EtlError(
          'bad-event',
          where(p),
          `an event in this ETW buffer has marker flags 0x${bytes[p + 3]!.toString(16)} instead of 0xC0: the buffer is damaged`,
        );
      }
      const kind = type < 32 ? HEADER_KIND[type]! : KIND_SKIP;
      const size = kind === KIND_SYSTEM || kind === KIND_PERFINFO ? u16(bytes, p + 4) : u16(bytes, p);
      const minSize = type < 32 ? HEADER_SIZE[type]! : 0;
      if (size < Math.max(4, minSize) || p + size > end) {
        throw new EtlError(
          'bad-event',
          where(p),
          `an event in this ETW buffer claims ${size} bytes, which do not fit its header or its buffer: the buffer is damaged`,
        );
      }
      const next = p + ((size + 7) & ~7);
      if (kind === KIND_SKIP) {
        p = next;
        continue;
      }
      const t = kind === KIND_PERFINFO ? i64(bytes, p + 8) : i64(bytes, p + 0x10);
      const pid = kind === KIND_PERFINFO ? -1 : u32(bytes, p + 0x0c);
      if (kind === KIND_SYSTEM || kind === KIND_PERFINFO) {
        // Kernel Process events name processes, whichever process is selected.
        if (bytes[p + 7] === 3 && bytes[p + 6]! >= 1 && bytes[p + 6]! <= 4) this.noteProcess(bytes, p, kind, type, size, at);
        // Image events place each process's modules, whichever process is selected (the header's process id is not the image's).
        else if (isImageEvent(bytes[p + 7]!, bytes[p + 6]!)) this.noteImage(bytes, p, kind, type, size, at);
      } else if (pid > 0 && kind === KIND_EVENT && !this.clrPointerSizes.has(pid)) {
        // A process's pointer size: its CLR events' header type (authoritative), else its first
        // manifest event's (other providers may log for it from a 64-bit component).
        if (isClr(bytes, p)) {
          this.clrPointerSizes.add(pid);
          this.pointerSizes.set(pid, HEADER_POINTER[type]!);
          this.processList = undefined;
        } else if (!this.pointerSizes.has(pid)) {
          this.pointerSizes.set(pid, HEADER_POINTER[type]!);
          this.processList = undefined;
        }
      }
      if (filter !== undefined && pid !== filter) {
        p = next;
        continue;
      }
      if (walk !== undefined && kind === KIND_EVENT && u32(bytes, p + 0x18) === RUNTIME_GUID_U32 && u16(bytes, p + 0x28) === CLR_STACK_WALK_ID) {
        // The walk belongs to the CLR event just before it on the same thread.
        const tid = u32(bytes, p + 8);
        for (let k = n - 1; k >= 0 && k >= n - 16; k--) {
          const q = pos[k]!;
          if (bytes[q + 2] !== type || u32(bytes, q + 8) !== tid || !isClr(bytes, q)) continue;
          if (u16(bytes, q + 0x28) !== CLR_STACK_WALK_ID && walk[k] === 0) walk[k] = p;
          break;
        }
      }
      if (n > 0 && t < ts[n - 1]!) sorted = false;
      pos[n] = p;
      ts[n] = t;
      n++;
      p = next;
    }
    if (n === 0) return;
    const run: Run = {
      index: this.bufferIndex++,
      bytes,
      base: at,
      compressed,
      processor: h.processor,
      pos: pos.slice(0, n),
      ts: ts.slice(0, n),
      walk: walk?.slice(0, n),
      n,
      i: 0,
    };
    if (!sorted && this.sort) sortRun(run);
    // A processor's later buffers hold later events: its newest buffer's last time bounds what is still to come from it.
    const last = run.ts[n - 1]!;
    const prev = this.latestStart.get(h.processor);
    if (prev === undefined || last > prev) this.latestStart.set(h.processor, last);
    this.heldBytes += bytes.length + n * 12;
    if (this.sort) heapPush(this.heap, run);
    else {
      // Stream order: deliver the buffer now.
      this.deliverTrace();
      this.heap.push(run);
      this.drain(Infinity);
    }
  }

  private noteProcess(bytes: Uint8Array, p: number, kind: number, type: number, size: number, at: number): void {
    const hs = kind === KIND_PERFINFO ? 0x10 : HEADER_SIZE[type]!;
    const version = u16(bytes, p);
    const proc = readProcessEvent(bytes.subarray(p + hs, p + size), at + p + hs, version, HEADER_POINTER[type]!);
    if (proc === undefined || proc.processId === 0) return;
    const old = this.names.get(proc.processId);
    if (old === undefined || (old.name === '' && proc.name !== '') || (old.commandLine === '' && proc.commandLine !== '')) {
      this.names.set(proc.processId, { name: proc.name || (old?.name ?? ''), commandLine: proc.commandLine || (old?.commandLine ?? '') });
      this.processList = undefined;
    }
  }

  private noteImage(bytes: Uint8Array, p: number, kind: number, type: number, size: number, at: number): void {
    const hs = kind === KIND_PERFINFO ? 0x10 : HEADER_SIZE[type]!;
    const img = readImageEvent(bytes.subarray(p + hs, p + size), at + p + hs, u16(bytes, p), HEADER_POINTER[type]!);
    if (img === undefined) return;
    let m = this.images.get(img.processId);
    if (m === undefined) this.images.set(img.processId, (m = new Map()));
    // One entry per base: the image's DCStart, Unload and DCEnd repeat the same range (the shorter
    // path of a DCStart, '\Windows\…' or '\Device\…', is kept as it came first).
    if (!m.has(img.imageBase)) m.set(img.imageBase, img);
  }

  imagesOf(processId: number): readonly TraceImage[] {
    return [...(this.images.get(processId)?.values() ?? [])];
  }

  /** The log-file header of a later file of the session: same clock, or it cannot be merged. */
  private checkSiblingHeader(bytes: Uint8Array, end: number, at: number): void {
    const p = BUFFER_HEADER_SIZE;
    const type = bytes[p + 2];
    const size = u16(bytes, p + 4);
    if (end < p + 0x20 || (type !== 1 && type !== 2) || bytes[p + 6] !== 0 || bytes[p + 7] !== 0 || size < 0x20 || p + size > end) {
      throw new EtlError(
        'bad-magic',
        at + p,
        'a file given as part of this ETW session does not start with the EventTrace/Header event: it is not an .etl log file',
      );
    }
    const h = readLogFileHeader(bytes.subarray(p + 0x20, p + size), at + p + 0x20);
    const mine = this.logFile!;
    if (h.clockType !== mine.clockType || h.perfFreq !== mine.perfFreq) {
      throw new EtlError(
        'unsupported-version',
        at + p + 0x20,
        `a file given as part of this ETW session runs on another clock (${h.perfFreq} ticks/s, clock type ${h.clockType}; the first file: ${mine.perfFreq}, ${mine.clockType}): it is not from the same recording`,
      );
    }
    this.droppedEvents += h.eventsLost;
    this.blockCounts['files'] = (this.blockCounts['files'] ?? 1) + 1;
  }

  private readTraceHeader(bytes: Uint8Array, end: number, at: number): void {
    const p = BUFFER_HEADER_SIZE;
    const type = bytes[p + 2];
    if (end < p + 0x20 || (type !== 1 && type !== 2) || bytes[p + 6] !== 0 || bytes[p + 7] !== 0) {
      throw new EtlError(
        'bad-magic',
        at + p,
        'the first ETW buffer does not start with the EventTrace/Header event: this is not an .etl log file GCScope can read',
      );
    }
    const size = u16(bytes, p + 4);
    if (size < 0x20 || p + size > end)
      throw new EtlError('bad-magic', at + p, `the ETW log-file header event claims ${size} bytes, which do not fit its buffer`);
    const h = readLogFileHeader(bytes.subarray(p + 0x20, p + size), at + p + 0x20);
    if (h.clockType === 3) {
      throw new EtlError(
        'unsupported-version',
        at + p + 0x20,
        'this ETW trace was recorded with the CPU-cycle clock (ClockType 3), which has no fixed frequency; record it again with the default QPC clock',
      );
    }
    this.logFile = h;
    this.headerTs = i64(bytes, p + 0x10);
    const unixMs = (h.startTime - FILETIME_UNIX_EPOCH) / 10000;
    this.info = {
      format: 'ETL',
      formatVersion: h.version & 0xff,
      formatMinorVersion: (h.version >>> 8) & 0xff,
      syncTimeUtc: Number.isFinite(unixMs) && Math.abs(unixMs) < 8.64e15 ? new Date(unixMs).toISOString() : new Date(0).toISOString(),
      syncTimeUnixMs: unixMs,
      syncTimeQpc: String(this.headerTs),
      qpcFrequency: h.clockType === 2 ? 10_000_000 : h.perfFreq,
      pointerSize: h.pointerSize,
      processId: this.filterPid ?? 0,
      numberOfProcessors: h.numberOfProcessors,
      expectedCpuSamplingRate: 0,
      keyValues: {
        LoggerName: h.loggerName,
        LogFileName: h.logFileName,
        OSBuild: String(h.providerVersion),
        LogFileMode: `0x${h.logFileMode.toString(16)}`,
        UtcOffsetMinutes: String(h.utcOffsetMinutes),
      },
    };
    this.droppedEvents = h.eventsLost;
  }

  // ---- delivery ----

  private deliverTrace(): void {
    if (this.traceDelivered || this.info === undefined) return;
    this.traceDelivered = true;
    if (this.filterPid !== undefined) this.info.pointerSize = this.pointerSizes.get(this.filterPid) ?? this.info.pointerSize;
    this.handlers.onTrace?.(this.info);
  }

  /** Under memory pressure: deliver what no later buffer can precede, then the oldest, to half the cap. */
  private release(): void {
    // Until every processor has written a buffer, one of them may still bring the oldest events.
    let watermark = this.latestStart.size >= (this.logFile?.numberOfProcessors ?? 1) ? Infinity : -Infinity;
    for (const t of this.latestStart.values()) if (t < watermark) watermark = t;
    this.drain(watermark);
    while (this.heldBytes > this.holdBytes / 2 && this.heap.length > 0) this.drain(this.heap[0]!.ts[this.heap[0]!.i]! + 1);
  }

  /** Delivers every held event with a timestamp below `limit`, in (timestamp, file order) order. */
  private drain(limit: number): void {
    const heap = this.heap;
    if (heap.length === 0) return;
    this.deliverTrace();
    if (!this.sort) {
      for (const run of heap.splice(0)) {
        for (; run.i < run.n; run.i++) this.deliver(run, run.i);
        this.heldBytes -= run.bytes.length + run.n * 12;
      }
      return;
    }
    while (heap.length > 0) {
      const run = heap[0]!;
      if (!(run.ts[run.i]! < limit)) return;
      this.deliver(run, run.i);
      run.i++;
      if (run.i === run.n) {
        this.heldBytes -= run.bytes.length + run.n * 12;
        heapPop(heap);
      } else heapDown(heap, 0);
    }
  }

  private deliver(run: Run, i: number): void {
    const b = run.bytes;
    const p = run.pos[i]!;
    const type = b[p + 2]!;
    const kind = HEADER_KIND[type]!;
    const ptr = HEADER_POINTER[type]!;
    let size: number;
    let payloadStart: number;
    let threadId = 0;
    let processId = -1;
    let stack: Float64Array | undefined;
    let activityId: string | undefined;
    if (kind === KIND_EVENT) {
      size = u16(b, p);
      threadId = u32(b, p + 8);
      processId = u32(b, p + 0x0c);
      payloadStart = p + 0x50;
      if ((u16(b, p + 4) & 1) !== 0) {
        // Extended data items: u16 ItemSize (with this 8-byte header), u16 ExtType, u16 Linkage (bit 0: another follows), u16 DataSize.
        for (;;) {
          if (payloadStart + 8 > p + size)
            throw new EtlError(
              'bad-event',
              run.compressed ? run.base : run.base + payloadStart,
              "an ETW event's extended data runs past the event: the buffer is damaged",
            );
          const itemSize = u16(b, payloadStart);
          const extType = u16(b, payloadStart + 2);
          const linkage = u16(b, payloadStart + 4);
          const dataSize = u16(b, payloadStart + 6);
          if (itemSize < 8 || payloadStart + itemSize > p + size || dataSize > itemSize - 8) {
            throw new EtlError(
              'bad-event',
              run.compressed ? run.base : run.base + payloadStart,
              "an ETW event's extended data item has an impossible size: the buffer is damaged",
            );
          }
          if (extType === 6 && this.wantStacks && dataSize >= 8) stack = frames(b, payloadStart + 16, (dataSize - 8) >> 3, 8);
          payloadStart += itemSize;
          if ((linkage & 1) === 0) break;
        }
      }
      const k = this.key;
      k[0] = KIND_EVENT;
      k[1] = u32(b, p + 0x18);
      k[2] = u32(b, p + 0x1c);
      k[3] = u32(b, p + 0x20);
      k[4] = u32(b, p + 0x24);
      k[5] = u16(b, p + 0x28) | (b[p + 0x2a]! << 16);
      k[6] = b[p + 0x2c]! | (b[p + 0x2d]! << 8);
      k[7] = u32(b, p + 0x30);
      k[8] = u32(b, p + 0x34);
      let act = false;
      for (let k = 0x40; k < 0x50; k++) if (b[p + k] !== 0) act = true;
      if (act) activityId = guidAt(b, p + 0x40);
      if (run.walk !== undefined && run.walk[i] !== 0) stack = walkFrames(b, run.walk[i]!);
    } else if (kind === KIND_CLASSIC) {
      size = u16(b, p);
      threadId = u32(b, p + 8);
      processId = u32(b, p + 0x0c);
      payloadStart = p + 0x30;
      const k = this.key;
      k[0] = KIND_CLASSIC;
      k[1] = u32(b, p + 0x18);
      k[2] = u32(b, p + 0x1c);
      k[3] = u32(b, p + 0x20);
      k[4] = u32(b, p + 0x24);
      k[5] = b[p + 4]! | (u16(b, p + 6) << 8);
      k[6] = b[p + 5]!;
      k[7] = 0;
      k[8] = 0;
    } else {
      size = u16(b, p + 4);
      if (kind === KIND_SYSTEM) {
        threadId = u32(b, p + 8);
        processId = u32(b, p + 0x0c);
      }
      payloadStart = p + HEADER_SIZE[type]!;
      const k = this.key;
      k[0] = KIND_SYSTEM;
      k[1] = b[p + 7]!;
      k[2] = b[p + 6]!;
      k[3] = u16(b, p);
      k[4] = k[5] = k[6] = k[7] = k[8] = 0;
    }
    const md = this.metadataFor(b, p, kind);
    const payloadSize = p + size - payloadStart;
    const e: TraceEventRecord = this.reuse ? (this.record ??= blankRecord()) : blankRecord();
    e.metadata = md;
    e.timestamp = run.ts[i]! - this.headerTs;
    if (run.ts[i]! < this.lastDelivered) {
      this.lateEvents++;
      this.blockCounts['events delivered late'] = this.lateEvents;
    } else this.lastDelivered = run.ts[i]!;
    e.threadId = threadId;
    e.captureThreadId = threadId;
    e.processorNumber = run.processor;
    e.sequenceNumber = ++this.sequence;
    e.stackId = stack !== undefined ? 1 : 0;
    e.processId = processId < 0 ? 0 : processId;
    e.activityId = activityId;
    e.bytes = b;
    e.payloadStart = payloadStart;
    e.payloadSize = payloadSize;
    e.payloadOffset = run.compressed ? run.base : run.base + payloadStart;
    void ptr;
    this.current = e;
    this.currentStack = stack;
    this.eventCount++;
    try {
      this.handlers.onEvent?.(e);
    } finally {
      this.current = undefined;
      this.currentStack = undefined;
    }
  }

  /**
   * The metadata of the event whose identity is in `this.key` (provider, id, version, level,
   * opcode, keywords): made once per identity, found again through a numeric hash and a compare
   * of the key (no string per event).
   */
  private metadataFor(b: Uint8Array, p: number, kind: number): EventMetadata {
    const k = this.key;
    let h = 0;
    for (let j = 0; j < 9; j++) h = (Math.imul(h, 31) + k[j]!) | 0;
    let list = this.metadata.get(h);
    if (list !== undefined) {
      for (const entry of list) {
        let same = true;
        for (let j = 0; j < 9; j++) {
          if (entry.key[j] !== k[j]) {
            same = false;
            break;
          }
        }
        if (same) return entry.md;
      }
    } else this.metadata.set(h, (list = []));
    const md = this.makeMetadata(b, p, kind);
    list.push({ key: k.slice(), md });
    this.handlers.onMetadata?.(md);
    return md;
  }

  private makeMetadata(b: Uint8Array, p: number, kind: number): EventMetadata {
    const id = this.nextMetadataId++;
    if (kind === KIND_EVENT) {
      const guid = guidAt(b, p + 0x18);
      const keywords = (BigInt(u32(b, p + 0x34)) << 32n) | BigInt(u32(b, p + 0x30));
      const eventId = u16(b, p + 0x28);
      const clr = CLR_PROVIDERS[guid];
      // Runtime events 200/201 carry no task in the EventPipe manifest GCScope names from; on ETW
      // TraceEvent names them from the runtime's manifest (GarbageCollection/…MemoryPressure).
      const name = clr === undefined ? manifestEventName(guid, eventId) : clr === RUNTIME_PROVIDER ? MEMORY_PRESSURE[eventId] : undefined;
      return {
        id,
        provider: clr ?? providerName(guid) ?? guid,
        eventId,
        eventName: name ?? '',
        keywords,
        version: b[p + 0x2a]!,
        level: b[p + 0x2c]!,
        // A full TraceEvent name already ends in its opcode's name.
        opcode: name !== undefined ? undefined : b[p + 0x2d]!,
        fields: [],
        hasV5Tags: false,
      };
    }
    if (kind === KIND_CLASSIC) {
      const guid = guidAt(b, p + 0x18);
      const name = classicEventName(guid, b[p + 4]!);
      return {
        id,
        provider: providerName(guid) ?? guid,
        eventId: 0,
        eventName: name ?? '',
        keywords: 0n,
        version: u16(b, p + 6),
        level: b[p + 5]!,
        opcode: name !== undefined ? undefined : b[p + 4]!,
        fields: [],
        hasV5Tags: false,
      };
    }
    const group = b[p + 7]!;
    const opcode = b[p + 6]!;
    return {
      id,
      provider: KERNEL_PROVIDER,
      eventId: (group << 8) | opcode,
      eventName: kernelEventName(group, opcode) ?? `${kernelGroupName(group)}/Opcode(${opcode})`,
      keywords: 0n,
      version: u16(b, p),
      level: 0,
      opcode: undefined,
      fields: [],
      hasV5Tags: false,
    };
  }
}

const RUNTIME_PROVIDER = 'Microsoft-Windows-DotNETRuntime';
const MEMORY_PRESSURE: Record<number, string> = { 200: 'GarbageCollection/IncreaseMemoryPressure', 201: 'GarbageCollection/DecreaseMemoryPressure' };

function isClr(b: Uint8Array, q: number): boolean {
  const g = u32(b, q + 0x18);
  return g === RUNTIME_GUID_U32 || g === PRIVATE_GUID_U32 || g === RUNDOWN_GUID_U32;
}

/** `count` return addresses of `width` bytes at `at`. */
function frames(b: Uint8Array, at: number, count: number, width: number): Float64Array {
  const out = new Float64Array(count);
  for (let k = 0; k < count; k++) out[k] = width === 8 ? i64(b, at + 8 * k) : u32(b, at + 4 * k);
  return out;
}

/** ClrStack/Walk's frames: `u16 ClrInstanceID, u8, u8, u32 FrameCount, ptr[FrameCount]` after the 0x50 header. */
function walkFrames(b: Uint8Array, w: number): Float64Array | undefined {
  const width = HEADER_POINTER[b[w + 2]!]!;
  const size = u16(b, w);
  const payload = w + 0x50 + ((u16(b, w + 4) & 1) !== 0 ? extLength(b, w + 0x50, w + size) : 0);
  if (payload + 8 > w + size) return undefined;
  const count = Math.min(u32(b, payload + 4), Math.floor((w + size - payload - 8) / width));
  return frames(b, payload + 8, count, width);
}

function extLength(b: Uint8Array, at: number, end: number): number {
  let q = at;
  while (q + 8 <= end) {
    const itemSize = u16(b, q);
    if (itemSize < 8) break;
    q += itemSize;
    if ((u16(b, q - itemSize + 4) & 1) === 0) break;
  }
  return q - at;
}

function blankRecord(): TraceEventRecord {
  return {
    metadata: undefined as unknown as EventMetadata,
    timestamp: 0,
    threadId: 0,
    captureThreadId: 0,
    processorNumber: 0,
    sequenceNumber: 0,
    stackId: 0,
    processId: 0,
    activityId: undefined,
    bytes: EMPTY,
    payloadStart: 0,
    payloadSize: 0,
    payloadOffset: 0,
  };
}
const EMPTY = new Uint8Array(0);

/** Stable sort of a run's events by timestamp (a buffer's events are nearly always in order already). */
function sortRun(run: Run): void {
  const idx = Array.from({ length: run.n }, (_, k) => k);
  idx.sort((a, b) => run.ts[a]! - run.ts[b]! || a - b);
  const pos = run.pos.slice(0, run.n);
  const ts = run.ts.slice(0, run.n);
  const walk = run.walk?.slice(0, run.n);
  for (let k = 0; k < run.n; k++) {
    run.pos[k] = pos[idx[k]!]!;
    run.ts[k] = ts[idx[k]!]!;
    if (walk !== undefined) run.walk![k] = walk[idx[k]!]!;
  }
}

// ---- a binary heap of runs keyed by (next timestamp, file order) ----

function less(a: Run, b: Run): boolean {
  const ta = a.ts[a.i]!;
  const tb = b.ts[b.i]!;
  return ta < tb || (ta === tb && a.index < b.index);
}
function heapPush(h: Run[], r: Run): void {
  h.push(r);
  let k = h.length - 1;
  while (k > 0) {
    const parent = (k - 1) >> 1;
    if (!less(h[k]!, h[parent]!)) break;
    [h[k], h[parent]] = [h[parent]!, h[k]!];
    k = parent;
  }
}
function heapPop(h: Run[]): void {
  const last = h.pop()!;
  if (h.length === 0) return;
  h[0] = last;
  heapDown(h, 0);
}
function heapDown(h: Run[], k: number): void {
  const n = h.length;
  for (;;) {
    const l = 2 * k + 1;
    if (l >= n) return;
    const r = l + 1;
    const m = r < n && less(h[r]!, h[l]!) ? r : l;
    if (!less(h[m]!, h[k]!)) return;
    [h[k], h[m]] = [h[m]!, h[k]!];
    k = m;
  }
}
