/**
 * The incremental NetPerf/NetTrace reader: push chunks of any size, get the trace header,
 * metadata and time-ordered events through callbacks. The same code reads files (big chunks)
 * and live diagnostics streams (whatever the socket delivers).
 *
 * Containers (docs/formats.md §2, perfview NetPerfFormat.md / NetTraceFormat_v5.md / NetTraceFormat.md):
 * - NetPerf V3: `i32 20 "!FastSerialization.1"`, objects opened with tag 4.
 * - NetTrace V4/V5: `"Nettrace"` then the same FastSerialization stream with tag 5.
 *   Each object: begin tag, begin tag, null tag, i32 version, i32 minVersion, i32 nameLength,
 *   name, end tag; then (blocks only) i32 BlockSize, zero padding to a 4-byte *stream* offset,
 *   BlockSize content bytes, end tag. A lone null tag (1) ends the stream.
 * - NetTrace V6: `"Nettrace" u32 0 u32 major u32 minor`, then blocks of `u32 (kind << 24 | size)`
 *   + content, ending with an EndOfStream block (kind 0). Unknown kinds are skipped.
 * NetPerf V1/V2 (`Microsoft.DotNet.Runtime.EventPipeFile` version 1/2) are refused with
 * UnsupportedVersionError, as current TraceEvent does.
 *
 * This file is the container framing (magic, FastSerialization objects, V6 block headers, end of
 * stream); what is inside each block is decoded by blocks.ts.
 *
 * Errors: malformed input throws a NettraceError from push() (state 'failed'); everything
 * decoded before it has been delivered. A stream that simply stops is not an error: end()
 * releases what is complete (including the complete events of a partly received event block)
 * and leaves state 'truncated' with `error` describing where it stopped.
 */
import { TraceDecodeError } from '../trace/errors.js';
import { BlockDecoder, BLOCK_KIND_NAMES, BlockKind } from './blocks.js';
import { ByteCursor } from '../trace/byte-cursor.js';
import { ChunkQueue } from './chunk-queue.js';
import { asNettraceError, NettraceError, UnsupportedVersionError } from './errors.js';
import { StackTable } from './stack-block.js';
import type { TraceReader, TraceReaderHandlers, TraceReaderOptions } from '../trace/reader.js';
import type { ReaderState, TraceEventRecord, TraceInfo } from './types.js';

export { BLOCK_KIND_NAMES, BlockKind };

/** The format-neutral handlers (trace/reader.ts); `onBlock`'s kind is a BlockKind here. */
export interface ReaderHandlers extends TraceReaderHandlers {
  /** A whole block was processed; `start`/`end` are absolute offsets of the object/block. */
  onBlock?(kind: BlockKind, start: number, end: number): void;
}

/**
 * The format-neutral options (trace/reader.ts). Here: `maxBlockSize` defaults to 64 MiB (real
 * runtime blocks are ~100 KB, V6 caps at 16 MiB); `stacks` decodes stack blocks (otherwise
 * skipped without copying), and `stack(e.stackId)` then gives an event's return addresses while
 * its onEvent call runs; a reused record's `bytes` block stays valid.
 */
export type ReaderOptions = TraceReaderOptions;

const BLOCK_NAMES: Record<string, BlockKind> = {
  EventBlock: BlockKind.Event,
  MetadataBlock: BlockKind.Metadata,
  StackBlock: BlockKind.Stack,
  SPBlock: BlockKind.SequencePoint,
};

const FS_MAGIC = '!FastSerialization.1';
const NETTRACE_MAGIC = [0x4e, 0x65, 0x74, 0x74, 0x72, 0x61, 0x63, 0x65];
const TAG_NULL = 1;
const TAG_BEGIN_OBJECT = 4;
const TAG_BEGIN_PRIVATE = 5;
const TAG_END = 6;

type Phase =
  | { k: 'magic' }
  | { k: 'afterMagic' }
  | { k: 'fsHeader' }
  | { k: 'v6Version' }
  | { k: 'fsObject' }
  /** FastSerialization block or trace object content, followed by the end tag. */
  | { k: 'fsContent'; kind: BlockKind; size: number; version: number; start: number }
  | { k: 'v6Block' }
  | { k: 'v6Content'; kind: BlockKind; size: number; start: number }
  | { k: 'done' };

