/**
 * The app's heap snapshot views (issue 38): a snapshot session's analysis (dominators, retained
 * sizes, paths), made once per session and kept for the next view (the last few), and the
 * Snapshot action itself. The work that takes seconds — the capture, the graph, the analysis, the
 * .gcdump — runs in the heap worker (heap-host.ts) so the service keeps answering meanwhile; here
 * are the light results (totals, the types table) and the database.
 */
import { dirname, join } from 'node:path';
import { diffTypes } from '../heap/diff.js';
import type { Retainer } from '../heap/analysis.js';
import { moduleFileName } from '../heap/type-names.js';
import { lastGcHeapSize, storeSnapshot } from '../recording/heap-snapshot.js';
import type {
  HeapPathView,
  HeapRetainerView,
  HeapSnapshotTaken,
  HeapSummaryView,
  HeapTypeRowView,
  HeapTypesQuery,
  HeapTypesView,
} from '../shared/heap-view.js';
import type { HeapGrowthView } from '../shared/snapshot-marks.js';
import type { Database } from '../store/db.js';
import { getHeapSnapshot, heapSnapshotsOfProcess, type HeapSnapshotRecord } from '../store/heap-snapshots.js';
import { getSession } from '../store/sessions.js';
import { ApiFailure } from './errors.js';
import { HeapHost } from './heap-host.js';
import type { HeapSummary, HeapTakeProgress } from './heap-jobs.js';

const KEEP = 3;

type Loaded = { record: HeapSnapshotRecord; analysis: HeapSummary; untyped: number };

export interface HeapViewsOptions {
  /** dist/heap-worker.mjs; the heavy work runs on this thread when absent (tests from source). */
  readonly workerScript?: string;
  /** A snapshot being taken: the walk's counts so far, then the steps after it. */
  readonly onProgress?: (pid: number, p: HeapTakeProgress) => void;
}

export class HeapViews {
  private readonly cache = new Map<number, Promise<Loaded>>();
  private readonly taking = new Set<number>();
  private readonly host: HeapHost;

  constructor(
    private readonly db: Database,
    private readonly opts: HeapViewsOptions = {},
  ) {
    this.host = new HeapHost(opts.workerScript);
  }

  async heapSizeAtLastGc(pid: number): Promise<number | null> {
    return (await lastGcHeapSize(pid)) ?? null;
  }

  async take(pid: number, heapAtLastGc: number | null): Promise<HeapSnapshotTaken & { gcNumber: number }> {
    if (this.taking.has(pid)) throw new ApiFailure('busy', `A snapshot of process ${pid} is already being taken.`);
    this.taking.add(pid);
    try {
      const t = await this.host.take({ pid, heapAtLastGc, snapshotsDir: join(dirname(this.db.path), 'snapshots') }, (p) => this.opts.onProgress?.(pid, p));
      const sessionId = await storeSnapshot(this.db, t.stored);
      return { sessionId, objects: t.totals.objects, bytes: t.totals.bytes, gcNumber: t.stored.snapshot.gcNumber };
    } finally {
      this.taking.delete(pid);
    }
  }

  async close(): Promise<void> {
    await this.host.close();
  }

