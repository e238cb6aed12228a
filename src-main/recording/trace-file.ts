/**
 * Opening trace files: a `.nettrace`/`.netperf` is streamed from disk in large chunks; a `.zip`
 * holding one trace is decompressed on the fly (fflate's streaming Unzip — a maintained,
 * dependency-free zip library, chosen so a zipped trace never has to fit in memory or be
 * extracted to a temporary file — with Node's native zlib inflating its deflate entries). Bytes
 * are fed to a pure TraceReader: whichever format the first bytes say (trace-formats.ts), for a
 * file and a zip entry alike.
 *
 * Hostile input: the file must be a regular file (a FIFO would block forever, a directory fails
 * late); compressed bytes go to the inflater in small slices, so one slice can expand to at most
 * about a thousand times its size, and the total output is capped both absolutely and as a ratio
 * of the compressed input (a zip bomb stops with a clear error instead of filling memory); a file
 * that ends before its trace header is not a trace (nothing is stored for it).
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FlateError, Unzip, UnzipDecoder, UnzipFile } from 'fflate';
import { createInflateRaw } from 'node:zlib';
import { ETL_CLOCK_BYTES, etlClock, sniffEtl } from '../etl/format.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';
import { openTraceReader, traceFormats } from './trace-formats.js';
import { zipEntryNames } from './zip-directory.js';

// Chunks the reader released are reused (see fileChunks). 1 MB: the reader holds views into
// every chunk since the last sequence point (~10 MB of events), and smaller chunks free sooner
// what it no longer needs; per-chunk costs stay negligible (4 MB chunks were no faster, and an
// import of a 110 MB trace peaked 50 MB higher).
const CHUNK = 1 << 20;
const FIRST_CHUNK = 256 << 10;
/** Most bytes of chunks kept for reuse while the reader still holds views into them. */
const MAX_TRACKED_BYTES = 64 << 20;
/** Compressed bytes per inflate step: deflate expands at most ~1032x, so ≤ 33 MB out per step (real traces: ~500 KB, big enough to keep per-chunk costs low). */
const ZIP_SLICE = 32 << 10;
/** Inflated bytes per output chunk of Node's zlib (each is checked against the caps before the next). */
const INFLATE_CHUNK = 256 << 10;
/** Real traces compress 2-20x; a higher ratio over a sizeable output is a decompression bomb. */
export const DEFAULT_MAX_ZIP_RATIO = 200;
/** The ratio is judged only once this much has come out (tiny files compress oddly). */
const RATIO_GRACE_BYTES = 32 << 20;
/** The largest unzipped trace accepted (16 GiB). */
export const DEFAULT_MAX_UNZIPPED_BYTES = 16 * 1024 ** 3;
/** Zip compression methods (APPNOTE 4.4.5) fflate can inflate. */
const ZIP_METHODS: Record<number, string> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'LZMA',
  19: 'LZ77',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
  99: 'AES encryption',
};

export interface ReadProgress {
  /** Bytes of the file read so far (compressed bytes for a zip). */
  fileBytes: number;
  fileSize: number;
}

export interface ReadTraceOptions extends TraceReaderOptions {
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
  /** Zip: most bytes the trace may unzip to (default DEFAULT_MAX_UNZIPPED_BYTES). */
  maxUnzippedBytes?: number;
  /** Zip: most unzipped bytes per compressed byte (default DEFAULT_MAX_ZIP_RATIO). */
  maxZipRatio?: number;
  /**
   * Called after each chunk is decoded; when it returns a promise, reading waits for it (an
   * importer whose database writes fall behind holds the decoder back instead of queueing rows).
   */
  backpressure?: () => Promise<void> | undefined;
  /** Bytes read at a time (default 1 MiB; tests use small chunks to exercise their reuse). */
  chunkBytes?: number;
  /** Zip: the entry to read, by its name in the zip (`--entry`), when the zip holds several traces. */
  entry?: string;
}

