/**
 * Runs the session view's heavy analyses — findings and comparisons — in a worker thread
 * (analysis-worker.ts, bundled as dist/analysis-worker.mjs), in order, so the service thread keeps
 * answering the UI and relaying live batches meanwhile. Without the worker script (tests run from
 * source) they run on the calling thread, with the same answers.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { compareSessions, type CompareColumns, type CompareInput } from '../compare/comparison.js';
import { diagnose } from '../diagnosis/diagnose.js';
import type { DiagnosisFacts } from '../diagnosis/rule.js';
import { validateOverrides } from '../diagnosis/settings.js';
import type { Comparison, ComparisonOptions } from '../shared/comparison.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { Diagnosis, DiagnosisOverrides } from '../shared/finding.js';
import { Lru } from '../common/lru.js';
import type { AnalysisReply, AnalysisRequest, CompareRequest, DiagnoseRequest } from './analysis-worker.js';
import { packSpans, withUnpackedRequests } from '../requests/packed-spans.js';
import { ApiFailure } from './errors.js';

/** Column sets the worker keeps for diagnoses (finished sessions', most recently used). */
const HELD = 3;

/** The columns a comparison reads (CompareColumns): only these cross to the worker. */
const COMPARE_KEYS: readonly (keyof CompareColumns)[] = [
  'complete',
  'time',
  'number',
  'generation',
  'type',
  'reason',
  'pause',
  'allocated',
  'heapAfter',
  'heapPeak',
  'gen2',
  'loh',
  'heapCount',
];

export interface DiagnosisJob {
  /**
   * Identity of the columns: equal keys promise equal columns (a finished session's), so they are
   * sent once; null for columns that change (a recording's), sent every time.
   */
  key: string | null;
  columns: GcColumns;
  facts: DiagnosisFacts;
  overrides: DiagnosisOverrides;
  range?: { fromMSec: number; toMSec: number };
}

/** How long one analysis may run in the worker before it is stopped (DEFAULT_ANALYSIS_TIMEOUT_MS). */
export interface AnalysisRunnerOptions {
  timeoutMs?: number;
}

/**
 * 30 s: a diagnosis of 100,000 GCs takes about a second and a comparison a few; a request still
 * running after this is stuck, and the ones behind it must not wait for it for ever.
 */
export const DEFAULT_ANALYSIS_TIMEOUT_MS = 30_000;

/** A request waiting for the worker: built when it is sent (what the worker holds is known then). */
interface Job {
  build: (id: number) => AnalysisRequest;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class AnalysisRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Requests in order; the worker is sent one at a time, so each one's time limit is its own. */
  private readonly queue: Job[] = [];
  private current: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
  /** Keys of the finished sessions' column sets the worker holds (at most HELD). */
  private readonly held = new Lru<string, true>(HELD);
  /** The recording column set the worker holds until the next diagnosis. */
  private volatile: string[] = [];
  private failed = false;
  private readonly timeoutMs: number;

  constructor(
    private readonly script: string | undefined,
    opts: AnalysisRunnerOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_ANALYSIS_TIMEOUT_MS;
  }

  diagnose(job: DiagnosisJob): Promise<Diagnosis> {
    // Bad settings are the caller's error, thrown here with their own type (DiagnosisSettingsError).
    validateOverrides(job.overrides);
    if (!this.workerAvailable())
      return Promise.resolve(diagnose(job.columns, job.facts, { overrides: job.overrides, ...(job.range !== undefined ? { range: job.range } : {}) }));
    return this.enqueue((id) => {
      // A recording's columns are sent every time and forgotten with the next diagnosis.
      const drop = this.volatile;
      this.volatile = [];
      let key: string;
      let send: boolean;
      if (job.key === null) {
        key = `volatile:${id}`;
        send = true;
        this.volatile.push(key);
      } else {
        key = job.key;
        send = !this.held.has(key);
        drop.push(...this.held.set(key, true));
      }
      const { requests, ...facts } = job.facts;
      return {
        kind: 'diagnose',
        id,
        key,
        drop,
        facts,
        ...(requests !== undefined ? { requests: { spans: packSpans(requests.spans), pauses: requests.pauses } } : {}),
        overrides: job.overrides,
        ...(send ? { columns: job.columns } : {}),
        ...(job.range !== undefined ? { range: job.range } : {}),
      } satisfies DiagnoseRequest;
    }) as Promise<Diagnosis>;
  }

