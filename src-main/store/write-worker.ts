/**
 * Worker-thread entry that writes an import's batched rows (gc-store.ts GcWriter) on its own
 * connection. Binding parameters in node-sqlite3 runs on the calling thread (about a microsecond
 * per value: 0.45 s of the import of a 104 MB trace, 6,440 GCs), so done here it leaves the
 * decoding thread to decode. Messages are written in the order they come, each batch in one
 * transaction (BEGIN IMMEDIATE; the importer's own connection waits on the busy timeout).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Database, StoreError } from './db.js';
import { writeBatch, type WriteBatch } from './gc-store.js';

export interface WriteWorkerData {
  dbPath: string;
}

/** To the worker: a batch to write, or the end (close the connection, then exit). */
export type WriteWorkerRequest = { id: number; batch: WriteBatch } | { id: number; close: true };
/** From the worker: request `id` is done (error: why it failed). */
export interface WriteWorkerReply {
  id: number;
  error?: string;
  /** The StoreError's code when the failure was one (a full disk, a damaged file): rebuilt as one on the other side. */
  storeCode?: StoreError['code'];
}

const port = parentPort!;
const data = workerData as WriteWorkerData;
// Writing only: no memory map (see Database.open).
const opened = Database.open(data.dbPath, { mapped: false });
let chain: Promise<unknown> = opened;
port.on('message', (m: WriteWorkerRequest) => {
  chain = chain.then(async () => {
    const db = await opened;
    try {
      if ('close' in m) await db.close();
      else await writeBatch(db, m.batch);
      port.postMessage({ id: m.id } satisfies WriteWorkerReply);
    } catch (e) {
      port.postMessage({
        id: m.id,
        error: e instanceof Error ? e.message : String(e),
        ...(e instanceof StoreError ? { storeCode: e.code } : {}),
      } satisfies WriteWorkerReply);
    }
  });
});
// A failed open is reported on the first request.
opened.catch(() => undefined);
