/**
 * The one trace analysis: a reader of whatever format the stream is (trace-formats.ts), and what
 * is made of its events — the trace's facts (gc/trace-facts.ts), the GC analysis
 * (gc/gc-analyzer.ts), call stacks and allocation samples (symbols/stack-events.ts), and every
 * consumer registered (trace-consumers.ts) or given. Import, the file commands (`report FILE`,
 * `allocs FILE`, …), live recording and the flight recorder all read traces through it, so the
 * decoding is wired once.
 *
 * Memory: with `window`, the analyzer forgets completed GCs more than `window` behind the newest
 * (what a GC's metrics read: the previous GC; a background GC the GCs during it), so it does not
 * grow with the trace; whoever keeps GCs takes them in `gc.onGCEnd` / `gc.onGCUpdated`.
 *
 * No I/O: the caller pushes the bytes into `reader` (trace-file.ts's pumpTraceFile for a file, the
 * diagnostics stream for a live session) and calls `finish()` once the stream has ended.
 */
import { AllocationTickReader } from '../clr/gc-events.js';
import { GCAnalyzer, type GCAnalyzerCallbacks } from '../gc/gc-analyzer.js';
import { TraceFacts } from '../gc/trace-facts.js';
import type { TraceGC } from '../gc/trace-gc.js';
import { StackEvents, type StackEventsOptions } from '../symbols/stack-events.js';
import type { AnalysisContext, TraceConsumer } from '../trace/consumer.js';
import type { TraceDecodeError } from '../trace/errors.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import type { TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';
import { traceConsumers } from './trace-consumers.js';
import { openTraceReader } from './trace-formats.js';

export interface TraceAnalysisOptions {
  /** What the GC analyzer tells as GCs start, complete and change. */
  gc?: GCAnalyzerCallbacks;
  /** Also collect call stacks, methods and allocation samples (the reader decodes stack blocks), this way. */
  stacks?: StackEventsOptions;
  /** Keep only this many GCs behind the newest completed one; without it every GC stays in `analyzer.gcs`. */
  window?: number;
  /** The reader's options (`stacks` follows the option above). */
  reader?: Omit<TraceReaderOptions, 'stacks'>;
  /** Each container block the reader finishes (the flight recorder's ring). */
  onBlock?: TraceReaderHandlers['onBlock'];
  /** Consumers of this analysis only, after the registered ones. */
  consumers?: readonly TraceConsumer[];
}

export class TraceAnalysis implements AnalysisContext {
  readonly reader: TraceReader;
  /** What the reader calls (tests feed a header or events through these). */
  readonly handlers: TraceReaderHandlers;
  readonly analyzer: GCAnalyzer;
  readonly facts = new TraceFacts();
  /** Stacks, method ranges and allocation samples, when asked for with `stacks`. */
  readonly stackEvents: StackEvents | undefined;
  /** The trace's header, once read. */
  trace: TraceInfo | undefined;
  /** Every consumer but the GC analysis's own parts, in the order they see events. */
  private readonly consumers: TraceConsumer[] = [];
  private newestCompleted = -1;
  /** The process the reader was asked to keep (a machine-wide trace). */
  private readonly readerProcessId: number | undefined;
  /** Names the process from the reader's list if the first event could not (finish()). */
  private readonly nameProcessAtEnd: () => void;