  compare(a: CompareInput, b: CompareInput, options: Partial<ComparisonOptions>): Promise<Comparison> {
    if (!this.workerAvailable()) return Promise.resolve(compareSessions(a, b, options));
    const narrow = (x: CompareInput): CompareInput => ({ ...x, columns: Object.fromEntries(COMPARE_KEYS.map((k) => [k, x.columns[k]])) as CompareColumns });
    const [na, nb] = [narrow(a), narrow(b)];
    return this.enqueue((id) => ({ kind: 'compare', id, a: na, b: nb, options }) satisfies CompareRequest) as Promise<Comparison>;
  }

  private workerAvailable(): boolean {
    return this.worker !== undefined || (!this.failed && this.script !== undefined && existsSync(this.script));
  }

  private enqueue(build: Job['build']): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ build, resolve, reject });
      this.pump();
    });
  }

  /** Sends the next request when none is running; without a worker (it failed) they run here. */
  private pump(): void {
    while (this.current === undefined && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const w = this.ensureWorker();
      const id = this.nextId++;
      const req = job.build(id);
      if (w === undefined) {
        try {
          job.resolve(answerHere(req));
        } catch (e) {
          job.reject(e as Error);
        }
        continue;
      }
      const timer = setTimeout(() => this.timedOut(id), this.timeoutMs);
      timer.unref();
      this.current = { id, job, timer };
      w.postMessage(req);
    }
  }

  /**
   * The request has run too long: it fails with a 'timeout' ApiFailure and the worker is
   * replaced (terminated, and a new one started for the next request), so the requests behind it
   * are answered.
   */
  private timedOut(id: number): void {
    const c = this.current;
    if (c === undefined || c.id !== id) return;
    this.current = undefined;
    const w = this.worker;
    this.worker = undefined;
    this.held.clear();
    this.volatile = [];
    if (w !== undefined) void w.terminate();
    c.job.reject(
      new ApiFailure(
        'timeout',
        `The analysis took longer than ${Math.round(this.timeoutMs / 1000)} s and was stopped. Choose a shorter time range or fewer settings changes, and try again.`,
      ),
    );
    this.pump();
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker !== undefined) return this.worker;
    if (this.failed || this.script === undefined || !existsSync(this.script)) return undefined;
    const w = new Worker(this.script);
    w.unref();
    w.on('message', (r: AnalysisReply) => {
      const c = this.current;
      if (this.worker !== w || c === undefined || c.id !== r.id) return;
      clearTimeout(c.timer);
      this.current = undefined;
      if (r.ok) c.job.resolve(r.value);
      else c.job.reject(new Error(`the analysis failed: ${r.message}`));
      this.pump();
    });
    const fail = (e: Error): void => {
      // A dead worker (not one replaced after a time-out): its request fails, later ones run on this thread.
      if (this.worker !== w) return;
      this.failed = true;
      this.worker = undefined;
      this.held.clear();
      this.volatile = [];
      const c = this.current;
      this.current = undefined;
      if (c !== undefined) {
        clearTimeout(c.timer);
        c.job.reject(e);
      }
      this.pump();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the analysis worker exited (code ${code})`)));
    this.worker = w;
    return w;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.failed = true;
    const c = this.current;
    this.current = undefined;
    const closed = new Error('the analysis was stopped: GCScope is closing');
    if (c !== undefined) {
      clearTimeout(c.timer);
      c.job.reject(closed);
    }
    for (const j of this.queue.splice(0)) j.reject(closed);
    if (w !== undefined) await w.terminate();
  }
}

/** A request answered on this thread (the worker failed to start or died). */
function answerHere(r: AnalysisRequest): unknown {
  if (r.kind === 'compare') return compareSessions(r.a, r.b, r.options);
  if (r.columns === undefined) throw new Error(`columns ${r.key} are not held`);
  return diagnose(r.columns, withUnpackedRequests(r.facts, r.requests), { overrides: r.overrides, ...(r.range !== undefined ? { range: r.range } : {}) });
}