export class NettraceReader implements TraceReader {
  state: ReaderState = 'reading';
  /** The fatal error (state 'failed') or where the stream stopped (state 'truncated'). */
  error: NettraceError | undefined;
  /** The trace header, once read. */
  get trace(): TraceInfo | undefined {
    return this.blocks.trace;
  }
  /** Events the runtime reported as lost (sequence-number gaps). */
  get droppedEvents(): number {
    return this.blocks.sorter?.droppedEvents ?? 0;
  }
  /** Non-metadata events delivered so far. */
  eventCount = 0;
  readonly blockCounts: Record<string, number> = {};
  /** Metadata records with V5 tags seen (V5 vs V4 is only visible through these). */
  get v5TagCount(): number {
    return this.blocks.v5TagCount;
  }

  private readonly q = new ChunkQueue();
  private flushedAfterFailure = false;
  private phase: Phase = { k: 'magic' };
  private readonly maxBlockSize: number;
  private readonly blocks: BlockDecoder;
  private readonly wantStacks: boolean;
  private stackTable: StackTable | undefined;

  constructor(
    private readonly handlers: ReaderHandlers,
    options: ReaderOptions = {},
  ) {
    this.maxBlockSize = options.maxBlockSize ?? 64 * 1024 * 1024;
    this.wantStacks = options.stacks === true;
    this.blocks = new BlockDecoder(handlers, options.sort ?? true, options.reuseRecords === true, (e) => {
      this.eventCount++;
      this.handlers.onEvent?.(e);
    });
  }

  /** Bytes consumed so far (absolute offset of the next structure). */
  get offset(): number {
    return this.q.consumed;
  }

  get formatName(): string {
    if (this.blocks.formatVersion === 0) return 'unknown';
    if (!this.blocks.isNetTrace) return `NetPerf V${this.blocks.formatVersion}`;
    if (this.blocks.formatVersion >= 6) return `NetTrace V${this.blocks.formatVersion}.${this.blocks.formatMinor}`;
    return this.v5TagCount > 0 ? 'NetTrace V5' : 'NetTrace V4';
  }

  push(chunk: Uint8Array): void {
    if (this.state !== 'reading') {
      if (this.state === 'failed') throw this.error!;
      return;
    }
    this.q.push(chunk);
    try {
      this.run();
    } catch (e) {
      // Whatever went wrong, the caller gets a typed error at the structure being decoded.
      const err = asNettraceError(e, this.q.consumed);
      this.state = 'failed';
      this.error = err;
      throw err;
    }
  }

  /** The stream has ended. Releases queued events; sets state 'complete' or 'truncated'. */
  end(): void {
    if (this.state === 'failed' && !this.flushedAfterFailure) {
      // Deliver what was queued before the damage, once.
      this.flushedAfterFailure = true;
      this.blocks.sorter?.flush();
      return;
    }
    if (this.state !== 'reading') return;
    if (this.phase.k === 'done') {
      this.blocks.sorter?.flush();
      this.state = 'complete';
      return;
    }
    const where = this.q.consumed;
    let what = 'before the end-of-stream marker';
    try {
      if (this.phase.k === 'fsContent' || this.phase.k === 'v6Content') {
        const p = this.phase;
        what = `inside a ${BLOCK_KIND_NAMES[p.kind] ?? 'block'} of ${p.size} bytes (${this.q.available} present)`;
        if (p.kind === BlockKind.Event) this.blocks.decodePartialEventBlock(new ByteCursor(this.q.rest(), this.q.consumed));
      } else if (this.phase.k === 'magic' || this.phase.k === 'afterMagic' || this.phase.k === 'fsHeader') {
        what = 'inside the file header';
      }
    } catch {
      // Damage inside the partial block is reported as the truncation below.
    }
    this.blocks.sorter?.flush();
    this.state = 'truncated';
    this.error = new NettraceError('truncated', where, `trace is truncated: it stops ${what}; the events before that point were read`);
  }

  // ---------------------------------------------------------------------------------------