  private load(sessionId: number): Promise<Loaded> {
    let p = this.cache.get(sessionId);
    if (p === undefined) {
      p = (async () => {
        const session = await getSession(this.db, sessionId);
        if (session.kind !== 'heap') throw new ApiFailure('wrong-session-kind', `Session ${sessionId} is not a heap snapshot.`);
        const record = await getHeapSnapshot(this.db, sessionId);
        const analysis = await this.host.summary(record.file, record.untypedObjects);
        return { record, analysis, untyped: analysis.untypedObjects };
      })();
      this.cache.set(sessionId, p);
      p.catch(() => this.cache.delete(sessionId));
      while (this.cache.size > KEEP) this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }

  private async summary(sessionId: number, record: HeapSnapshotRecord, a: HeapSummary, untyped: number): Promise<HeapSummaryView> {
    const s = await getSession(this.db, sessionId);
    const others = s.processId !== null ? (await heapSnapshotsOfProcess(this.db, s.processId)).filter((o) => o.sessionId !== sessionId) : [];
    const refs = await Promise.all(others.map(async (o) => getSession(this.db, o.sessionId)));
    return {
      sessionId,
      objects: a.totals.objects,
      bytes: a.totals.bytes,
      references: record.references,
      unreachable: a.totals.unreachable,
      untypedObjects: untyped,
      heapAtLastGcBytes: record.heapAtLastGc,
      processId: s.processId,
      processName: s.processName,
      takenAt: s.traceStartUtc,
      file: record.file,
      others: refs.map((r) => ({ sessionId: r.id, name: r.name, takenAt: r.traceStartUtc })),
    };
  }

  async types(sessionId: number, q: HeapTypesQuery): Promise<HeapTypesView> {
    const { record, analysis: a, untyped } = await this.load(sessionId);
    let rows: HeapTypeRowView[];
    let diffBase: HeapTypesView['diffBase'] = null;
    if (q.diffWith !== null) {
      const base = await this.load(q.diffWith);
      const baseSession = await getSession(this.db, q.diffWith);
      diffBase = { sessionId: q.diffWith, name: baseSession.name, objects: base.analysis.totals.objects, bytes: base.analysis.totals.bytes };
      // Deltas are this snapshot minus the other: the other is "first" when it was taken earlier.
      rows = diffTypes(base.analysis.types, a.types).map((d) => ({ ...d, module: moduleFileName(d.module) }));
    } else
      rows = a.types.map((t) => ({
        name: t.name,
        fullName: t.fullName,
        module: moduleFileName(t.module),
        count: t.count,
        bytes: t.bytes,
        retainedBytes: t.retainedBytes,
      }));
    const modules = [...new Set(rows.map((r) => r.module))].filter((m) => m.length > 0).sort();
    const search = q.search?.toLowerCase() ?? '';
    const matching = rows.filter(
      (r) =>
        (search === '' || r.name.toLowerCase().includes(search) || r.fullName.toLowerCase().includes(search)) && (q.module === null || r.module === q.module),
    );
    const by: Record<HeapTypesQuery['sort'], (x: HeapTypeRowView, y: HeapTypeRowView) => number> = {
      retained: (x, y) => y.retainedBytes - x.retainedBytes,
      bytes: (x, y) => y.bytes - x.bytes,
      count: (x, y) => y.count - x.count,
      name: (x, y) => x.name.localeCompare(y.name),
      growth: (x, y) => (y.bytesDelta ?? 0) - (x.bytesDelta ?? 0) || (y.countDelta ?? 0) - (x.countDelta ?? 0),
    };
    matching.sort((x, y) => by[q.sort](x, y) || x.name.localeCompare(y.name));
    return { summary: await this.summary(sessionId, record, a, untyped), rows: matching.slice(0, q.limit), matching: matching.length, modules, diffBase };
  }

  async dominators(sessionId: number, top: number): Promise<HeapRetainerView[]> {
    const { record } = await this.load(sessionId);
    const view = (r: Retainer): HeapRetainerView => ({
      name: r.name,
      bytes: r.bytes,
      retainedBytes: r.retainedBytes,
      ...(r.address !== undefined ? { address: r.address } : {}),
      children: r.children.map(view),
    });
    return (await this.host.dominators(record.file, top, 3, 8)).map(view);
  }

  async paths(sessionId: number, typeName: string): Promise<HeapPathView[]> {
    const { record } = await this.load(sessionId);
    return this.host.paths(record.file, typeName, 10);
  }

  /**
   * The growing-live-set finding's cause: between two snapshots of one process (`before` taken
   * first), the types that grew most and the path from a root to the top grower — the same diff
   * and paths as the Diff and Paths views.
   */
  async growth(before: number, after: number, top = 5): Promise<HeapGrowthView> {
    const [b, a] = await Promise.all([getSession(this.db, before), getSession(this.db, after)]);
    const diff = await this.types(after, { search: null, module: null, sort: 'growth', diffWith: before, limit: 100_000 });
    const growers = diff.rows
      .filter((r) => (r.bytesDelta ?? 0) > 0 || ((r.bytesDelta ?? 0) === 0 && (r.countDelta ?? 0) > 0))
      .slice(0, top)
      .map((r) => ({
        name: r.name,
        count: r.count,
        bytes: r.bytes,
        countDelta: r.countDelta ?? 0,
        bytesDelta: r.bytesDelta ?? 0,
        retainedBytesDelta: r.retainedBytesDelta ?? 0,
      }));
    let topPath: HeapGrowthView['topPath'] = null;
    if (growers.length > 0) {
      const paths = await this.paths(after, growers[0]!.name).catch((e: unknown) => {
        if (e instanceof ApiFailure && e.code === 'not-found') return [];
        throw e;
      });
      const p = paths[0];
      if (p !== undefined) topPath = { type: growers[0]!.name, instances: p.instances, nodes: p.nodes.map((n) => ({ name: n.name })) };
    }
    const [bu, au] = await Promise.all([this.load(before), this.load(after)]);
    return {
      before: { sessionId: before, name: b.name, takenAt: b.traceStartUtc, untypedObjects: bu.untyped },
      after: { sessionId: after, name: a.name, takenAt: a.traceStartUtc, untypedObjects: au.untyped },
      growers,
      topPath,
    };
  }

  forget(sessionId: number): void {
    const p = this.cache.get(sessionId);
    this.cache.delete(sessionId);
    void p?.then((l) => this.host.forget(l.record.file)).catch(() => undefined);
  }
}
