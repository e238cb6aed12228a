/**
 * Worker-thread entry for imports, so decoding a large trace never blocks the thread that serves
 * the UI (Electron's main process, or `gcscope serve`). It opens its own connection to the
 * database (WAL lets the main thread read while it writes) and reports progress.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database } from '../store/db.js';
import { toApiError } from './errors.js';
import { importTrace, importTraceProcesses, overallProgress } from '../recording/importer.js';
import { runInBackground } from './thread-priority.js';

export interface ImportWorkerData {
  dbPath: string;
  path: string;
  force: boolean;
  name?: string;
  sessionId?: number;
  processIds?: number[];
}

export type ImportWorkerMessage =
  | { type: 'session'; sessionId: number }
  | { type: 'progress'; fileBytes: number; fileSize: number }
  | { type: 'done'; sessionId: number; sessionIds: number[] }
  | { type: 'error'; code: string; message: string; existingSessionId?: number };

async function run(): Promise<void> {
  // An import of a large trace runs behind the page the user browses meanwhile (thread-priority.ts).
  runInBackground();
  const d = workerData as ImportWorkerData;
  const post = (m: ImportWorkerMessage): void => parentPort!.postMessage(m);
  const db = await Database.open(d.dbPath, { mapped: false });
  try {
    let last = 0;
    const common = {
      force: d.force,
      ...(d.name !== undefined ? { name: d.name } : {}),
      onSession: (sessionId: number) => post({ type: 'session', sessionId }),
      onProgress: (q: { fileBytes: number; fileSize: number; pass?: number; passes?: number }) => {
        const p = overallProgress(q);
        const now = Date.now();
        if (now - last > 100 || p.fileBytes === p.fileSize) {
          last = now;
          post({ type: 'progress', fileBytes: p.fileBytes, fileSize: p.fileSize });
        }
      },
    };
    // A re-import is of one stored session; a new import of a machine-wide trace, a session per process chosen.
    const rs =
      d.sessionId !== undefined
        ? [await importTrace(db, d.path, { ...common, sessionId: d.sessionId })]
        : await importTraceProcesses(db, d.path, { ...common, ...(d.processIds !== undefined ? { processIds: d.processIds } : {}) });
    post({ type: 'done', sessionId: rs[0]!.sessionId, sessionIds: rs.map((r) => r.sessionId) });
  } catch (e) {
    const err = e as Error & { existing?: { id: number } };
    const api = err.name === 'DuplicateImportError' ? { code: 'duplicate', message: err.message } : toApiError(e);
    post({ type: 'error', code: api.code, message: api.message, ...(err.existing !== undefined ? { existingSessionId: err.existing.id } : {}) });
  } finally {
    await db.close();
  }
}

if (parentPort !== null) void run();
