/**
 * Opening trace files: a `.nettrace`/`.netperf` is streamed from disk in large chunks; a `.zip`
 * holding exactly one trace is decompressed on the fly (fflate's streaming Unzip — a maintained,
 * dependency-free zip library, chosen so a zipped trace never has to fit in memory or be
 * extracted to a temporary file). Bytes are fed to the pure NettraceReader.
 */
import { open, stat } from 'node:fs/promises';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { NettraceReader, type ReaderHandlers, type ReaderOptions } from '../nettrace/reader.js';
import { NettraceError } from '../nettrace/errors.js';

// Large reads keep per-chunk overhead low; each chunk is a fresh buffer (see fileChunks).
const CHUNK = 4 << 20;
const FIRST_CHUNK = 256 << 10;

export interface ReadProgress {
  /** Bytes of the file read so far (compressed bytes for a zip). */
  fileBytes: number;
  fileSize: number;
}

export interface ReadTraceOptions extends ReaderOptions {
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
}

export class TraceFileError extends Error {
  override readonly name = 'TraceFileError';
  constructor(
    readonly code: 'not-found' | 'zip-empty' | 'zip-multiple' | 'zip-corrupt' | 'io',
    message: string,
  ) {
    super(message);
  }
}

/** Streams the file's raw bytes (zip is not unpacked here). */
async function* fileChunks(path: string, signal?: AbortSignal): AsyncGenerator<Uint8Array, void, void> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') throw new TraceFileError('not-found', `${path}: no such file`);
    throw new TraceFileError('io', `${path}: ${err.message}`);
  }
  // Read-ahead: the next chunk is being read while the caller decodes this one, so decoding
  // does not wait on the disk between chunks (one extra chunk of memory).
  // A fresh buffer per chunk: the reader hands out views into the chunks it was given.
  // allocUnsafe skips zero-filling; only the bytes read are ever exposed.
  // The first chunk is small so decoding starts (and overlaps the next read) sooner.
  const readAt = async (position: number): Promise<Uint8Array> => {
    const size = position === 0 ? FIRST_CHUNK : CHUNK;
    const raw = Buffer.allocUnsafe(size);
    const buf = new Uint8Array(raw.buffer, raw.byteOffset, size);
    const { bytesRead } = await fh.read(buf, 0, size, position);
    return bytesRead === size ? buf : buf.subarray(0, bytesRead);
  };
  let position = 0;
  let next: Promise<Uint8Array> | undefined = readAt(0);
  try {
    for (;;) {
      signal?.throwIfAborted();
      const chunk: Uint8Array = await next;
      next = undefined;
      if (chunk.length === 0) return;
      position += chunk.length;
      next = readAt(position);
      yield chunk;
    }
  } finally {
    // Never close the file under a read still in flight.
    if (next !== undefined) await next.catch(() => undefined);
    await fh.close();
  }
}

function isZip(first: Uint8Array): boolean {
  return first.length >= 4 && first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04;
}

/**
 * Reads a trace file (or a zip of one) through a NettraceReader. Resolves with the reader in its
 * final state: 'complete', 'truncated' (error says where), or rejects with the NettraceError /
 * TraceFileError that stopped it (the reader's handlers have seen everything before that).
 */
export async function readTraceFile(path: string, handlers: ReaderHandlers, options: ReadTraceOptions = {}): Promise<NettraceReader> {
  const reader = new NettraceReader(handlers, options);
  await pumpTraceFile(path, reader, options);
  return reader;
}

/** Feeds a file (or a zip of one) into a reader the caller made, and ends it. */
export async function pumpTraceFile(path: string, reader: NettraceReader, options: ReadTraceOptions = {}): Promise<void> {
  const { size } = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new TraceFileError(e.code === 'ENOENT' ? 'not-found' : 'io', `${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  let read = 0;
  let unzip: Unzip | undefined;
  let entries = 0;
  let zipError: Error | undefined;
  // Errors thrown by the reader inside fflate's callback are kept here and rethrown as they are.
  let readerError: unknown;
  for await (const chunk of fileChunks(path, options.signal)) {
    if (read === 0 && isZip(chunk)) {
      unzip = new Unzip((file: UnzipFile) => {
        entries++;
        if (entries > 1) {
          zipError = new TraceFileError('zip-multiple', `${path}: the zip holds more than one file; GCScope opens a zip with exactly one trace`);
          return;
        }
        file.ondata = (err, data) => {
          if (readerError !== undefined) return;
          if (err !== null) {
            zipError = new TraceFileError('zip-corrupt', `${path}: the zip is corrupt (${err.message})`);
            return;
          }
          if (data.length > 0 && readerError === undefined) {
            try {
              reader.push(data);
            } catch (e) {
              readerError = e;
            }
          }
        };
        file.start();
      });
      unzip.register(UnzipInflate);
    }
    read += chunk.length;
    if (unzip !== undefined) {
      try {
        unzip.push(chunk, false);
      } catch (e) {
        if (e instanceof NettraceError) throw e;
        throw new TraceFileError('zip-corrupt', `${path}: the zip is corrupt (${(e as Error).message})`);
      }
      if (readerError !== undefined) throw readerError;
      if (zipError !== undefined) throw zipError;
    } else {
      reader.push(chunk);
    }
    options.onProgress?.({ fileBytes: read, fileSize: size });
  }
  if (unzip !== undefined) {
    try {
      unzip.push(new Uint8Array(0), true);
    } catch (e) {
      if (!(e instanceof NettraceError)) throw new TraceFileError('zip-corrupt', `${path}: the zip is corrupt (${(e as Error).message})`);
      throw e;
    }
    if (readerError !== undefined) throw readerError;
    if (zipError !== undefined) throw zipError;
    if (entries === 0) throw new TraceFileError('zip-empty', `${path}: the zip holds no file`);
  }
  reader.end();
}
