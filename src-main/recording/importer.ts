/**
 * `gcscope import`: file → reader → decoder → analyzer → store, streaming. Importing the same
 * file twice is detected (size + SHA-256 of its first and last MiB) and refused unless forced.
 * A truncated or damaged trace stores what was decoded and marks the session incomplete with the
 * reason; a file that is not a trace at all stores nothing.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { TraceDecodeError } from '../trace/errors.js';
import { StoreError, type Database } from '../store/db.js';
import { clearSessionRows, createSession, deleteSession, findByFingerprint, getSession, updateSession } from '../store/sessions.js';
import { WriteWorker } from '../store/write-worker-client.js';
import type { SessionInfo } from '../shared/session.js';
import { SessionPipeline, type PipelineSummary } from './session-pipeline.js';
import { checkRegularFile, fileStreamBytes, pumpTraceFile, TraceFileError, type ReadProgress } from './trace-file.js';
import { processesToImport } from './trace-processes.js';
import { processLabel } from '../shared/trace-process.js';

/** Write batches (one per FLUSH_BYTES of trace read) allowed to wait before decoding pauses. */
const MAX_WRITE_BATCHES_IN_FLIGHT = 16;
/**
 * Trace read between two batches, each one transaction. Each transaction rewrites the B-tree
 * pages its tables end in (WAL frames, then the checkpoint): a batch per 1 MB read chunk made the
 * import of a 1.1 GB trace 10.0-10.2 s, one per 4 MB 7.9-8.0 s, per 16 MB 7.4-7.7 s but 380-410 MB
 * of peak RSS.
 */
const FLUSH_BYTES = 4 << 20;
/**
 * The same with the writer thread, where a waiting batch is held twice (queued here and cloned
 * into the writer). 1.1 GB trace, 4 MB batches: 3 in flight 235 MB peak RSS, 6 in flight 246-262
 * MB, no slower (8.8-10.0 s against 8.4-9.8 s, two runs each at a varying load).
 */
const MAX_WRITE_BATCHES_IN_FLIGHT_TO_WRITER = 3;

export class DuplicateImportError extends Error {
  override readonly name = 'DuplicateImportError';
  constructor(readonly existing: SessionInfo) {
    super(`this file was already imported as session ${existing.id} (“${existing.name}”); use --force to import it again`);
  }
}

export interface ImportOptions {
  force?: boolean;
  /** A machine-wide trace: the process to store (trace-processes.ts lists them); its session is told from the file's others. */
  processId?: number;
  /** A zip holding several traces: the entry to read. */
  entry?: string;
  name?: string;
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
  /** Reuse an existing session row (crash recovery re-imports into the same session). */
  sessionId?: number;
  /** Called once the session row exists (before any event is read). */
  onSession?: (sessionId: number) => void;
  /** Write the column snapshot at the end when the session has at least this many GCs (default SNAPSHOT_AT_IMPORT_MIN_GCS). */
  snapshotMinGcs?: number;
  /**
   * The bundled store/write-worker.ts: GC rows of a file of at least `writeWorkerMinBytes` are
   * then written by that thread on its own connection (parameter binding off the decoding
   * thread). Not for ':memory:' databases.
   */
  writeWorkerScript?: string;
  /** Smallest file given to the writer thread (default WRITE_WORKER_MIN_BYTES). */
  writeWorkerMinBytes?: number;
}

/**
 * Below this the writer thread costs more than it saves: starting it (a V8 isolate, sqlite3
 * loaded, a connection opened) takes ~15 MB and tens of milliseconds, binding a small file's rows
 * about as long. The 104 MB benchmark trace binds ~650,000 values (~0.5 s).
 */
export const WRITE_WORKER_MIN_BYTES = 16 << 20;

export interface ImportResult extends PipelineSummary {
  sessionId: number;
}

