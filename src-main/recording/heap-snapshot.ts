/**
 * Heap snapshots in and out (issue 38): open a `.gcdump` or a `.nettrace` recorded with the
 * heap-dump keywords, and capture one from a running process over the diagnostics IPC as
 * dotnet-gcdump does (heap-snapshots.md §1): flush the runtime's type table, then one session whose
 * keywords induce a blocking gen2 GC that writes the heap walk; stop once its GC ends and keep the
 * rundown (module paths). The events become a graph in heap/heap-walk.ts, which refuses a walk
 * with lost events.
 */
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { processNameFromCommandLine } from '../common/process-name.js';
import { EventPipeSession } from '../diagnostics/eventpipe-session.js';
import { heapSnapshotRequest, runtimeCountersRequest, typeFlushRequest } from '../diagnostics/profiles.js';
import type { SessionRequest } from '../diagnostics/commands.js';
import { readGcdump, looksLikeGcdump, writeGcdump, type GcdumpInfo } from '../heap/gcdump.js';
import { analyzeHeap, type HeapAnalysis } from '../heap/analysis.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import type { Database } from '../store/db.js';
import { saveHeapSnapshot } from '../store/heap-snapshots.js';
import type { HeapGraph } from '../heap/graph.js';
import { HeapWalkError } from '../heap/errors.js';
import { HeapWalkConsumer, type HeapWalkProgress } from '../heap/heap-walk.js';
import { runtimeKey, type HeapTypeCache } from '../heap/type-cache.js';
import { WalkEndWatch } from '../heap/walk-end.js';
import type { TraceReaderHandlers } from '../trace/reader.js';
import { decodePayload, type PayloadValue } from '../nettrace/payload.js';
import type { TraceEventRecord, TraceInfo } from '../trace/model.js';
import { openTraceReader } from './trace-formats.js';
import { checkRegularFile, pumpTraceFile } from './trace-file.js';

export interface LoadedSnapshot {
  readonly graph: HeapGraph;
  /** 'gcdump' or 'nettrace'. */
  readonly format: string;
  readonly gcdump?: GcdumpInfo;
  /** Objects the walk never named (a nettrace recorded while another session of the process kept type events on: the runtime names a type once). */
  readonly untypedObjects: number;
}

/** A `.gcdump`, or a trace holding a heap walk (recorded with keywords 0x1980001 at level 5). */
export async function loadSnapshotFile(path: string): Promise<LoadedSnapshot> {
  await checkRegularFile(path);
  const fh = await open(path, 'r');
  const head = new Uint8Array(64);
  try {
    await fh.read(head, 0, 64, 0);
  } finally {
    await fh.close();
  }
  if (looksLikeGcdump(head)) {
    const s = readGcdump(await readFile(path));
    return { graph: s.graph, format: 'gcdump', gcdump: s.info, untypedObjects: 0 };
  }
  const walk = new HeapWalkConsumer();
  const reader = openTraceReader({ onTrace: (t) => walk.onTrace(t), onEvent: (e) => walk.onEvent(e) }, { reuseRecords: true });
  await pumpTraceFile(path, reader);
  const r = walk.build(reader.droppedEvents);
  return { graph: r.graph, format: 'nettrace', untypedObjects: r.untypedObjects };
}

/**
 * Why a session was stopped: its caller's rule was met ('done'; for the walk, 'walk-ended' when its
 * GCEnd was seen in stream order, 'walk-complete' when the consumer had the whole walk first), the
 * timeout, a decode error, or the runtime ended the stream itself.
 */
export type SessionStop = 'done' | 'walk-ended' | 'walk-complete' | 'timeout' | 'decode-error' | 'stream-ended';

/** Runs one session and hands its events to `onEvent` until `done` resolves or `timeoutMs` passes; then stops it. */
async function runSession(
  pid: number,
  request: SessionRequest,
  onEvent: (e: TraceEventRecord) => void,
  onTrace: ((t: TraceInfo) => void) | undefined,
  until: (stop: (why?: SessionStop) => void) => void,
  timeoutMs: number,
  drainMs: number,
  onChunk?: (chunk: Buffer) => void,
  startTimeoutMs?: number,
  onArrival?: TraceReaderHandlers['onArrival'],
): Promise<{ droppedEvents: number; info: EventPipeSession['processInfo']; stoppedBy: SessionStop }> {
  const session = await EventPipeSession.open({ pid });
  const reader = openTraceReader({ onEvent, ...(onTrace !== undefined ? { onTrace } : {}), ...(onArrival !== undefined ? { onArrival } : {}) }, {});
  let decodeError: unknown;
  let stoppedBy: SessionStop = 'stream-ended';
  try {
    let stopped = false;
    const stop = (why: SessionStop = 'done'): void => {
      if (stopped) return;
      stopped = true;
      stoppedBy = why;
      session.stop(drainMs);
    };
    await session.start(
      request,
      (d) => {
        onChunk?.(d);
        if (decodeError !== undefined) return;
        try {
          reader.push(d);
        } catch (e) {
          decodeError = e;
          stop('decode-error');
        }
      },
      startTimeoutMs,
    );
    until(stop);
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    await session.ended;
    clearTimeout(timer);
    reader.end();
  } finally {
    session.close();
  }
  if (decodeError !== undefined) throw decodeError;
  return { droppedEvents: reader.droppedEvents, info: session.processInfo, stoppedBy };
}

