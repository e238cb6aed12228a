/**
 * The service's side of the heap worker (heap-worker.ts, dist/heap-worker.mjs): each call is a
 * message, answered when the worker has done it, so the service's thread keeps answering the page
 * while a 12 M-object snapshot is walked, built, analysed and written. Progress of a snapshot being
 * taken comes back as it happens. Without the worker script (tests from source) the same jobs run
 * on this thread. A worker that dies (out of memory) fails what it was doing and is replaced on
 * the next call.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Retainer } from '../heap/analysis.js';
import { ApiFailure } from './errors.js';
import { HeapJobs, type HeapSummary, type HeapTaken, type HeapTakeProgress, type HeapTakeRequest } from './heap-jobs.js';
import type { HeapPathView } from '../shared/heap-view.js';

export type HeapRequest =
  | { id: number; kind: 'take'; request: HeapTakeRequest }
  | { id: number; kind: 'summary'; file: string; untypedObjects: number }
  | { id: number; kind: 'dominators'; file: string; top: number; depth: number; fanout: number }
  | { id: number; kind: 'paths'; file: string; typeName: string; top: number }
  | { id: number; kind: 'forget'; file: string };

export type HeapReply =
  { id: number; progress: HeapTakeProgress } | { id: number; ok: true; value: unknown } | { id: number; ok: false; code: string; message: string };

/** A request before it has its id. */
type HeapRequestBody = HeapRequest extends infer R ? (R extends HeapRequest ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: HeapTakeProgress) => void;
  timer: NodeJS.Timeout;
  /** The worker doing it: one that stops fails only its own jobs (a replaced one's exit comes late). */
  worker: Worker;
}

/**
 * 10 min: a 12 M-object snapshot takes ~10 s end to end and its views seconds; a job still running
 * after this is stuck, and every heap view behind it (the worker runs one thing at a time) would
 * wait for ever. The analysis worker has the same rule (analysis-runner.ts).
 */
export const DEFAULT_HEAP_JOB_TIMEOUT_MS = 600_000;

export interface HeapHostOptions {
  /** How long one job (of a kind) may run in the worker before it fails and the worker is replaced. */
  timeoutMs?: number | ((kind: HeapRequest['kind']) => number);
}

export class HeapHost {
  private worker: Worker | undefined;
  private local: HeapJobs | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly timeoutMs: (kind: HeapRequest['kind']) => number;

  constructor(
    private readonly script: string | undefined,
    opts: HeapHostOptions = {},
  ) {
    const t = opts.timeoutMs ?? DEFAULT_HEAP_JOB_TIMEOUT_MS;
    this.timeoutMs = typeof t === 'number' ? () => t : t;
  }

  /** True when the jobs run in a worker thread (the script exists). */
  get inWorker(): boolean {
    return this.script !== undefined && existsSync(this.script);
  }

  take(request: HeapTakeRequest, onProgress: (p: HeapTakeProgress) => void): Promise<HeapTaken> {
    return this.call({ kind: 'take', request }, onProgress) as Promise<HeapTaken>;
  }

  summary(file: string, untypedObjects: number): Promise<HeapSummary> {
    return this.call({ kind: 'summary', file, untypedObjects }) as Promise<HeapSummary>;
  }

  dominators(file: string, top: number, depth: number, fanout: number): Promise<Retainer[]> {
    return this.call({ kind: 'dominators', file, top, depth, fanout }) as Promise<Retainer[]>;
  }

  paths(file: string, typeName: string, top: number): Promise<HeapPathView[]> {
    return this.call({ kind: 'paths', file, typeName, top }) as Promise<HeapPathView[]>;
  }

  forget(file: string): void {
    if (this.worker !== undefined) void this.call({ kind: 'forget', file }).catch(() => undefined);
    this.local?.forget(file);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w !== undefined) await w.terminate();
  }

  private call(body: HeapRequestBody, onProgress?: (p: HeapTakeProgress) => void): Promise<unknown> {
    if (!this.inWorker) return this.runLocally(body, onProgress);
    const w = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const limit = this.timeoutMs(body.kind);
      const timer = setTimeout(() => this.timedOut(w, id, body.kind, limit), limit);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer, worker: w, ...(onProgress !== undefined ? { onProgress } : {}) });
      w.postMessage({ ...body, id });
    });
  }

  /**
   * A job ran past its time limit: it fails with a 'timeout' ApiFailure and the worker is
   * terminated (the jobs beside it fail as a stopped worker's do); the next call starts a new one.
   */
  private timedOut(w: Worker, id: number, kind: string, limitMs: number): void {
    const p = this.pending.get(id);
    if (p === undefined) return;
    this.pending.delete(id);
    const what = kind === 'take' ? 'taking the snapshot' : kind === 'summary' ? 'reading the snapshot' : `the ${kind} view`;
    p.reject(
      new ApiFailure(
        'timeout',
        `The heap snapshot's worker spent over ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`} on ${what} and was stopped; try again.`,
      ),
    );
    if (this.worker === w) this.worker = undefined;
    void w.terminate();
  }

  private runLocally(r: HeapRequestBody, onProgress?: (p: HeapTakeProgress) => void): Promise<unknown> {
    const jobs = (this.local ??= new HeapJobs());
    switch (r.kind) {
      case 'take':
        return jobs.take(r.request, onProgress ?? (() => undefined));
      case 'summary':
        return jobs.summary(r.file, r.untypedObjects);
      case 'dominators':
        return jobs.dominators(r.file, r.top, r.depth, r.fanout);
      case 'paths':
        return jobs.paths(r.file, r.typeName, r.top);
      case 'forget':
        jobs.forget(r.file);
        return Promise.resolve(undefined);
    }
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const w = new Worker(this.script!);
    w.on('message', (m: HeapReply) => {
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      if ('progress' in m) {
        p.onProgress?.(m.progress);
        return;
      }
      this.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok) p.resolve(m.value);
      else p.reject(new ApiFailure(m.code, m.message));
    });
    const fail = (why: string): void => {
      if (this.worker === w) this.worker = undefined;
      for (const [id, p] of this.pending) {
        if (p.worker !== w) continue;
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.reject(new ApiFailure('internal', `The heap snapshot's worker stopped (${why}); try again.`));
      }
    };
    w.on('error', (e) => fail(e.message));
    w.on('exit', (code) => fail(`exit code ${code}`));
    // The worker holds no request of its own: it does not keep the process alive.
    w.unref();
    this.worker = w;
    return w;
  }
}