export class TraceFileError extends Error {
  override readonly name = 'TraceFileError';
  constructor(
    readonly code:
      | 'not-found'
      | 'not-a-file'
      | 'not-a-trace'
      | 'zip-empty'
      | 'zip-multiple'
      | 'zip-no-entry'
      | 'no-such-process'
      | 'no-dotnet-process'
      | 'zip-corrupt'
      | 'zip-unsupported'
      | 'zip-too-large'
      | 'io',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Refuses anything but a regular file before opening it: opening a FIFO blocks until a writer
 * appears, and a directory or device would fail (or never end) much later.
 */
export async function checkRegularFile(path: string): Promise<number> {
  const st = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new TraceFileError(e.code === 'ENOENT' ? 'not-found' : 'io', `${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  });
  if (st.isFile()) return st.size;
  const what = st.isDirectory()
    ? 'a folder'
    : st.isFIFO()
      ? 'a named pipe (FIFO)'
      : st.isSocket()
        ? 'a socket'
        : st.isCharacterDevice() || st.isBlockDevice()
          ? 'a device'
          : 'not a regular file';
  throw new TraceFileError('not-a-file', `${path}: is ${what}, not a trace file`);
}

/** A zip entry that is not content: a folder, or macOS Finder's resource-fork copies. */
export function isIgnorableZipEntry(name: string): boolean {
  return name.endsWith('/') || name.startsWith('__MACOSX/') || name.split('/').pop() === '.DS_Store';
}

/**
 * Streams the file's raw bytes (zip is not unpacked here). `releasedBefore`: the file offset
 * before which the consumer no longer looks at the chunks it was given; a chunk that ends there
 * is read into again instead of a new one. Without it each chunk is a new buffer, and V8 frees
 * the used ones only at its next full collection, which it starts once ~64 MB of them have
 * piled up: that pile was a third to a half of `gcscope events`/`report`'s peak memory.
 */
async function* fileChunks(path: string, signal?: AbortSignal, releasedBefore?: () => number, chunkBytes = CHUNK): AsyncGenerator<Uint8Array, void, void> {
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
  // allocUnsafe skips zero-filling; only the bytes read are ever exposed.
  // The first chunk is small so decoding starts (and overlaps the next read) sooner.
  // Chunks handed out, oldest first ([file offset of their end, buffer]), and chunks free to reuse.
  const given: [number, Uint8Array][] = [];
  const free: Uint8Array[] = [];
  const readAt = async (position: number): Promise<Uint8Array> => {
    const size = position === 0 ? Math.min(FIRST_CHUNK, chunkBytes) : chunkBytes;
    if (releasedBefore !== undefined) {
      const before = releasedBefore();
      while (given.length > 0 && given[0]![0] <= before) free.push(given.shift()![1]);
    }
    let buf = size === chunkBytes ? free.pop() : undefined;
    if (buf === undefined) {
      const raw = Buffer.allocUnsafe(size);
      buf = new Uint8Array(raw.buffer, raw.byteOffset, size);
    }
    const { bytesRead } = await fh.read(buf, 0, size, position);
    if (releasedBefore !== undefined && bytesRead > 0 && buf.length === chunkBytes) {
      given.push([position + bytesRead, buf]);
      // A trace without sequence points (or stacks never cleared) may never release: the oldest
      // chunks are then forgotten, so V8 frees them as before, instead of kept here forever.
      if (given.length * chunkBytes > MAX_TRACKED_BYTES) given.shift();
    }
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

/** A local file header (PK\3\4), or the end-of-central-directory record of an empty zip (PK\5\6). */
function isZip(first: Uint8Array): boolean {
  return first.length >= 4 && first[0] === 0x50 && first[1] === 0x4b && ((first[2] === 0x03 && first[3] === 0x04) || (first[2] === 0x05 && first[3] === 0x06));
}

/**
 * Reads bytes of a plain trace file back by stream offset (a `.nettrace` is fed to the reader from
 * its first byte, so the reader's offsets are file offsets), for what keeps only where its data
 * is (method names: symbols/method-map.ts). Undefined for a zip (the offsets are into the unzipped
 * stream) or a file that cannot be read. The file stays open while reads come (a report names a
 * few hundred frames in a row) and is closed after a second without one; opened again, it must be
 * the same file (device and inode), else the read answers undefined and the frame shows as its
 * address rather than a wrong name. A read past the end answers undefined too.
 */
export async function fileStreamBytes(path: string): Promise<((offset: number, length: number) => Uint8Array | undefined) | undefined> {
  let first: Uint8Array;
  let dev: number;
  let ino: number;
  try {
    // Never open what is not a regular file: opening a FIFO waits for a writer (forever). The
    // stat comes first, and the open does not wait either way (O_NONBLOCK; no effect on files).
    if (!(await stat(path)).isFile()) return undefined;
    const fh = await open(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
    try {
      const st = await fh.stat();
      if (!st.isFile()) return undefined;
      dev = st.dev;
      ino = st.ino;
      first = new Uint8Array(0x50);
      first = first.subarray(0, (await fh.read(first, 0, first.length, 0)).bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
  // A zip's offsets are into the unzipped stream; an .etl's compressed buffers are decompressed
  // (their events' offsets are not file offsets): method names are then kept in memory instead.
  if (isZip(first) || sniffEtl(first) === 'yes') return undefined;
  let fd: number | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const close = (): void => {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // already gone
      }
    }
    fd = undefined;
  };
  return (offset, length) => {
    try {
      if (fd === undefined) {
        // Not blocking either: whatever is at the path now may be a FIFO (then its inode differs).
        fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
        const st = fstatSync(fd);
        if (st.dev !== dev || st.ino !== ino) {
          close();
          return undefined;
        }
      }
      clearTimeout(idle);
      idle = setTimeout(close, 1000);
      idle.unref();
      const b = new Uint8Array(length);
      return readSync(fd, b, 0, length, offset) === length ? b : undefined;
    } catch {
      close();
      return undefined;
    }
  };
}

/**
 * Reads a trace file (or a zip of one) through the reader of its format. Resolves with the reader
 * in its final state: 'complete', 'truncated' (error says where), or rejects with the
 * TraceDecodeError / TraceFileError that stopped it (the reader's handlers have seen everything
 * before that).
 */
export async function readTraceFile(path: string, handlers: TraceReaderHandlers, options: ReadTraceOptions = {}): Promise<TraceReader> {
  const reader = openTraceReader(handlers, options);
  await pumpTraceFile(path, reader, options);
  return reader;
}

/**
 * The files PerfView left beside an unmerged `X.etl` that belong to the same recording — its
 * kernel session (`X.kernel.etl`: process names, images), the CLR rundown (`X.clrRundown.etl`:
 * method names), a user session (`X.user.etl`) — in the order they are read: `X.etl` first, so
 * times are those of X.etl read alone. Only a plain `.etl` has siblings; `[path]` otherwise.
 */
export async function etlSessionFiles(path: string): Promise<{ files: string[]; missing: string[] }> {
  if (!/\.etl$/i.test(path) || /\.(kernel|clr|user)[^.\\/]*\.etl$/i.test(path)) return { files: [path], missing: [] };
  const dir = dirname(path);
  const base = basename(path).slice(0, -4);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { files: [path], missing: [] };
  }
  const lower = base.toLowerCase();
  const of = (kind: string): string[] =>
    names.filter((n) => n.toLowerCase().startsWith(`${lower}.${kind}`) && n.toLowerCase().endsWith('.etl') && n.length > base.length + kind.length + 5).sort();
  const kernel = of('kernel');
  const rundown = of('clr');
  const user = of('user');
  const missing = [...(kernel.length === 0 ? [`${base}.kernel.etl`] : []), ...(rundown.length === 0 ? [`${base}.clrRundown.etl`] : [])];
  return { files: [path, ...[...kernel, ...rundown, ...user].map((n) => join(dir, n))], missing };
}

/**
 * Work on a zip's entries that must happen in the zip's order — inflating, delivering, moving the
 * reader to the next file of a session — queued one after the other (each step may wait for zlib).
 */
class ZipSteps {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  add(step: () => void | Promise<void>): void {
    this.queued++;
    this.tail = this.tail.then(step).finally(() => void this.queued--);
  }

  /** Resolves once every step queued so far, and any they queued, is done. */
  async done(): Promise<void> {
    while (this.queued > 0) await this.tail;
  }
}

/**
 * Decoders for fflate's Unzip (which still reads the zip's framing) that deliver through `steps`:
 * deflate entries are inflated by Node's zlib (native) instead of fflate's JavaScript inflate,
 * which took about half of `gcscope events` on a PerfView `.etl.zip` (~200 ms of CPU for
 * net.4.5.2.x64's 3.8 MB, against ~20 ms). zlib works off the main thread and hands its output
 * over as 'data' events (INFLATE_CHUNK each, every one checked against the caps before the next);
 * a stored entry's bytes go through the same queue, so the output of a session's entries keeps
 * the zip's order whatever their methods. Damage comes back as zlib's error (a corrupt zip).
 */
function zipDecoders(steps: ZipSteps): (new (name: string) => UnzipDecoder)[] {
  class Stored implements UnzipDecoder {
    static readonly compression = 0;
    ondata: UnzipDecoder['ondata'] = () => {};
    constructor(_name: string) {}
    push(data: Uint8Array, final: boolean): void {
      steps.add(() => this.ondata(null, data as Uint8Array<ArrayBuffer>, final));
    }
  }
  class Deflated implements UnzipDecoder {
    static readonly compression = 8;
    ondata: UnzipDecoder['ondata'] = () => {};
    private readonly z = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    /** The running step's resolver (a write, or the end until zlib says it is done: 'end' or 'error'). */
    private running: (() => void) | undefined;
    private done = false;

    constructor(_name: string) {
      this.z.on('data', (d: Buffer) => {
        if (!this.done) this.ondata(null, new Uint8Array(d.buffer as ArrayBuffer, d.byteOffset, d.length), false);
      });
      this.z.on('end', () => this.finish(null));
      this.z.on('error', (e: Error) => this.finish(Object.assign(e, { code: 0 }) as unknown as FlateError));
    }

    push(data: Uint8Array, final: boolean): void {
      if (data.length > 0)
        steps.add(() => {
          if (this.done) return undefined;
          return new Promise<void>((resolve) => {
            this.running = resolve;
            this.z.write(data, () => resolve());
          });
        });
      if (final)
        steps.add(() => {
          if (this.done) return undefined;
          return new Promise<void>((resolve) => {
            this.running = resolve;
            this.z.end();
          });
        });
    }

    /** The entry is not wanted any more (a cap was exceeded): zlib stops, nothing more is delivered. */
    terminate(): void {
      this.settle();
      this.z.destroy();
    }

    private finish(err: FlateError | null): void {
      if (this.done) return;
      this.ondata(err, new Uint8Array(0), true);
      this.settle();
    }

    /** Done: the running step ends (a destroyed stream may never call a write back). */
    private settle(): void {
      this.done = true;
      this.running?.();
      this.running = undefined;
    }
  }
  return [Stored, Deflated] as unknown as (new (name: string) => UnzipDecoder)[];
}

/** Feeds a file (or a zip of one) into a reader the caller made, and ends it. */
export async function pumpTraceFile(path: string, reader: TraceReader, options: ReadTraceOptions = {}): Promise<void> {
  if (options.entry === undefined && reader.nextFile !== undefined && /\.etl$/i.test(path)) {
    const { files } = await etlSessionFiles(path);
    if (files.length > 1) return pumpEtlSession(files, reader, options);
  }
  const size = await checkRegularFile(path);
  const maxOut = options.maxUnzippedBytes ?? DEFAULT_MAX_UNZIPPED_BYTES;
  const maxRatio = options.maxZipRatio ?? DEFAULT_MAX_ZIP_RATIO;
  let read = 0;
  let unzip: Unzip | undefined;
  let entries = 0;
  let zipIn = 0;
  let zipOut = 0;
  let zipError: Error | undefined;
  // Errors thrown by the reader inside fflate's callback are kept here and rethrown as they are.
  let readerError: unknown;
  // What is still to be inflated and delivered of the bytes pushed so far (zipDecoders).
  const steps = new ZipSteps();
  let current: UnzipFile | undefined;
  const corrupt = (e: unknown): TraceFileError => new TraceFileError('zip-corrupt', `${path}: the zip is corrupt (${(e as Error).message})`);
  // The entry to read, when the zip's directory named its entries (chooseZipEntry).
  let wanted: string | undefined;
  // Or the entries of one unmerged ETW session (zipEtlSession), read one after another.
  let session: Set<string> | undefined;
  const onFile = (file: UnzipFile): void => {
    if (isIgnorableZipEntry(file.name)) return; // never started: its bytes are skipped
    if (session !== undefined) {
      if (!session.has(file.name)) return;
      entries++;
      if (entries > 1) {
        // Once the previous entry's bytes are all delivered: the reader merges this one with them.
        steps.add(() => {
          if (readerError !== undefined || zipError !== undefined) return;
          try {
            reader.nextFile!();
          } catch (e) {
            readerError = e;
          }
        });
      }
    } else if (wanted !== undefined && file.name !== wanted)
      return; // another entry: skipped too
    else entries++;
    if (session === undefined && entries > 1) {
      zipError = new TraceFileError('zip-multiple', `${path}: the zip holds more than one file; GCScope opens a zip with exactly one trace`);
      return;
    }
    if (file.compression !== 0 && file.compression !== 8) {
      const m = ZIP_METHODS[file.compression] ?? `method ${file.compression}`;
      zipError = new TraceFileError(
        'zip-unsupported',
        `${path}: unsupported compression: the trace in this zip is compressed with ${m}; GCScope reads zips made with deflate (the usual kind) — unzip it and open the trace itself`,
      );
      return;
    }
    current = file;
    file.ondata = (err, data) => {
      if (readerError !== undefined || zipError !== undefined) return;
      if (err !== null) {
        zipError = corrupt(err);
        return;
      }
      zipOut += data.length;
      if (zipOut > maxOut) {
        zipError = new TraceFileError(
          'zip-too-large',
          `${path}: the trace in this zip unzips to more than ${formatSize(maxOut)}; unzip it and open the trace itself if it is genuine`,
        );
        file.terminate();
        return;
      }
      if (zipOut > RATIO_GRACE_BYTES && zipOut > zipIn * maxRatio) {
        zipError = new TraceFileError(
          'zip-too-large',
          `${path}: the zip expands more than ${maxRatio} times (${formatSize(zipIn)} to over ${formatSize(zipOut)}), which no real trace does; it looks like a decompression bomb`,
        );
        file.terminate();
        return;
      }
      if (data.length > 0) {
        try {
          reader.push(data);
        } catch (e) {
          readerError = e;
          file.terminate();
        }
      }
    };
    try {
      file.start();
    } catch (e) {
      zipError = corrupt(e);
    }
  };
  const check = (): void => {
    if (readerError !== undefined || zipError !== undefined) current?.terminate();
    if (readerError !== undefined) throw readerError;
    if (zipError !== undefined) throw zipError;
  };
  // A chunk is reused once the reader has released it; a zip's compressed chunks are not (the
  // inflater's own output is what the reader holds).
  let zipped = false;
  const released = (): number => (zipped ? 0 : reader.releasedBefore);
  for await (const chunk of fileChunks(path, options.signal, released, options.chunkBytes)) {
    if (read === 0 && isZip(chunk)) {
      const parts = options.entry === undefined && reader.nextFile !== undefined ? await zipEtlSession(path) : undefined;
      if (parts !== undefined) session = new Set(parts);
      else wanted = await chooseZipEntry(path, options.entry);
      // Loaded only for zips: most traces are opened unzipped, and the CLI's startup counts.
      const { Unzip } = await import('fflate');
      zipped = true;
      unzip = new Unzip(onFile);
      for (const d of zipDecoders(steps)) unzip.register(d as unknown as Parameters<Unzip['register']>[0]);
    }
    if (read === 0 && unzip === undefined && options.entry !== undefined)
      throw new TraceFileError('zip-no-entry', `${path}: not a zip: --entry chooses one trace of a zip that holds several`);
    read += chunk.length;
    if (unzip !== undefined) {
      // Small slices bound what one inflate step can produce; the caps are checked between them.
      for (let p = 0; p < chunk.length; p += ZIP_SLICE) {
        const slice = chunk.subarray(p, p + ZIP_SLICE);
        zipIn += slice.length;
        try {
          unzip.push(slice, false);
        } catch (e) {
          if (e instanceof TraceDecodeError) throw e;
          throw corrupt(e);
        }
        check();
      }
      await steps.done();
      check();
    } else {
      reader.push(chunk);
    }
    options.onProgress?.({ fileBytes: read, fileSize: size });
    const wait = options.backpressure?.();
    if (wait !== undefined) await wait;
  }
  if (unzip !== undefined) {
    try {
      unzip.push(new Uint8Array(0), true);
    } catch (e) {
      if (!(e instanceof TraceDecodeError)) throw corrupt(e);
      throw e;
    }
    await steps.done();
    check();
    if (entries === 0 && wanted !== undefined) throw new TraceFileError('zip-no-entry', `${path}: the zip holds no entry named "${wanted}"`);
    if (entries === 0) throw new TraceFileError('zip-empty', `${path}: the zip holds no trace file`);
  }
  reader.end();
  // Stopped before the trace header was complete: whatever this is, it is not a trace.
  if (reader.trace === undefined && reader.state === 'truncated') {
    const n = unzip !== undefined ? zipOut : read;
    throw new TraceFileError(
      'not-a-trace',
      `${path}: not a .NET trace: ${n === 0 ? 'the file is empty' : `it ends after ${n} bytes, before the end of the trace header`} (at byte offset ${n})`,
    );
  }
}

/** The first `n` bytes of a file (fewer when it is shorter). */
async function readStart(path: string, n: number): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const b = new Uint8Array(n);
    return b.subarray(0, (await fh.read(b, 0, n, 0)).bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Feeds the files of one unmerged ETW session into the reader, one after another
 * (`reader.nextFile()` between them: the reader merges their events by time), and ends it. A
 * decode error names the file and its offset in that file.
 */
async function pumpEtlSession(files: readonly string[], reader: TraceReader, options: ReadTraceOptions): Promise<void> {
  const sizes: number[] = [];
  for (const f of files) sizes.push(await checkRegularFile(f));
  // Files on another clock are not one recording: refused before anything is read (one line).
  const clocks = await Promise.all(files.map(async (f) => etlClock(await readStart(f, ETL_CLOCK_BYTES))));
  for (let i = 1; i < files.length; i++) {
    const a = clocks[0];
    const b = clocks[i];
    if (a !== undefined && b !== undefined && (a.perfFreq !== b.perfFreq || a.clockType !== b.clockType)) {
      throw new TraceFileError(
        'not-a-trace',
        `${files[i]}: beside ${basename(files[0]!)} but on another clock (${b.perfFreq} ticks/s, clock type ${b.clockType}; ${basename(files[0]!)}: ${a.perfFreq}, ${a.clockType}): not from the same recording; move it away to read ${basename(files[0]!)} alone`,
      );
    }
  }
  const total = sizes.reduce((a, b) => a + b, 0);
  let read = 0;
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    // The reader's offsets run on across the files; each file's chunks are its own.
    const base = reader.offset;
    try {
      if (i > 0) reader.nextFile!();
      for await (const chunk of fileChunks(f, options.signal, () => reader.releasedBefore - base, options.chunkBytes)) {
        read += chunk.length;
        reader.push(chunk);
        options.onProgress?.({ fileBytes: read, fileSize: total });
        const wait = options.backpressure?.();
        if (wait !== undefined) await wait;
      }
    } catch (e) {
      if (e instanceof TraceDecodeError && i > 0) {
        const at = Math.max(0, e.offset - base);
        throw new TraceDecodeError(e.code, at, `${basename(f)} (read with ${basename(files[0]!)}): ${e.detail}; the offset is in ${basename(f)}`, { cause: e });
      }
      throw e;
    }
  }
  reader.end();
}

/**
 * The entries of a zip that are one unmerged ETW session — `X.etl` with `X.kernel*.etl`,
 * `X.clr*.etl` or `X.user*.etl` in the same folder, and no other .etl — or undefined. Such a zip
 * opens as that session (its parts merged by time, times relative to the first part in the zip)
 * instead of asking for --entry.
 */
export async function zipEtlSession(path: string): Promise<string[] | undefined> {
  const names = await zipEntryNames(path);
  if (names === undefined) return undefined;
  const etl = names.filter((n) => !isIgnorableZipEntry(n) && /\.etl$/i.test(n));
  if (etl.length < 2) return undefined;
  const mains = etl.filter((n) => !/\.(kernel|clr|user)[^./]*\.etl$/i.test(n));
  if (mains.length !== 1) return undefined;
  const base = mains[0]!.slice(0, -4).toLowerCase();
  const parts = etl.filter((n) => n !== mains[0]);
  if (!parts.every((n) => /^\.(kernel|clr|user)[^./]*\.etl$/i.test(n.slice(base.length)) && n.toLowerCase().startsWith(base))) return undefined;
  return etl;
}

/**
 * Which entry of a zip to read, from the names in its central directory (zip-directory.ts):
 * `entry` when given (refused, listing what the zip holds, when no entry has that name); the
 * only entry that is content; among several, the only one named like a trace (a PerfView
 * .etl.zip holds its .etl beside symbol files). Several traces: refused, listing them, so the
 * user can choose one with `--entry`. Undefined when the directory cannot be read (the streaming
 * order decides, as before) or when `entry` is not given and the zip holds at most one entry.
 */
export async function chooseZipEntry(path: string, entry: string | undefined): Promise<string | undefined> {
  const names = await zipEntryNames(path);
  if (names === undefined) return entry;
  const content = names.filter((n) => !isIgnorableZipEntry(n));
  if (entry !== undefined) {
    if (names.includes(entry)) return entry;
    // A bare file name picks the entry of that name in any folder (PerfView zips nest the .etl).
    const byName = names.filter((n) => n.split('/').pop() === entry);
    if (byName.length === 1) return byName[0];
    throw new TraceFileError('zip-no-entry', `${path}: the zip holds no entry named "${entry}"; it holds ${listNames(content)}`);
  }
  if (content.length <= 1) return content[0];
  const extensions = traceFormats().flatMap((f) => f.extensions);
  const traces = content.filter((n) => extensions.some((x) => n.toLowerCase().endsWith(x)));
  if (traces.length === 1) return traces[0];
  const listed = traces.length > 1 ? traces : content;
  throw new TraceFileError(
    'zip-multiple',
    `${path}: the zip holds ${listed.length} ${traces.length > 1 ? 'traces' : 'files'} (${listNames(listed)}); choose one with --entry NAME (or unzip it and open that one)`,
  );
}

/** Entry names for a one-line message: quoted, at most ten, then how many more. */
function listNames(names: readonly string[]): string {
  if (names.length === 0) return 'nothing';
  const shown = names.slice(0, 10).map((n) => JSON.stringify(n));
  return names.length > 10 ? `${shown.join(', ')} and ${names.length - 10} more` : shown.join(', ');
}

function formatSize(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(0)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}