const GEN_COUNTERS = ['gen-0-size', 'gen-1-size', 'gen-2-size', 'loh-size', 'poh-size'];

/**
 * The heap's size at the process's last GC, from its System.Runtime counters (gen0–2, LOH, POH
 * sizes); undefined when they do not come. The first counters come one interval after they are
 * enabled: at 0.2 s the answer takes ~0.3 s instead of ~2.2 s at 1 s (measured on a 12 M-object
 * process). The runtime parses the interval with the process's culture (CounterGroup's
 * float.TryParse), where "0.2" may not parse (fr-FR: no counter comes at all) or read as 2
 * (de-DE): when nothing comes in time, it asks again in whole seconds. (`intervals`: the two
 * intervals asked, for tests.)
 */
export async function lastGcHeapSize(pid: number, timeoutMs = 4000, intervals: readonly [string, string] = ['0.2', '1']): Promise<number | undefined> {
  return (await countersHeapSize(pid, intervals[0], Math.min(1200, timeoutMs))) ?? (await countersHeapSize(pid, intervals[1], timeoutMs));
}

async function countersHeapSize(pid: number, intervalSec: string, timeoutMs: number): Promise<number | undefined> {
  const seen = new Map<string, number>();
  let done: (() => void) | undefined;
  await runSession(
    pid,
    runtimeCountersRequest(intervalSec),
    (e) => {
      if (e.metadata.provider !== 'System.Runtime' || e.metadata.eventName !== 'EventCounters') return;
      // The payload is one unnamed struct field holding a `Payload` struct (Name, Mean, …).
      const top = decodePayload(e);
      const outer = (top[''] ?? top) as { [k: string]: PayloadValue };
      const p = outer['Payload'] as { [k: string]: PayloadValue } | undefined;
      const name = p?.['Name'];
      const mean = p?.['Mean'];
      if (typeof name === 'string' && GEN_COUNTERS.includes(name) && typeof mean === 'number') seen.set(name, mean);
      if (GEN_COUNTERS.every((c) => seen.has(c))) done?.();
    },
    undefined,
    (stop) => (done = stop),
    timeoutMs,
    2000,
  );
  if (!seen.has('gen-2-size')) return undefined;
  let sum = 0;
  for (const v of seen.values()) sum += v;
  return sum;
}

export interface CaptureOptions {
  /** EventPipe buffer for the walk (default 1024 MB, as dotnet-gcdump): every event of the walk must fit. */
  readonly bufferMB?: number;
  /** Give up when no heap walk has started by then (default 30 s). */
  readonly timeoutMs?: number;
  readonly onProgress?: (p: HeapWalkProgress) => void;
  /** Each step after the walk, as it starts. */
  readonly onPhase?: (phase: SnapshotPhase) => void;
  /** Every byte of the walk's session as it arrives: the raw .nettrace (`gcscope snapshot --trace`). */
  readonly onRawChunk?: (chunk: Buffer) => void;
  /**
   * Type names from earlier walks of the same process, and where this walk's are kept for the next:
   * the runtime logs each type's BulkType once while the Type keyword stays enabled in any session,
   * so a walk taken while a recording runs names only types it has not named before.
   */
  readonly typeCache?: HeapTypeCache;
}

export interface CapturedSnapshot {
  readonly graph: HeapGraph;
  readonly processId: number;
  readonly processName: string;
  readonly commandLine: string;
  readonly runtimeVersion: string | null;
  readonly os: string;
  readonly arch: string;
  readonly collectedAtMs: number;
  /** The induced GC's number. */
  readonly gcNumber: number;
  readonly untypedObjects: number;
  /** Object types named from earlier walks of the process (CaptureOptions.typeCache), not by this walk. */
  readonly typesFromCache: number;
  /** From the session's start to the walk's GC end (the process is paused for part of it). */
  readonly walkMs: number;
  /** The session's end (its rundown drained) to the graph built: decoding is done as bytes arrive. */
  readonly sessionMs: number;
  readonly buildMs: number;
  /** Why the walk's session stopped ('walk-ended' normally; 'timeout' means the walk's end never came in time). */
  readonly stoppedBy: SessionStop;
}

