/**
 * A live recording (or a watch) as the service holds it: in a worker thread (record-worker.ts,
 * bundled as dist/record-worker.mjs) when the script is there, so the UI's thread never decodes;
 * in this thread otherwise (tests running from source). Both behave the same to the service:
 * start, the batches through `onBatch`, stop, cut, done. Whatever records — `LiveRecorder` or
 * the flight recorder's `Watcher` — is a `Recorder` (recording/recorder.ts), made by
 * `createRecorder` in both places, so there is one adapter for the two kinds and the two threads.
 */
import { Worker } from 'node:worker_threads';
import type { ProfileName } from '../diagnostics/profiles.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { LiveRecorder } from '../recording/live-recorder.js';
import type { Recorder } from '../recording/recorder.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { LiveBatch } from '../shared/gc-series.js';
import type { Database } from '../store/db.js';
import type { CaptureInfo, WatchSettings } from '../shared/capture.js';
import { Watcher } from '../watch/watcher.js';

/** What to record: the same in this thread and in the worker's data. */
export interface RecorderSpec {
  pid: number;
  profile: ProfileName;
  outDir: string;
  /** A watch (the flight recorder) instead of a recording; outDir is then its captures folder. */
  watch?: WatchSettings;
}

export interface RecordWorkerData extends RecorderSpec {
  dbPath: string;
}

export type RecordWorkerRequest = { type: 'stop' } | { type: 'cut'; reason: string };

export type RecordWorkerMessage =
  | { type: 'started'; sessionId: number; tracePath: string; downgrades: string[] }
  | { type: 'start-failed'; code: string | null; message: string }
  | { type: 'batch'; batch: LiveBatch<GcColumns> }
  | { type: 'capture'; capture: CaptureInfo }
  | { type: 'done' }
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

/** Why `start()` failed, as the service reports it (the same from the worker and this thread). */
export function startError(e: unknown): RecordingStartError {
  return new RecordingStartError(e instanceof DiagnosticsError ? e.code : null, (e as Error).message);
}

/**
 * The recorder for `s` on `db`: a watch runs where a recording does (its ring must see the
 * stream where it arrives); reattaching is left to `gcscope watch` — a new process is a new
 * session, which the app opens from the process list.
 */
export function createRecorder(db: Database, s: RecorderSpec, onBatch: (b: LiveBatch<GcColumns>) => void, onCapture?: (c: CaptureInfo) => void): Recorder {
  return s.watch !== undefined
    ? new Watcher(db, { ...s.watch, reattach: false, pid: s.pid, outDir: s.outDir, onBatch, ...(onCapture !== undefined ? { onCapture } : {}) })
    : new LiveRecorder(db, { target: { pid: s.pid }, profile: s.profile, outDir: s.outDir, onBatch });
}

/** A recorder as the service holds it: the `Recorder` calls, start failures typed, and a way to end it at once. */
export interface Recording extends Recorder {
  /** Attaches; resolves once events flow (rejects with RecordingStartError). */
  start(): Promise<void>;
  /** Ends the worker at once (the service is closing and the recording did not end in time). */
  terminate(): void;
}

export interface RecordingOptions extends RecorderSpec {
  db: Database;
  onBatch: (b: LiveBatch<GcColumns>) => void;
  /** Where a watch's captures are told. */
  onCapture?: (c: CaptureInfo) => void;
  /** dist/record-worker.mjs; the recording runs in this thread when absent. */
  workerScript?: string;
}

export function openRecording(o: RecordingOptions): Recording {
  return o.workerScript !== undefined ? new WorkerRecording(o, o.workerScript) : new ThreadRecording(createRecorder(o.db, o, o.onBatch, o.onCapture));
}

/** In this thread: the recorder itself, with its start failures typed as the worker's are. */
class ThreadRecording implements Recording {
  constructor(private readonly rec: Recorder) {}
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
      throw startError(e);
    }
  }
  stop(): Promise<unknown> {
    return this.rec.stop();
  }
  cut(reason: string): Promise<unknown> {
    return this.rec.cut(reason);
  }
  done(): Promise<unknown> {
    return this.rec.done();
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
    const data: RecordWorkerData = {
      dbPath: this.o.db.path,
      pid: this.o.pid,
      profile: this.o.profile,
      outDir: this.o.outDir,
      ...(this.o.watch !== undefined ? { watch: this.o.watch } : {}),
    };
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