/** Identifies a file's content cheaply: size + SHA-256 of its first and last MiB. */
export async function fileFingerprint(path: string): Promise<{ fingerprint: string; size: number }> {
  const { size } = await stat(path);
  const fh = await open(path, 'r');
  try {
    const h = createHash('sha256');
    h.update(String(size));
    const n = Math.min(size, 1 << 20);
    const buf = Buffer.allocUnsafe(n);
    await fh.read(buf, 0, n, 0);
    h.update(buf);
    if (size > n) {
      await fh.read(buf, 0, n, size - n);
      h.update(buf);
    }
    return { fingerprint: h.digest('hex'), size };
  } finally {
    await fh.close();
  }
}

export async function importTrace(db: Database, path: string, options: ImportOptions = {}): Promise<ImportResult> {
  const full = resolve(path);
  // Before anything opens it: a FIFO would block the fingerprint read forever.
  await checkRegularFile(path);
  let fp;
  try {
    fp = await fileFingerprint(full);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new TraceFileError(err.code === 'ENOENT' ? 'not-found' : 'io', `${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  // Re-imported into its session: of a machine-wide trace, that session's process (a one-process
  // format ignores the option).
  if (options.sessionId !== undefined && options.processId === undefined) {
    const pid = (await getSession(db, options.sessionId)).processId;
    if (pid !== null && pid > 0) options = { ...options, processId: pid };
  }
  // One file, several sessions (one per process, one per zip entry): each is its own import.
  fp.fingerprint += selectionSuffix(options);
  if (options.sessionId === undefined && options.force !== true) {
    const existing = await findByFingerprint(db, fp.fingerprint);
    if (existing !== undefined) throw new DuplicateImportError(existing);
  }
  const sessionId =
    options.sessionId ??
    (await createSession(db, {
      kind: 'gc',
      name: options.name ?? basename(full),
      source: 'import',
      status: 'recording',
      tracePath: full,
      fileSize: fp.size,
      fileFingerprint: fp.fingerprint,
      recorderPid: process.pid,
    }));
  if (options.sessionId !== undefined) {
    await clearSessionRows(db, sessionId);
    await updateSession(db, sessionId, { status: 'recording', statusReason: null, recorderPid: process.pid, fileSize: fp.size });
  }
  options.onSession?.(sessionId);
  const useWorker = options.writeWorkerScript !== undefined && db.path !== ':memory:' && fp.size >= (options.writeWorkerMinBytes ?? WRITE_WORKER_MIN_BYTES);
  const writer = useWorker ? new WriteWorker(options.writeWorkerScript!, db.path) : undefined;
  try {
    return await importInto(db, sessionId, full, options, writer);
  } finally {
    await writer?.close();
  }
}

/** What tells a selected part of a file from the file's other parts in its fingerprint ('' for the whole file). */
function selectionSuffix(o: ImportOptions): string {
  return `${o.entry !== undefined ? `:entry=${o.entry}` : ''}${o.processId !== undefined ? `:pid=${o.processId}` : ''}`;
}

async function importInto(db: Database, sessionId: number, full: string, options: ImportOptions, writer: WriteWorker | undefined): Promise<ImportResult> {
  const pipeline = new SessionPipeline(
    db,
    sessionId,
    {},
    {
      ...(writer !== undefined ? { sink: writer.sink } : {}),
      // Method names stay in the file until a frame needs one (a plain trace; a zip's are copied).
      stackOptions: { stream: await fileStreamBytes(full) },
      // The pipeline reads each event during the call and keeps none of the records.
      reuseRecords: true,
      ...(options.processId !== undefined ? { processId: options.processId } : {}),
      ...(options.snapshotMinGcs !== undefined ? { snapshotMinGcs: options.snapshotMinGcs } : {}),
    },
  );
  let flushedAt = 0;
  try {
    await pumpTraceFile(full, pipeline.reader, {
      signal: options.signal,
      ...(options.entry !== undefined ? { entry: options.entry } : {}),
      onProgress: (p) => {
        if (p.fileBytes - flushedAt >= FLUSH_BYTES) {
          flushedAt = p.fileBytes;
          void pipeline.flush();
        }
        options.onProgress?.(p);
      },
      // SQLite writes run beside decoding; when more than a few batches wait (the disk is slower
      // than the decoder), decoding waits until the oldest are written, so queued rows cannot
      // grow with the trace while the writes keep overlapping the decoding.
      backpressure: () => pipeline.writer.whenAtMost(writer !== undefined ? MAX_WRITE_BATCHES_IN_FLIGHT_TO_WRITER : MAX_WRITE_BATCHES_IN_FLIGHT),
    });
  } catch (e) {
    // Damage after the trace header: what was decoded is stored, the session incomplete (finish()).
    if (!(e instanceof TraceDecodeError && pipeline.trace !== undefined)) {
      // Nothing usable (not a trace, unreadable, cancelled): store nothing.
      await pipeline.writer.close().catch(() => undefined);
      if (options.sessionId === undefined) await deleteSession(db, sessionId);
      else await updateSession(db, sessionId, { status: 'failed', statusReason: (e as Error).message });
      throw e;
    }
  }
  // Releases events queued before any damage; a large session gets its column snapshot here, so
  // opening it in the app is fast the first time too, whichever tool imported it.
  try {
    return { ...(await pipeline.finish()), sessionId };
  } catch (e) {
    // A full disk (store/db.ts' 'disk-full'): every batch written is whole (a GC with its rows),
    // but the session is not. A new one is removed, so importing again once there is space is not
    // refused as a duplicate; if even that cannot be written, recovery settles it later.
    if (e instanceof StoreError && e.code === 'disk-full' && options.sessionId === undefined) await deleteSession(db, sessionId).catch(() => undefined);
    throw e;
  }
}

export interface ImportProcessesOptions extends Omit<ImportOptions, 'processId' | 'sessionId' | 'onProgress'> {
  /** A machine-wide trace: the processes to store (default: every .NET process with GCs). */
  processIds?: readonly number[];
  /** Progress of each pass over the file: the survey, then each process's import. */
  onProgress?: (p: ReadProgress & { pass: number; passes: number }) => void;
}

/**
 * An import as the app asks for it: a one-process trace is one session; a machine-wide trace is
 * one session per chosen process (default: every .NET process with GCs), each named after its
 * process and PID, each its own pass over the file. Returns the sessions in the order stored
 * (most GCs first). A chosen PID the trace does not hold is refused before anything is stored.
 */
export async function importTraceProcesses(db: Database, path: string, options: ImportProcessesOptions = {}): Promise<ImportResult[]> {
  const { processIds, onProgress, ...rest } = options;
  const survey = await processesToImport(path, processIds?.length === 1 ? processIds[0] : undefined, {
    ...(options.entry !== undefined ? { entry: options.entry } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    ...(onProgress !== undefined ? { onProgress: (p) => onProgress({ ...p, pass: 0, passes: 1 }) } : {}),
  });
  if (!survey.machineWide)
    return [await importTrace(db, path, { ...rest, ...(onProgress !== undefined ? { onProgress: (p) => onProgress({ ...p, pass: 0, passes: 1 }) } : {}) })];
  let chosen = survey.chosen;
  if (processIds !== undefined && processIds.length > 1) {
    chosen = processIds.map((pid) => survey.processes.find((p) => p.processId === pid)!);
    const missing = processIds.find((_pid, i) => chosen[i] === undefined);
    if (missing !== undefined) await processesToImport(path, missing, options.entry !== undefined ? { entry: options.entry } : {}); // throws the one-line refusal
  }
  const out: ImportResult[] = [];
  for (const [i, p] of chosen.entries()) {
    out.push(
      await importTrace(db, path, {
        ...rest,
        processId: p.processId,
        name: processLabel(p),
        ...(onProgress !== undefined ? { onProgress: (q) => onProgress({ ...q, pass: i, passes: chosen.length }) } : {}),
      }),
    );
  }
  return out;
}

/** One progress over every pass of importTraceProcesses (the survey, then a pass per process). */
export function overallProgress(p: { fileBytes: number; fileSize: number; pass?: number; passes?: number }): { fileBytes: number; fileSize: number } {
  const passes = p.passes ?? 1;
  return { fileBytes: (p.pass ?? 0) * p.fileSize + p.fileBytes, fileSize: p.fileSize * passes };
}
