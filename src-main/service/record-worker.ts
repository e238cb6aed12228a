/**
 * Worker-thread entry for live recordings, so decoding a busy process's EventPipe stream never
 * holds the thread that serves the UI (Electron's main process, or `gcscope serve`): the
 * diagnostics socket, the reader, the GC analysis and the row writes all run here, on the
 * worker's own connection to the database (WAL lets the main thread read the rows as they land).
 * The main thread sees a `WorkerRecording` (recording-host.ts): start, stop, cut and the batches.
 * A watch (Watch mode) runs here the same way (the same `createRecorder`), and posts its captures too.
 */
import { parentPort, workerData, type Transferable } from 'node:worker_threads';
import { Database } from '../store/db.js';
import { createRecorder, startError, type RecordWorkerData, type RecordWorkerMessage, type RecordWorkerRequest } from './recording-host.js';

async function run(): Promise<void> {
  const d = workerData as RecordWorkerData;
  const port = parentPort!;
  const post = (m: RecordWorkerMessage, transfer: Transferable[] = []): void => port.postMessage(m, transfer);
  const db = await Database.open(d.dbPath, { mapped: false });
  const rec = createRecorder(
    db,
    d,
    // A batch's columns are fresh arrays: moved to the service's thread, not copied.
    (batch) =>
      post(
        { type: 'batch', batch },
        Object.values(batch.gcs).map((a) => a.buffer as ArrayBuffer),
      ),
    (capture) => post({ type: 'capture', capture }),
  );
  try {
    await rec.start();
  } catch (e) {
    // The database is closed before saying so: the service may end this worker on the message.
    await db.close();
    const { code, message } = startError(e);
    post({ type: 'start-failed', code, message });
    port.close();
    return;
  }
  port.on('message', (m: RecordWorkerRequest) => {
    if (m.type === 'stop') void rec.stop();
    else void rec.cut(m.reason);
  });
  post({ type: 'started', sessionId: rec.sessionId, tracePath: rec.tracePath, downgrades: rec.downgrades });
  // The outcome is posted once the database is closed: the service may end this worker on it.
  let outcome: RecordWorkerMessage;
  try {
    await rec.done();
    outcome = { type: 'done' };
  } catch (e) {
    outcome = { type: 'failed', message: (e as Error).message };
  }
  await db.close().catch(() => undefined);
  post(outcome);
  port.close();
}

if (parentPort !== null) void run();
