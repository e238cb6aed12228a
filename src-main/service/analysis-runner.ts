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

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export class AnalysisRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Keys of the finished sessions' column sets the worker holds (at most HELD). */
  private readonly held = new Lru<string, true>(HELD);
  /** The recording column set the worker holds until the next diagnosis. */
  private volatile: string[] = [];
  private failed = false;

  constructor(private readonly script: string | undefined) {}

  diagnose(job: DiagnosisJob): Promise<Diagnosis> {
    // Bad settings are the caller's error, thrown here with their own type (DiagnosisSettingsError).
    validateOverrides(job.overrides);
    const w = this.ensureWorker();
    if (w === undefined)
      return Promise.resolve(diagnose(job.columns, job.facts, { overrides: job.overrides, ...(job.range !== undefined ? { range: job.range } : {}) }));
    const id = this.nextId++;
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
    const req: DiagnoseRequest = {
      kind: 'diagnose',
      id,
      key,
      drop,
      facts: job.facts,
      overrides: job.overrides,
      ...(send ? { columns: job.columns } : {}),
      ...(job.range !== undefined ? { range: job.range } : {}),
    };
    return this.send(w, req) as Promise<Diagnosis>;
  }

  compare(a: CompareInput, b: CompareInput, options: Partial<ComparisonOptions>): Promise<Comparison> {
    const w = this.ensureWorker();
    if (w === undefined) return Promise.resolve(compareSessions(a, b, options));
    const narrow = (x: CompareInput): CompareInput => ({ ...x, columns: Object.fromEntries(COMPARE_KEYS.map((k) => [k, x.columns[k]])) as CompareColumns });
    const req: CompareRequest = { kind: 'compare', id: this.nextId++, a: narrow(a), b: narrow(b), options };
    return this.send(w, req) as Promise<Comparison>;
  }

  private send(w: Worker, req: AnalysisRequest): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.set(req.id, { resolve, reject });
      w.postMessage(req);
    });
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker !== undefined) return this.worker;
    if (this.failed || this.script === undefined || !existsSync(this.script)) return undefined;
    const w = new Worker(this.script);
    w.unref();
    w.on('message', (r: AnalysisReply) => {
      const p = this.pending.get(r.id);
      if (p === undefined) return;
      this.pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(new Error(`the analysis failed: ${r.message}`));
    });
    const fail = (e: Error): void => {
      // A dead worker: its requests fail, later ones run on this thread.
      this.failed = true;
      this.worker = undefined;
      this.held.clear();
      this.volatile = [];
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => {
      if (this.worker === w) fail(new Error(`the analysis worker exited (code ${code})`));
    });
    this.worker = w;
    return w;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w !== undefined) await w.terminate();
  }
}