  private run(): void {
    const q = this.q;
    for (;;) {
      const p = this.phase;
      switch (p.k) {
        case 'magic': {
          if (q.available < 8) return;
          const b = q.peek(8);
          if (NETTRACE_MAGIC.every((v, i) => b[i] === v)) {
            q.skip(8);
            this.blocks.isNetTrace = true;
            this.phase = { k: 'afterMagic' };
          } else {
            this.phase = { k: 'fsHeader' };
          }
          break;
        }
        case 'afterMagic': {
          if (q.available < 4) return;
          const c = new ByteCursor(q.peek(4), q.consumed);
          if (c.u32() !== 0) this.phase = { k: 'fsHeader' };
          else {
            q.skip(4);
            this.phase = { k: 'v6Version' };
          }
          break;
        }
        case 'fsHeader': {
          if (q.available < 24) return;
          const c = new ByteCursor(q.peek(24), q.consumed);
          const len = c.i32();
          const magic = len === 20 ? String.fromCharCode(...c.bytesView(20)) : '';
          if (magic !== FS_MAGIC) {
            throw new NettraceError(
              'bad-magic',
              q.consumed,
              'not a .nettrace or .netperf file: it starts with neither "Nettrace" nor the FastSerialization header',
            );
          }
          q.skip(24);
          this.phase = { k: 'fsObject' };
          break;
        }
        case 'v6Version': {
          if (q.available < 8) return;
          const c = new ByteCursor(q.take(8), q.consumed - 8);
          const major = c.u32();
          const minor = c.u32();
          if (major < 6) throw new NettraceError('bad-magic', c.base, `invalid NetTrace version header (major ${major})`);
          if (major > 6) throw new UnsupportedVersionError(major, 3, 6, c.base);
          this.blocks.formatVersion = major;
          this.blocks.formatMinor = minor;
          this.phase = { k: 'v6Block' };
          break;
        }
        case 'fsObject':
          if (!this.readFsObjectHeader()) return;
          break;
        case 'fsContent': {
          if (q.available < p.size + 1) return;
          this.content(p.kind, p.size);
          const endTag = q.take(1)[0];
          if (endTag !== TAG_END) {
            throw new NettraceError('bad-tag', q.consumed - 1, `expected end-of-object tag 6 after a block, found ${endTag}`);
          }
          this.count(p.kind);
          this.handlers.onBlock?.(p.kind, p.start, q.consumed);
          this.phase = { k: 'fsObject' };
          break;
        }
        case 'v6Block': {
          if (q.available < 4) return;
          const c = new ByteCursor(q.take(4), q.consumed - 4);
          const x = c.u32();
          const size = x & 0xffffff;
          const kind = x >>> 24;
          if (this.blocks.trace === undefined && kind !== BlockKind.Trace) {
            throw new NettraceError('bad-block', c.base, `expected the Trace block first, found block kind ${kind}`);
          }
          this.phase = { k: 'v6Content', kind, size, start: c.base };
          break;
        }
        case 'v6Content': {
          if (q.available < p.size) return;
          if (p.kind > BlockKind.LabelList) q.skip(p.size);
          else this.content(p.kind, p.size);
          this.count(p.kind);
          this.handlers.onBlock?.(p.kind, p.start, q.consumed);
          this.phase = p.kind === BlockKind.EndOfStream ? { k: 'done' } : { k: 'v6Block' };
          break;
        }
        case 'done':
          // Anything after the end-of-stream marker is ignored.
          q.skip(q.available);
          return;
      }
    }
  }

  /** One whole block's content, present in the queue. */
  private content(kind: BlockKind, size: number): void {
    const q = this.q;
    if (kind === BlockKind.Stack) {
      // Stacks are not needed for GC analysis: skipped without copying unless asked for.
      if (!this.wantStacks) q.skip(size);
      else {
        const base = q.consumed;
        this.stackTable ??= new StackTable(this.blocks.trace?.pointerSize ?? 8);
        this.stackTable.readBlock(new ByteCursor(q.take(size), base));
      }
      return;
    }
    const base = q.consumed;
    this.blocks.processBlock(kind, new ByteCursor(q.take(size), base));
    // The sequence point released every queued event (they could still use their stacks);
    // stack ids start again after it.
    if (kind === BlockKind.SequencePoint) this.stackTable?.clear();
    if ((this.blocks.sorter?.queued ?? 0) === 0 && (this.stackTable?.size ?? 0) === 0) this.released = q.consumed;
  }

  private released = 0;

  /**
   * The absolute offset before which the reader holds no view into the bytes pushed to it: no
   * queued event's payload and no stack block lies there (events wait for time order until the
   * next sequence point, stack blocks until the one after). A file reader may reuse a chunk that
   * ends before it (recording/trace-file.ts). Handlers must not keep a payload view past the
   * callback that received it (they copy what they keep: symbols/method-map.ts's name arena).
   */
  get releasedBefore(): number {
    return this.released;
  }

  /**
   * The return addresses (innermost first) of a stack id seen in an event being delivered, or
   * undefined: id 0, stacks not asked for (`stacks` option), or no stack block defined the id.
   */
  stack(id: number): Float64Array | undefined {
    return this.stackTable?.get(id);
  }

