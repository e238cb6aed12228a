/**
 * Browser uploads (`gcscope serve`): the renderer cannot hand over a path, so it sends the file in
 * base64 chunks (`uploadChunk`) and then asks for it to be imported (`importUpload`). Every chunk
 * comes from an untrusted peer, so:
 * - chunks must be contiguous: each one starts where the previous ended (no sparse or huge
 *   files from one small chunk at a far offset);
 * - an upload may not grow past a size cap, and only a few may be in progress at once;
 * - base64 is validated strictly (Buffer.from silently drops invalid characters);
 * - chunks are appended to disk as they arrive and the import streams from that file: nothing
 *   holds the whole upload in memory;
 * - an upload that gets no chunk for a while (its tab was closed) is dropped with its partial
 *   file, so abandoned uploads never hold the few slots (issue 40: four closed tabs blocked every
 *   later upload until restart);
 * - the folder is emptied when the service starts, the staged file is removed when its import
 *   ends, and the folder is removed when the service closes or the process exits.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { processExists } from '../diagnostics/discovery.js';
import type { ImportProgress } from '../shared/contract.js';
import { ApiFailure } from './errors.js';

/** 8 GiB: above any trace a browser tab could reasonably send, far below filling a disk by accident. */
export const DEFAULT_UPLOAD_MAX_BYTES = 8 * 1024 ** 3;
const MAX_ACTIVE_UPLOADS = 4;
/**
 * 2 minutes: the page sends each chunk as soon as the last one is answered, so an upload this
 * long without one has been abandoned.
 */
export const DEFAULT_UPLOAD_IDLE_MS = 2 * 60_000;
/** Ids of dropped uploads remembered, to say so if their tab comes back. */
const EXPIRED_REMEMBERED = 64;
const UPLOAD_ID = /^[\w-]{8,64}$/;
// Canonical base64: groups of four, padding only at the end.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export interface UploadOptions {
  /** Largest accepted upload in bytes (default DEFAULT_UPLOAD_MAX_BYTES). */
  maxBytes?: number;
  /** An upload without a chunk for this long is dropped (default DEFAULT_UPLOAD_IDLE_MS). */
  idleMs?: number;
}

interface Upload {
  file: string;
  size: number;
  /** When its last chunk arrived (performance.now()). */
  lastChunkAt: number;
}

export class UploadStore {
  private readonly uploads = new Map<string, Upload>();
  /** Staged files handed to an import, removed when it ends. */
  private readonly staged = new Map<string, { file: string; name: string }>();
  private readonly maxBytes: number;
  private readonly idleMs: number;
  /** Drops idle uploads even when no new one comes to check. */
  private readonly sweeper: NodeJS.Timeout;
  private readonly expired = new Set<string>();
  private readonly onExit = (): void => this.removeFolder();

  constructor(
    readonly dir: string,
    opts: UploadOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
    this.idleMs = opts.idleMs ?? DEFAULT_UPLOAD_IDLE_MS;
    this.sweeper = setInterval(() => this.expireIdle(), Math.max(10, Math.min(this.idleMs / 2, 60_000)));
    this.sweeper.unref();
    // Whatever a previous run of this folder left (a crash mid-upload) is stale.
    this.removeFolder();
    mkdirSync(dir, { recursive: true });
    process.once('exit', this.onExit);
  }

  /** Appends one chunk; `offset` must be where the previous chunk of this upload ended. */
  chunk(uploadId: string, offset: number, base64: string): void {
    const id = checkId(uploadId);
    if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw new ApiFailure('bad-input', 'The upload chunk is not valid base64.');
    // Abandoned uploads give their slots to this one.
    this.expireIdle();
    let up = this.uploads.get(id);
    const expected = up?.size ?? 0;
    if (offset !== expected && up === undefined && this.expired.has(id)) throw this.expiredError();
    if (offset !== expected)
      throw new ApiFailure('bad-input', `Upload chunks must arrive in order: expected offset ${expected}, got ${offset}. Choose the file again.`);
    const data = Buffer.from(base64, 'base64');
    if (expected + data.length > this.maxBytes) {
      this.discard(id);
      throw new ApiFailure(
        'too-large',
        `The file is larger than ${formatBytes(this.maxBytes)}, the most GCScope accepts over the browser; import it with \`gcscope import FILE\` instead.`,
      );
    }
    if (up === undefined) {
      if (this.uploads.size >= MAX_ACTIVE_UPLOADS)
        throw new ApiFailure('busy', `${MAX_ACTIVE_UPLOADS} uploads are already in progress; wait for one to finish.`);
      up = { file: join(this.dir, `${id}.part`), size: 0, lastChunkAt: performance.now() };
      this.expired.delete(id);
      rmSync(up.file, { force: true });
      this.uploads.set(id, up);
    }
    appendFileSync(up.file, data);
    up.size += data.length;
    up.lastChunkAt = performance.now();
  }

