/**
 * The heap snapshot work that takes seconds at 12 M objects — the capture (the walk's events
 * parsed as they arrive), the graph, dominators, retained sizes, paths, the .gcdump read and
 * written — and the views that read a whole graph (biggest retainers, paths to root). One
 * instance lives in the heap worker (heap-worker.ts) so the service's thread keeps answering
 * meanwhile; without the worker script (tests from source) HeapHost runs it on the calling thread.
 * No database here: the service stores the session and keeps the light results (totals, types).
 *
 * The last few analyses are kept by file (the .gcdump a session points at), so a view after the
 * snapshot was taken, or opened, reads the graph already in memory.
 */
import { findTypes, pathsForTypes, topRetainers, analyzeHeap, type HeapAnalysis, type HeapTotals, type Retainer, type TypeRow } from '../heap/analysis.js';
import { HeapWalkError } from '../heap/errors.js';
import { HeapTypeCache } from '../heap/type-cache.js';
import { captureSnapshotToFile, loadSnapshotFile, type SnapshotPhase, type SnapshotTimings, type SnapshotToStore } from '../recording/heap-snapshot.js';
import type { HeapWalkProgress } from '../heap/heap-walk.js';
import type { HeapPathView } from '../shared/heap-view.js';
import { ApiFailure } from './errors.js';

const KEEP = 3;
/**
 * Nodes kept beyond the two newest analyses (a diff needs two): about 55 B per node for the graph
 * and its analysis, so three 12 M-object snapshots would hold ~2 GB; past this the oldest goes.
 */
const KEEP_NODES = 26_000_000;

/** What a view needs without the graph: crosses back from the worker. */
export interface HeapSummary {
  readonly totals: HeapTotals;
  readonly types: readonly TypeRow[];
  readonly untypedObjects: number;
}

export interface HeapTakeRequest {
  readonly pid: number;
  readonly heapAtLastGc: number | null;
  /** Where the .gcdump goes (snapshots/ beside the database). */
  readonly snapshotsDir: string;
}

export interface HeapTaken extends HeapSummary {
  readonly stored: SnapshotToStore;
  readonly timings: SnapshotTimings;
}

/** Progress of a snapshot being taken: the walk's counts so far, then the step after it. */
export interface HeapTakeProgress {
  readonly phase: 'walking' | SnapshotPhase;
  readonly objects: number;
  readonly bytes: number;
}

function summaryOf(a: HeapAnalysis, untypedObjects: number): HeapSummary {
  return { totals: a.totals, types: a.types, untypedObjects };
}

export class HeapJobs {
  private readonly cache = new Map<string, Promise<{ analysis: HeapAnalysis; untyped: number }>>();
  /** Node counts of the analyses kept, once made. */
  private readonly nodes = new Map<string, number>();
  /** Type names of each process's earlier walks: a walk during a recording is not told them again. */
  private readonly types = new HeapTypeCache();

  async take(r: HeapTakeRequest, onProgress: (p: HeapTakeProgress) => void): Promise<HeapTaken> {
    let last: HeapWalkProgress = { objects: 0, bytes: 0, references: 0, complete: false };
    let shown = 0;
    try {
      const w = await captureSnapshotToFile(r.pid, r.snapshotsDir, {
        ...(r.heapAtLastGc !== null ? { heapAtLastGc: r.heapAtLastGc } : {}),
        typeCache: this.types,
        onProgress: (p) => {
          last = p;
          // Five a second is enough for a progress line; the walk sends one per BulkNode event.
          const now = Date.now();
          if (now - shown < 200 && !p.complete) return;
          shown = now;
          onProgress({ phase: 'walking', objects: p.objects, bytes: p.bytes });
        },
        onPhase: (phase) => onProgress({ phase, objects: last.objects, bytes: last.bytes }),
      });
      this.keep(w.file, Promise.resolve({ analysis: w.analysis, untyped: w.snapshot.untypedObjects }));
      // The graph stays here (kept above); only its metadata crosses to the service.
      const { graph: _graph, ...snapshot } = w.snapshot;
      return {
        ...summaryOf(w.analysis, w.snapshot.untypedObjects),
        stored: { file: w.file, heapAtLastGc: w.heapAtLastGc, totals: w.analysis.totals, snapshot },
        timings: w.timings,
      };
    } catch (e) {
      if (e instanceof HeapWalkError) throw new ApiFailure(e.code, e.message[0]!.toUpperCase() + e.message.slice(1) + '.');
      throw e;
    }
  }

  /** The snapshot in `file` analysed (kept for the next view). */
  async summary(file: string, untypedObjects = 0): Promise<HeapSummary> {
    const { analysis, untyped } = await this.load(file);
    return summaryOf(analysis, Math.max(untyped, untypedObjects));
  }

  async dominators(file: string, top: number, depth: number, fanout: number): Promise<Retainer[]> {
    return topRetainers((await this.load(file)).analysis, top, depth, fanout);
  }

  async paths(file: string, typeName: string, top: number): Promise<HeapPathView[]> {
    const { analysis } = await this.load(file);
    const types = findTypes(analysis, typeName);
    if (types.length === 0) throw new ApiFailure('not-found', `No type named "${typeName}" in this snapshot.`);
    return pathsForTypes(
      analysis,
      types.map((t) => t.type),
      top,
    ).map((p) => ({ instances: p.instances, nodes: p.path.map((n) => ({ name: n.name, bytes: n.bytes, retainedBytes: n.retainedBytes })) }));
  }

  forget(file: string): void {
    this.cache.delete(file);
    this.nodes.delete(file);
  }

  private load(file: string): Promise<{ analysis: HeapAnalysis; untyped: number }> {
    let p = this.cache.get(file);
    if (p === undefined) {
      p = (async () => {
        let loaded;
        try {
          loaded = await loadSnapshotFile(file);
        } catch (e) {
          throw new ApiFailure('bad-input', `The snapshot's file ${file} cannot be read: ${e instanceof Error ? e.message : String(e)}.`);
        }
        return { analysis: analyzeHeap(loaded.graph), untyped: loaded.untypedObjects };
      })();
      this.keep(file, p);
    } else {
      // Most recently used last.
      this.cache.delete(file);
      this.cache.set(file, p);
    }
    return p;
  }

  private keep(file: string, p: Promise<{ analysis: HeapAnalysis; untyped: number }>): void {
    this.cache.delete(file);
    this.cache.set(file, p);
    p.then(
      (a) => {
        this.nodes.set(file, a.analysis.graph.nodeCount);
        this.trim();
      },
      () => this.cache.delete(file),
    );
    this.trim();
  }

  private trim(): void {
    const total = (): number => [...this.cache.keys()].reduce((sum, f) => sum + (this.nodes.get(f) ?? 0), 0);
    while (this.cache.size > KEEP || (this.cache.size > 2 && total() > KEEP_NODES)) {
      const oldest = this.cache.keys().next().value!;
      this.cache.delete(oldest);
      this.nodes.delete(oldest);
    }
  }
}