  /**
   * The call stack of the event being delivered (call it during onEvent): from the stack blocks
   * by its stack id (NetTrace V4–V6), or written inline with the event (NetPerf V3, where events
   * carry their own stack bytes). Undefined without one or without the `stacks` option.
   */
  eventStack(e: TraceEventRecord): Float64Array | undefined {
    if (!this.wantStacks) return undefined;
    if (this.blocks.formatVersion > 3) return this.stackTable?.get(e.stackId);
    const s = this.blocks.inlineStack;
    if (s === undefined) return undefined;
    const p = this.blocks.trace?.pointerSize ?? 8;
    const n = Math.floor(s.size / p);
    const v = new DataView(s.bytes.buffer, s.bytes.byteOffset + s.start, n * p);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = p === 8 ? v.getUint32(i * 8 + 4, true) * 4294967296 + v.getUint32(i * 8, true) : v.getUint32(i * 4, true);
    return out;
  }

  private count(kind: BlockKind): void {
    const name = BLOCK_KIND_NAMES[kind] ?? `Block${kind}`;
    this.blockCounts[name] = (this.blockCounts[name] ?? 0) + 1;
  }

  /** Parses a FastSerialization object header; returns false when more bytes are needed. */
  private readFsObjectHeader(): boolean {
    const q = this.q;
    if (q.available < 1) return false;
    const c = new ByteCursor(q.peek(Math.min(q.available, 96)), q.consumed);
    const tag = c.u8();
    if (tag === TAG_NULL) {
      q.skip(1);
      this.phase = { k: 'done' };
      this.blocks.sorter?.flush();
      this.count(BlockKind.EndOfStream);
      this.handlers.onBlock?.(BlockKind.EndOfStream, c.base, c.base + 1);
      return true;
    }
    const begin = this.blocks.isNetTrace ? TAG_BEGIN_PRIVATE : TAG_BEGIN_OBJECT;
    try {
      if (tag !== begin) throw new NettraceError('bad-tag', c.offset - 1, `expected begin-object tag ${begin}, found ${tag}`);
      const t2 = c.u8();
      if (t2 !== begin) throw new NettraceError('bad-tag', c.offset - 1, `expected begin-object tag ${begin} for the type, found ${t2}`);
      const t3 = c.u8();
      if (t3 !== TAG_NULL) throw new NettraceError('bad-tag', c.offset - 1, `expected null type-of-type tag, found ${t3}`);
      const version = c.i32();
      c.i32(); // minimum reader version
      const nameLen = c.i32();
      if (nameLen < 0 || nameLen > 64) throw new NettraceError('bad-block', c.offset - 4, `implausible object type name length ${nameLen}`);
      const name = String.fromCharCode(...c.bytesView(nameLen, 'an object type name'));
      const t4 = c.u8();
      if (t4 !== TAG_END) throw new NettraceError('bad-tag', c.offset - 1, `expected end tag after type "${name}", found ${t4}`);
      if (name === 'Trace' || name === 'Microsoft.DotNet.Runtime.EventPipeFile') {
        if (this.blocks.trace !== undefined) throw new NettraceError('bad-block', c.base, 'a second Trace object');
        if (version < 3) throw new UnsupportedVersionError(version, 3, 6, c.base);
        if (version > 4) throw new NettraceError('bad-block', c.base, `unrecognized Trace object version ${version}`);
        if ((version === 4) !== this.blocks.isNetTrace) {
          throw new NettraceError(
            'bad-block',
            c.base,
            `Trace object version ${version} does not match the ${this.blocks.isNetTrace ? 'Nettrace' : 'NetPerf'} header`,
          );
        }
        this.blocks.formatVersion = version;
        q.skip(c.pos);
        this.phase = { k: 'fsContent', kind: BlockKind.Trace, size: 48, version, start: c.base };
        return true;
      }
      if (this.blocks.trace === undefined) throw new NettraceError('bad-block', c.base, `expected the Trace object first, found "${name}"`);
      const kind = BLOCK_NAMES[name];
      if (kind === undefined) throw new NettraceError('bad-block', c.base, `unrecognized block type "${name}"`);
      if (version > 2) throw new NettraceError('bad-block', c.base, `unrecognized ${name} version ${version}`);
      const size = c.i32();
      if (size < 0 || size > this.maxBlockSize) {
        throw new NettraceError('too-large', c.offset - 4, `${name} claims ${size} bytes, more than any real trace block`);
      }
      const pad = (4 - (c.offset % 4)) % 4;
      c.skip(pad, 'block alignment padding');
      q.skip(c.pos);
      this.phase = { k: 'fsContent', kind, size, version, start: c.base };
      return true;
    } catch (e) {
      // Ran out of bytes while the header is still within the peeked window: wait for more.
      if (e instanceof TraceDecodeError && e.code === 'truncated' && c.length === q.available && c.length < 96) return false;
      throw e;
    }
  }

  /** Exact sync tick value (for converting relative ticks back to absolute). */
  get syncTimeQpc(): bigint {
    return this.blocks.syncQpc;
  }
}
