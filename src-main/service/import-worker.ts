/**
 * Worker-thread entry for imports, so decoding a large trace never blocks the thread that serves
 * the UI (Electron's main process, or `gcscope serve`). It opens its own connection to the
 * database (WAL lets the main thread read while it writes) and reports progress.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../store/db.js';
import { toApiError } from './errors.js';
import { importTrace } from '../recording/importer.js';
import { runInBackground } from './thread-priority.js';

export interface ImportWorkerData {
  dbPath: string;
  path: string;
  force: boolean;
  name?: string;
  sessionId?: number;
}

export type ImportWorkerMessage =
  | { type: 'session'; sessionId: number }
  | { type: 'progress'; fileBytes: number; fileSize: number }
  | { type: 'done'; sessionId: number }
  | { type: 'error'; code: string; message: string; existingSessionId?: number };

async function run(): Promise<void> {
  // An import of a large trace runs behind the page the user browses meanwhile (thread-priority.ts).
  runInBackground();
  const d = workerData as ImportWorkerData;
  const post = (m: ImportWorkerMessage): void => parentPort!.postMessage(m);
  const db = await Database.open(d.dbPath, { mapped: false });
  try {
    let last = 0;
    const r = await importTrace(db, d.path, {
      force: d.force,
      ...(d.name !== undefined ? { name: d.name } : {}),
      ...(d.sessionId !== undefined ? { sessionId: d.sessionId } : {}),
      onSession: (sessionId) => post({ type: 'session', sessionId }),
      onProgress: (p) => {
        const now = Date.now();
        if (now - last > 100 || p.fileBytes === p.fileSize) {
          last = now;
          post({ type: 'progress', fileBytes: p.fileBytes, fileSize: p.fileSize });
        }
      },
    });
    post({ type: 'done', sessionId: r.sessionId });
  } catch (e) {
    const err = e as Error & { existing?: { id: number } };
    const api = err.name === 'DuplicateImportError' ? { code: 'duplicate', message: err.message } : toApiError(e);
    post({ type: 'error', code: api.code, message: api.message, ...(err.existing !== undefined ? { existingSessionId: err.existing.id } : {}) });
  } finally {
    await db.close();
  }
}

if (parentPort !== null) void run();