  /** Drops the uploads that have had no chunk for `idleMs`, with their partial files. */
  private expireIdle(): void {
    const now = performance.now();
    for (const [id, up] of this.uploads) {
      if (now - up.lastChunkAt < this.idleMs) continue;
      this.discard(id);
      this.expired.add(id);
      if (this.expired.size > EXPIRED_REMEMBERED) this.expired.delete(this.expired.values().next().value!);
    }
  }

  private expiredError(): ApiFailure {
    return new ApiFailure(
      'bad-input',
      `The upload was dropped after ${this.idleMs >= 1000 ? `${Math.round(this.idleMs / 1000)} s` : `${this.idleMs} ms`} without data. Choose the file again.`,
    );
  }

  /**
   * The file of an upload whose chunks have all arrived but which is not imported yet: what the
   * process picker surveys (recording/trace-processes.ts) before the user chooses. Counts as
   * activity, so the upload is not dropped as idle while the survey reads it.
   */
  received(uploadId: string): string {
    const id = checkId(uploadId);
    this.expireIdle();
    const up = this.uploads.get(id);
    if (up === undefined) throw this.expired.has(id) ? this.expiredError() : new ApiFailure('not-found', 'The upload is missing; choose the file again.');
    up.lastChunkAt = performance.now();
    return up.file;
  }

  /**
   * Ends an upload: its file is renamed after the user's file name (so the session is named after
   * it and a .zip is recognised) and returned for the import to stream from.
   */
  finish(uploadId: string, fileName: string): string {
    const id = checkId(uploadId);
    const named = join(
      this.dir,
      `${id}-${basename(fileName)
        .replace(/[^\w.-]/g, '_')
        .slice(0, 200)}`,
    );
    this.expireIdle();
    const up = this.uploads.get(id);
    if (up === undefined && this.expired.has(id)) throw this.expiredError();
    if (up === undefined) {
      // No chunk at all: the browser sends none for an empty file. The import says it is empty.
      writeFileSync(named, new Uint8Array(0));
      return named;
    }
    if (!existsSync(up.file)) throw new ApiFailure('not-found', 'The upload is missing; choose the file again.');
    this.uploads.delete(id);
    renameSync(up.file, named);
    return named;
  }

  /** The import `jobId` reads `file` (the user's `name`); it is removed when the job ends (see release). */
  track(jobId: string, file: string, name: string): void {
    this.staged.set(jobId, { file, name });
  }

  /** Progress as the user should read it: errors name the user's file, not the staged copy. */
  describe(p: ImportProgress): ImportProgress {
    const s = this.staged.get(p.jobId);
    if (s === undefined || p.error === undefined) return p;
    return { ...p, error: { ...p.error, message: p.error.message.split(s.file).join(s.name) } };
  }

  /** An import has ended: its staged file is no longer needed. */
  release(jobId: string): void {
    const s = this.staged.get(jobId);
    if (s === undefined) return;
    this.staged.delete(jobId);
    rmSync(s.file, { force: true });
  }

  private discard(id: string): void {
    const up = this.uploads.get(id);
    if (up === undefined) return;
    this.uploads.delete(id);
    rmSync(up.file, { force: true });
  }

  private removeFolder(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  close(): void {
    clearInterval(this.sweeper);
    process.off('exit', this.onExit);
    this.uploads.clear();
    this.staged.clear();
    this.removeFolder();
  }
}

function checkId(uploadId: string): string {
  if (!UPLOAD_ID.test(uploadId)) throw new ApiFailure('bad-input', 'Invalid upload id.');
  return uploadId;
}

function formatBytes(n: number): string {
  return n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(0)} GiB` : `${(n / 1024 ** 2).toFixed(0)} MiB`;
}

/**
 * Per-process upload folders (`<prefix><pid>`) in `parent` whose process is gone: left by a
 * `gcscope serve` that was killed. Removed at the start of the next one.
 */
export function sweepStaleUploadFolders(parent: string, prefix: string): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return removed;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    const pid = Number(n.slice(prefix.length));
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processExists(pid)) continue;
    rmSync(join(parent, n), { recursive: true, force: true });
    removed.push(n);
  }
  return removed;
}
