/**
 * A live recording as the service holds it: in a worker thread (record-worker.ts, bundled as
 * dist/record-worker.mjs) when the script is there, so the UI's thread never decodes; in this
 * thread otherwise (tests running from source). Both behave the same to the service: start, the
 * batches through `onBatch`, stop, cut, done.
 */
import { Worker } from 'node:worker_threads';
import type { ProfileName } from '../diagnostics/profiles.js';
import { LiveRecorder } from '../recording/live-recorder.js';
import type { LiveBatch } from '../shared/gc-series.js';
import type { Database } from '../store/db.js';
import type { CaptureInfo, WatchSettings } from '../shared/capture.js';

export interface RecordWorkerData {
  dbPath: string;
  pid: number;
  profile: string;
  outDir: string;
  /** A watch (the flight recorder) instead of a recording; outDir is then its captures folder. */
  watch?: WatchSettings;
}

export type RecordWorkerRequest = { type: 'stop' } | { type: 'cut'; reason: string };

export type RecordWorkerMessage =
  | { type: 'started'; sessionId: number; tracePath: string; downgrades: string[] }
  | { type: 'start-failed'; code: string | null; message: string }
  | { type: 'batch'; batch: LiveBatch }
  | { type: 'capture'; capture: CaptureInfo }
  | { type: 'done'; gcCount: number; status: string }
  | { type: 'failed'; message: string };

/** Attaching failed; `code` is the diagnostics error code when there is one. */
export class RecordingStartError extends Error {
  constructor(
    readonly code: string | null,
    message: string,
  ) {
    super(message);
  }
}

export interface Recording {
  readonly sessionId: number;
  readonly tracePath: string;
  readonly downgrades: string[];
  /** Attaches; resolves once events flow (rejects with RecordingStartError). */
  start(): Promise<void>;
  /** Asks the target to stop and drains the stream; resolves when the session is stored. */
  stop(): Promise<void>;
  /** Closes the stream without waiting for the target; resolves when the session is stored. */
  cut(reason: string): Promise<void>;
  /** Resolves when the recording has ended and is stored (rejects if it could not be finished). */
  done(): Promise<void>;
  /** Ends the worker at once (the service is closing and the recording did not end in time). */
  terminate(): void;
}

export interface RecordingOptions {
  db: Database;
  pid: number;
  profile: ProfileName;
  outDir: string;
  onBatch: (b: LiveBatch) => void;
  /** A watch (the flight recorder) instead of a recording, and where its captures are told. */
  watch?: WatchSettings;
  onCapture?: (c: CaptureInfo) => void;
  /** dist/record-worker.mjs; the recording runs in this thread when absent. */
  workerScript?: string;
}

export function openRecording(o: RecordingOptions, inThread: (o: RecordingOptions) => Recording = (x) => new ThreadRecording(x)): Recording {
  return o.workerScript !== undefined ? new WorkerRecording(o, o.workerScript) : inThread(o);
}

class ThreadRecording implements Recording {
  private readonly rec: LiveRecorder;
  constructor(o: RecordingOptions) {
    this.rec = new LiveRecorder(o.db, { target: { pid: o.pid }, profile: o.profile, outDir: o.outDir, onBatch: o.onBatch });
  }
  get sessionId(): number {
    return this.rec.sessionId;
  }
  get tracePath(): string {
    return this.rec.tracePath;
  }
  get downgrades(): string[] {
    return this.rec.downgrades;
  }
  async start(): Promise<void> {
    try {
      await this.rec.start();
    } catch (e) {
      throw new RecordingStartError((e as { code?: string }).code ?? null, (e as Error).message);
    }
  }
  async stop(): Promise<void> {
    await this.rec.stop('stopped');
  }
  async cut(reason: string): Promise<void> {
    await this.rec.cut(reason);
  }
  async done(): Promise<void> {
    await this.rec.done();
  }
  terminate(): void {
    // Nothing runs apart from this thread.
  }
}

class WorkerRecording implements Recording {
  sessionId = 0;
  tracePath = '';
  downgrades: string[] = [];
  private worker: Worker | undefined;
  private readonly ended: Promise<void>;
  private settle!: { resolve: () => void; reject: (e: Error) => void };

  constructor(
    private readonly o: RecordingOptions,
    private readonly script: string,
  ) {
    this.ended = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // Observed by done(); a rejection nobody awaits must not crash the process.
    this.ended.catch(() => undefined);
  }

  start(): Promise<void> {
    const data: RecordWorkerData = { dbPath: this.o.db.path, pid: this.o.pid, profile: this.o.profile, outDir: this.o.outDir, ...(this.o.watch !== undefined ? { watch: this.o.watch } : {}) };
    const w = new Worker(this.script, { workerData: data });
    this.worker = w;
    return new Promise<void>((resolve, reject) => {
      let started = false;
      w.on('message', (m: RecordWorkerMessage) => {
        if (m.type === 'started') {
          started = true;
          this.sessionId = m.sessionId;
          this.tracePath = m.tracePath;
          this.downgrades = m.downgrades;
          resolve();
        } else if (m.type === 'start-failed') reject(new RecordingStartError(m.code, m.message));
        else if (m.type === 'batch') this.o.onBatch(m.batch);
        else if (m.type === 'capture') this.o.onCapture?.(m.capture);
        else if (m.type === 'done') this.settle.resolve();
        else this.settle.reject(new Error(m.message));
      });
      w.on('error', (e) => {
        if (!started) reject(new RecordingStartError(null, e.message));
        this.settle.reject(e);
      });
      w.on('exit', (code) => {
        if (!started) reject(new RecordingStartError(null, `the recording worker exited (code ${code}) before attaching`));
        // After 'done' this changes nothing; otherwise the recording can no longer finish.
        this.settle.reject(new Error(`the recording worker exited (code ${code}) before the session was stored`));
      });
    });
  }

  stop(): Promise<void> {
    this.worker?.postMessage({ type: 'stop' } satisfies RecordWorkerRequest);
    return this.ended;
  }

  cut(reason: string): Promise<void> {
    this.worker?.postMessage({ type: 'cut', reason } satisfies RecordWorkerRequest);
    return this.ended;
  }

  done(): Promise<void> {
    return this.ended;
  }

  terminate(): void {
    void this.worker?.terminate();
  }
}