  constructor(options: TraceAnalysisOptions = {}) {
    const gc = options.gc ?? {};
    this.analyzer = new GCAnalyzer({
      ...gc,
      onGCEnd: (g) => {
        if (g.index > this.newestCompleted) this.newestCompleted = g.index;
        gc.onGCEnd?.(g);
      },
    });
    const analyzer = this.analyzer;
    const facts = this.facts;
    const stackEvents = (this.stackEvents = options.stacks !== undefined ? new StackEvents(options.stacks) : undefined);
    const eventConsumers: TraceConsumer[] = [];
    const stackOf = (e: TraceEventRecord): Float64Array | undefined => this.reader.eventStack(e);
    const ticks = new AllocationTickReader();
    const window = options.window;
    this.readerProcessId = options.reader?.processId;
    let releasedTo = 0;
    // A machine-wide trace lists its processes by the first event: the selected one's name and
    // command line become the trace's facts (asked again at the end for one the list learnt later).
    let processNamed = false;
    const nameProcess = (): void => {
      processNamed = true;
      const pid = options.reader?.processId ?? this.trace?.processId;
      const p = this.reader.processes?.find((x) => x.processId === pid);
      if (p !== undefined) facts.setProcess(p);
    };
    this.nameProcessAtEnd = () => {
      if (facts.processName === undefined) nameProcess();
    };
    this.handlers = {
      onTrace: (t) => {
        this.trace = t;
        analyzer.setTrace(t);
        stackEvents?.setTrace(t);
        ticks.setTrace(t);
        for (const c of this.consumers) c.onTrace?.(t, this);
      },
      onEvent: (e) => {
        if (!processNamed) nameProcess();
        // Each AllocationTick read once, its fields given to the analyzer and the stack events;
        // ProcessInfo is the facts' alone.
        const tick = ticks.read(e);
        if (tick !== undefined) {
          analyzer.onAllocationTick(e, tick);
          stackEvents?.onAllocationTick(e, tick, stackOf);
        } else {
          if (!facts.onEvent(e)) analyzer.onEvent(e);
          stackEvents?.onEvent(e, stackOf);
        }
        // Released in steps of a window, between events (never while the analyzer is in a GC's completion).
        if (window !== undefined && this.newestCompleted - window >= releasedTo + window) {
          releasedTo = this.newestCompleted - window;
          analyzer.release(releasedTo);
        }
        for (let i = 0; i < eventConsumers.length; i++) eventConsumers[i]!.onEvent!(e, this);
      },
      ...(options.onBlock !== undefined ? { onBlock: options.onBlock } : {}),
    };
    // The analysis's parts read each event during the call and keep none of the records.
    this.reader = openTraceReader(this.handlers, { ...options.reader, stacks: stackEvents !== undefined });
    // Made once the reader exists (a consumer may look at it); they see events only once bytes are pushed.
    for (const make of traceConsumers()) {
      const c = make(this);
      if (c !== undefined) this.consumers.push(c);
    }
    if (options.consumers !== undefined) this.consumers.push(...options.consumers);
    for (const c of this.consumers) if (c.onEvent !== undefined) eventConsumers.push(c);
  }

  /** The first consumer of this class in the analysis (a registered one's data, for whoever stores it). */
  consumerOf<T extends TraceConsumer>(cls: abstract new (...args: never[]) => T): T | undefined {
    for (const c of this.consumers) if (c instanceof cls) return c;
    return undefined;
  }

  /** The call stack of the event being delivered (AnalysisContext). */
  stackOf(e: TraceEventRecord): Float64Array | undefined {
    return this.reader.eventStack(e);
  }

  /**
   * Frames no method covers are named by the native image they fall in (`module!0xRVA`): the
   * process's images, as the reader learnt them (ETW kernel Image events; a NetTrace has none).
   * Done at the end, before the consumers finish: frame names are resolved only when asked, and a
   * session's final write names every frame again.
   */
  private placeImages(): void {
    const ev = this.stackEvents;
    const pid = this.readerProcessId ?? this.trace?.processId;
    if (ev === undefined || pid === undefined || this.reader.imagesOf === undefined) return;
    for (const img of this.reader.imagesOf(pid)) ev.modules.add(img);
  }

  /** The decode error that stopped the reader early, if one did. */
  get failure(): TraceDecodeError | undefined {
    return this.reader.state === 'failed' ? this.reader.error : undefined;
  }

  /** Now and then while reading: the consumers store what is new. */
  flush(): void {
    for (const c of this.consumers) c.flush?.(this);
  }

  /**
   * The stream has ended: the reader delivers what it still holds (after a failure, the events
   * queued before the damage), every completed GC still held gets its final metrics, and the
   * consumers finish. Returns the GCs whose metrics changed.
   */
  finish(): TraceGC[] {
    this.reader.end();
    this.nameProcessAtEnd();
    this.placeImages();
    const changed = this.analyzer.finish();
    for (const c of this.consumers) c.finish?.(this);
    return changed;
  }
}
