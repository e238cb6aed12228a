/**
 * Import jobs for the app: each runs in a worker thread (import-worker.ts, beside it) so the UI
 * thread stays responsive, reports progress as events, and can be cancelled (the worker is
 * terminated and the half-written session removed). Where the worker script is not available
 * (tests running from sources), the import runs in this thread instead.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ApiError, ImportProgress } from '../shared/contract.js';
import type { Database } from '../store/db.js';
import { deleteSession } from '../store/sessions.js';
import { importTrace, importTraceProcesses, overallProgress } from '../recording/importer.js';
import type { ImportWorkerMessage } from './import-worker.js';
import { toApiError } from './errors.js';

export interface ImportRequest {
  path: string;
  force: boolean;
  name?: string;
  sessionId?: number;
  /** A machine-wide trace: the processes to store, a session each (default: every .NET process with GCs). */
  processIds?: number[];
}

interface Job {
  id: string;
  /** The session the import writes (known once the worker has created it). */
  sessionId: number | undefined;
  /** A re-import into an existing session must not delete it when cancelled. */
  reimport: boolean;
  worker: Worker | undefined;
  abort: AbortController;
  cancelled: boolean;
}

export class ImportJobs {
  private readonly jobs = new Map<string, Job>();

  constructor(
    private readonly db: Database,
    private readonly workerScript: string | undefined,
    private readonly onProgress: (p: ImportProgress) => void,
  ) {}

  start(req: ImportRequest): string {
    const id = randomUUID();
    const job: Job = { id, sessionId: undefined, reimport: req.sessionId !== undefined, worker: undefined, abort: new AbortController(), cancelled: false };
    this.jobs.set(id, job);
    const finish = (sessionId: number | undefined, error: ApiError | undefined, fileSize = 0, sessionIds?: number[]): void => {
      this.jobs.delete(id);
      this.onProgress({
        jobId: id,
        fileBytes: fileSize,
        fileSize,
        done: true,
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(sessionIds !== undefined ? { sessionIds } : {}),
        ...(error !== undefined ? { error } : {}),
      });
    };
    let size = 0;
    if (this.workerScript !== undefined && existsSync(this.workerScript)) {
      const w = new Worker(this.workerScript, { workerData: { dbPath: this.db.path, ...req } });
      job.worker = w;
      w.on('message', (m: ImportWorkerMessage) => {
        if (m.type === 'session') job.sessionId = m.sessionId;
        else if (m.type === 'progress') {
          size = m.fileSize;
          this.onProgress({ jobId: id, fileBytes: m.fileBytes, fileSize: m.fileSize, done: false });
        } else if (m.type === 'done') finish(m.sessionId, undefined, size, m.sessionIds);
        else finish(m.existingSessionId, { code: m.code, message: m.message }, size);
      });
      w.on('error', (e) => finish(undefined, { code: 'error', message: e.message }, size));
      w.on('exit', () => {
        if (job.cancelled) {
          void this.cleanupCancelled(job);
          finish(undefined, { code: 'cancelled', message: 'the import was cancelled' }, size);
        }
      });
    } else {
      const onProgress = (p: { fileBytes: number; fileSize: number; pass?: number; passes?: number }): void => {
        const { fileBytes, fileSize } = overallProgress(p);
        size = fileSize;
        this.onProgress({ jobId: id, fileBytes, fileSize, done: false });
      };
      const common = {
        force: req.force,
        signal: job.abort.signal,
        ...(req.name !== undefined ? { name: req.name } : {}),
        onSession: (sessionId: number) => (job.sessionId = sessionId),
        onProgress,
      };
      // A re-import is of one stored session (its process, for a machine-wide trace); a new import
      // of a machine-wide trace stores a session per process chosen.
      const run =
        req.sessionId !== undefined
          ? importTrace(this.db, req.path, { ...common, sessionId: req.sessionId }).then((r) => [r])
          : importTraceProcesses(this.db, req.path, { ...common, ...(req.processIds !== undefined ? { processIds: req.processIds } : {}) });
      void run.then(
        (rs) =>
          finish(
            rs[0]?.sessionId,
            undefined,
            size,
            rs.map((r) => r.sessionId),
          ),
        // A cancelled in-thread import leaves nothing behind (the importer deletes a new session).
        (e: Error & { existing?: { id: number } }) =>
          finish(
            e.existing?.id,
            job.cancelled
              ? { code: 'cancelled', message: 'the import was cancelled' }
              : e.name === 'DuplicateImportError'
                ? { code: 'duplicate', message: e.message }
                : toApiError(e),
            size,
          ),
      );
    }
    return id;
  }

  cancel(id: string): void {
    const job = this.jobs.get(id);
    if (job === undefined) return;
    job.cancelled = true;
    job.abort.abort();
    void job.worker?.terminate();
  }

  /** A terminated worker leaves its half-written session behind: remove it (or mark a re-import failed). */
  private async cleanupCancelled(job: Job): Promise<void> {
    if (job.sessionId === undefined) return;
    if (job.reimport) {
      const { updateSession } = await import('../store/sessions.js');
      await updateSession(this.db, job.sessionId, {
        status: 'failed',
        statusReason: 're-import cancelled; re-import again to rebuild this session',
        recorderPid: null,
      }).catch(() => undefined);
    } else await deleteSession(this.db, job.sessionId).catch(() => undefined);
  }

  get active(): number {
    return this.jobs.size;
  }
}