/**
 * How long the walk's session stays open after the walk's end is seen. Measured (the live-snapshot
 * e2e test, .NET 10.0.12): stopping it the moment the walk's GCEnd arrived left a recording of the
 * same process (another session) without that GC for minutes — its reader held the GC's events
 * for want of a sequence point — while stopping it 500 ms later the recording had the GC at once.
 * Why is not established (the runtime finishing the induced GC's restart before the keywords
 * change is a guess); a small walk's snapshot still ends within about a second instead of the
 * 30 s timeout.
 */
const WALK_END_LINGER_MS = 500;

/** Captures a heap snapshot of a running .NET process. Lost events are a 'lost-events' HeapWalkError. */
export async function captureHeapSnapshot(pid: number, opts: CaptureOptions = {}): Promise<CapturedSnapshot> {
  // 1. Flush the type table: a short session without the Type keyword, stopped on its first bytes.
  await runSession(
    pid,
    typeFlushRequest(),
    () => undefined,
    undefined,
    (stop) => setTimeout(stop, 300),
    3000,
    3000,
  );
  // 2. The walk.
  const walk = new HeapWalkConsumer(opts.onProgress);
  const endWatch = new WalkEndWatch();
  const started = Date.now();
  let walkEnded = 0;
  let stopWhenWalked: ((why?: SessionStop) => void) | undefined;
  // The walk's end, however it was seen first: the session stops WALK_END_LINGER_MS later.
  const walked = (why: SessionStop): void => {
    if (walkEnded !== 0) return;
    walkEnded = Date.now();
    setTimeout(() => stopWhenWalked?.(why), WALK_END_LINGER_MS);
  };
  const { droppedEvents, info, stoppedBy } = await runSession(
    pid,
    heapSnapshotRequest(opts.bufferMB ?? 1024),
    (e) => {
      const wasComplete = walk.complete;
      walk.onEvent(e);
      if (!wasComplete && walk.complete) walked('walk-complete');
    },
    (t) => walk.onTrace(t),
    (stop) => (stopWhenWalked = stop),
    opts.timeoutMs ?? 30000,
    15000,
    opts.onRawChunk,
    // The runtime answers the walk's session only once its induced GC has walked the heap
    // (heap-snapshots.md §1: 5.5 s at 12 M objects on an idle machine).
    120_000,
    // The walk's GCEnd in stream order: the time sort would hold it (and the events before it)
    // until a sequence point a small walk never reaches (heap/walk-end.ts). Stopping then makes the
    // runtime flush the rest and end the stream, and the reader release everything to `walk`.
    (md, bytes, start, size) => {
      if (endWatch.onArrival(md, bytes, start, size)) walked('walk-ended');
    },
  );
  if (!walk.started)
    throw new HeapWalkError(
      'no-walk',
      `process ${pid} wrote no heap walk within ${Math.round((opts.timeoutMs ?? 30000) / 1000)} s: is it a .NET process with a managed heap (not NativeAOT)?`,
    );
  const sessionMs = Date.now() - started;
  opts.onPhase?.('building');
  const buildStart = Date.now();
  const key = runtimeKey(info.processId, info.runtimeCookie);
  const r = walk.build(droppedEvents, opts.typeCache?.typesOf(key));
  opts.typeCache?.remember(key, walk.describedTypes());
  const buildMs = Date.now() - buildStart;
  const procName = (info.managedEntrypointAssemblyName || null) ?? processNameFromCommandLine(info.commandLine) ?? `pid ${info.processId}`;
  return {
    graph: r.graph,
    processId: info.processId,
    processName: procName,
    commandLine: info.commandLine,
    runtimeVersion: info.clrProductVersion?.replace(/[+-].*$/, '') ?? null,
    os: info.os,
    arch: info.arch,
    collectedAtMs: started,
    gcNumber: r.gcNumber,
    untypedObjects: r.untypedObjects,
    typesFromCache: r.typesFromCache,
    walkMs: (walkEnded || Date.now()) - started,
    sessionMs,
    buildMs,
    stoppedBy,
  };
}

export interface StoredSnapshot extends WrittenSnapshot {
  readonly sessionId: number;
  /** Where the time went (ms): the counters, the sessions, graph, analysis, .gcdump, store. */
  readonly timings: SnapshotTimings & { store: number };
}

export interface SnapshotTimings {
  /** Asking the runtime's counters for the heap's size at the last GC (before the pause). */
  readonly probe: number;
  /** The type-table flush and the walk's session, to its rundown drained. */
  readonly flushAndWalk: number;
  /** From the walk's session start to its GC end. */
  readonly walk: number;
  /** The walk's events → the graph. */
  readonly build: number;
  /** Dominators, retained sizes, paths, the types table. */
  readonly analysis: number;
  /** The .gcdump written. */
  readonly write: number;
}

