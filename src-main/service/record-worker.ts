/**
 * Worker-thread entry for live recordings, so decoding a busy process's EventPipe stream never
 * holds the thread that serves the UI (Electron's main process, or `gcscope serve`): the
 * diagnostics socket, the reader, the GC analysis and the row writes all run here, on the
 * worker's own connection to the database (WAL lets the main thread read the rows as they land).
 * The main thread sees a `WorkerRecording` (recording-host.ts): start, stop, cut and the batches.
 * A watch (Watch mode) runs here the same way, and posts its captures too.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ProfileName } from '../diagnostics/profiles.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { LiveRecorder } from '../recording/live-recorder.js';
import { Database } from '../store/db.js';
import type { LiveBatch } from '../shared/gc-series.js';
import { Watcher } from '../watch/watcher.js';
import type { RecordWorkerData, RecordWorkerMessage, RecordWorkerRequest } from './recording-host.js';

async function run(): Promise<void> {
  const d = workerData as RecordWorkerData;
  const port = parentPort!;
  const post = (m: RecordWorkerMessage): void => port.postMessage(m);
  const db = await Database.open(d.dbPath, { mapped: false });
  const onBatch = (batch: LiveBatch): void => post({ type: 'batch', batch });
  // A watch (the flight recorder) runs here too: its ring must see the stream where it arrives.
  const rec =
    d.watch !== undefined
      ? new WatchOnWorker(new Watcher(db, { ...d.watch, reattach: false, pid: d.pid, outDir: d.outDir, onBatch, onCapture: (capture) => post({ type: 'capture', capture }) }))
      : new LiveRecorder(db, { target: { pid: d.pid }, profile: d.profile as ProfileName, outDir: d.outDir, onBatch });
  try {
    await rec.start();
  } catch (e) {
    // The database is closed before saying so: the service may end this worker on the message.
    await db.close();
    post({ type: 'start-failed', code: e instanceof DiagnosticsError ? e.code : null, message: (e as Error).message });
    port.close();
    return;
  }
  port.on('message', (m: RecordWorkerRequest) => {
    if (m.type === 'stop') void rec.stop('stopped');
    else void rec.cut(m.reason);
  });
  post({ type: 'started', sessionId: rec.sessionId, tracePath: rec.tracePath, downgrades: rec.downgrades });
  // The outcome is posted once the database is closed: the service may end this worker on it.
  let outcome: RecordWorkerMessage;
  try {
    const r = await rec.done();
    outcome = { type: 'done', gcCount: r.gcCount, status: r.status };
  } catch (e) {
    outcome = { type: 'failed', message: (e as Error).message };
  }
  await db.close().catch(() => undefined);
  post(outcome);
  port.close();
}

/** A watch seen as the recorder the worker drives (start, stop, cut, done). */
class WatchOnWorker {
  constructor(private readonly w: Watcher) {}
  get sessionId(): number {
    return this.w.sessionId;
  }
  get tracePath(): string {
    return '';
  }
  get downgrades(): string[] {
    return this.w.downgrades;
  }
  start(): Promise<void> {
    return this.w.start();
  }
  stop(): Promise<unknown> {
    return this.w.stop();
  }
  cut(reason: string): Promise<unknown> {
    return this.w.cut(reason);
  }
  async done(): Promise<{ gcCount: number; status: string }> {
    const r = await this.w.done();
    return { gcCount: r.lastRecording?.gcCount ?? 0, status: r.lastRecording?.status ?? 'complete' };
  }
}

if (parentPort !== null) void run();
