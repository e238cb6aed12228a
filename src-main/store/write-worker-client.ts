/**
 * The importer's side of write-worker.ts: a BatchSink that hands each batch to a worker thread
 * writing on its own connection to the same database file, so parameter binding (node-sqlite3
 * binds on the calling thread) runs beside decoding instead of in it. Batches are written in the
 * order given; `close()` waits for every one, closes the worker's connection and ends the worker.
 */
import { Worker } from 'node:worker_threads';
import { StoreError } from './db.js';
import type { BatchSink, WriteBatch } from './gc-store.js';
import { INSERT_TICK_CHUNK } from './stack-store.js';
import type { WriteWorkerData, WriteWorkerReply, WriteWorkerRequest } from './write-worker.js';

export class WriteWorker {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private exited: Error | undefined;

  constructor(script: string, dbPath: string) {
    // The writer's garbage is short-lived parameter arrays: a young generation of 8 MB (V8's
    // default lets it grow several times larger) has them collected sooner. The import of a
    // 1.1 GB trace peaked at 295-318 MB with the default, 248-276 MB with this, in the same time.
    this.worker = new Worker(script, { workerData: { dbPath } satisfies WriteWorkerData, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    this.worker.on('message', (m: WriteWorkerReply) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error === undefined) w?.resolve();
      // A full disk or a damaged file stays a StoreError that says so (not an internal error).
      else w?.reject(m.storeCode !== undefined && m.storeCode !== 'sql' ? new StoreError(m.storeCode, m.error) : new Error(`writing GC rows: ${m.error}`));
    });
    const fail = (e: Error): void => {
      this.exited ??= e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the database writer thread ended (exit code ${code})`)));
  }

  readonly sink: BatchSink = (batch: WriteBatch) => this.request({ id: this.nextId++, batch }, sampleChunkBuffers(batch));

  /** Waits for the batches sent, closes the worker's connection and ends the worker. */
  async close(): Promise<void> {
    try {
      if (this.exited === undefined) await this.request({ id: this.nextId++, close: true });
    } finally {
      await this.worker.terminate();
    }
  }

  private request(m: WriteWorkerRequest, transfer: ArrayBuffer[] = []): Promise<void> {
    if (this.exited !== undefined) return Promise.reject(this.exited);
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(m.id, { resolve, reject });
      this.worker.postMessage(m, transfer);
    });
  }
}

/**
 * The buffers of a batch's allocation-sample chunks, moved to the writer instead of copied (a
 * gc-verbose 1.1 GB trace has ~400 MB of them). Only those: tickChunk made each for this row
 * alone and nothing reads it after. Any other blob may be a view into a buffer in use here (a
 * pooled Buffer), which a transfer would empty.
 */
function sampleChunkBuffers(batch: WriteBatch): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const [head, rows] of batch.tables) {
    if (head !== INSERT_TICK_CHUNK) continue;
    for (const r of rows) {
      const blob = r[3];
      if (
        blob instanceof Uint8Array &&
        blob.byteOffset === 0 &&
        blob.byteLength === blob.buffer.byteLength &&
        blob.buffer instanceof ArrayBuffer &&
        !out.includes(blob.buffer)
      )
        out.push(blob.buffer);
    }
  }
  return out;
}