/** A snapshot captured, analysed and written to its .gcdump, not yet stored as a session. */
export interface WrittenSnapshot {
  readonly file: string;
  readonly snapshot: CapturedSnapshot;
  readonly analysis: HeapAnalysis;
  readonly heapAtLastGc: number | undefined;
  readonly timings: SnapshotTimings;
}

/** What a snapshot is doing now (the app's progress line): the walk's counts, then the steps after it. */
export type SnapshotPhase = 'building' | 'analysing' | 'writing';

export interface TakeOptions extends CaptureOptions {
  /** The .gcdump to write (default: snapshots/ beside the database). */
  readonly out?: string;
  readonly name?: string;
  /** Said before the process is paused: its heap's size at the last GC (undefined when unknown). */
  readonly beforePause?: (heapAtLastGc: number | undefined) => void;
  /** Already asked (the app says it before the user's click takes the snapshot): not asked again. */
  readonly heapAtLastGc?: number;
  /** Each step after the walk, as it starts. */
  readonly onPhase?: (phase: SnapshotPhase) => void;
}

/**
 * The heap's size at the last GC (said before the pause), the capture, its analysis and the
 * .gcdump written to `opts.out` or into `snapshotsDir`. No database: the app runs this in its heap
 * worker and stores the session on the service's thread (storeSnapshot).
 */
export async function captureSnapshotToFile(pid: number, snapshotsDir: string, opts: TakeOptions = {}): Promise<WrittenSnapshot> {
  // A process that is not there (or not .NET) fails here, before anything is said about it.
  const t0 = Date.now();
  const heapAtLastGc =
    opts.heapAtLastGc ??
    (await lastGcHeapSize(pid).catch((e: unknown) => {
      if (e instanceof DiagnosticsError) throw e;
      return undefined;
    }));
  opts.beforePause?.(heapAtLastGc);
  const t1 = Date.now();
  const snap = await captureHeapSnapshot(pid, opts);
  const t2 = Date.now();
  opts.onPhase?.('analysing');
  const analysis = analyzeHeap(snap.graph);
  const t3 = Date.now();
  opts.onPhase?.('writing');
  const stamp = new Date(snap.collectedAtMs).toISOString().replace(/[:.]/g, '-');
  const file = resolve(opts.out ?? join(snapshotsDir, `${snap.processName}-${snap.processId}-${stamp}.gcdump`));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, writeGcdump(snap.graph, { processId: snap.processId, processName: snap.processName, collectedAtMs: snap.collectedAtMs }));
  const t4 = Date.now();
  const timings = {
    probe: t1 - t0,
    flushAndWalk: t2 - t1 - snap.buildMs,
    walk: snap.walkMs,
    build: snap.buildMs,
    analysis: t3 - t2,
    write: t4 - t3,
  };
  return { file, snapshot: snap, analysis, heapAtLastGc, timings };
}

/** The snapshot's row in the sessions: a session of kind 'heap' pointing at its .gcdump. */
export interface SnapshotToStore {
  readonly file: string;
  /** Its metadata; the graph stays where it was analysed. */
  readonly snapshot: Omit<CapturedSnapshot, 'graph'>;
  readonly heapAtLastGc: number | undefined;
  readonly totals: HeapAnalysis['totals'];
}

export async function storeSnapshot(db: Database, w: SnapshotToStore, name?: string): Promise<number> {
  const snap = w.snapshot;
  return saveHeapSnapshot(db, {
    name: name ?? `${snap.processName} (pid ${snap.processId}) heap ${new Date(snap.collectedAtMs).toISOString().slice(11, 19)}`,
    source: 'record',
    file: w.file,
    objects: w.totals.objects,
    bytes: w.totals.bytes,
    references: w.totals.references,
    gcNumber: snap.gcNumber,
    untypedObjects: snap.untypedObjects,
    walkMs: snap.walkMs,
    heapAtLastGc: w.heapAtLastGc ?? null,
    processId: snap.processId,
    processName: snap.processName,
    commandLine: snap.commandLine,
    runtimeVersion: snap.runtimeVersion,
    os: snap.os,
    arch: snap.arch,
    takenAtUtc: new Date(snap.collectedAtMs).toISOString(),
  });
}

/**
 * What `gcscope snapshot` does: the heap's size at the last GC (said before the pause), the
 * capture, the .gcdump written, and a session of kind 'heap' stored.
 */
export async function takeSnapshot(db: Database, pid: number, opts: TakeOptions = {}): Promise<StoredSnapshot> {
  const w = await captureSnapshotToFile(pid, join(dirname(db.path), 'snapshots'), opts);
  const t = Date.now();
  const sessionId = await storeSnapshot(db, { ...w, totals: w.analysis.totals }, opts.name);
  return { ...w, sessionId, timings: { ...w.timings, store: Date.now() - t } };
}
