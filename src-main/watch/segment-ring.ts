/**
 * The flight recorder's raw layer (docs/architecture.md, "The flight recorder"): the last seconds of an
 * EventPipe stream kept in memory as a ring of segments, bounded in bytes, from which a capture
 * — an ordinary .nettrace file — can be cut at any segment boundary.
 *
 * What makes a cut self-contained (NetTrace V4/V5, docs/formats.md §2):
 * - the trace header (magic, FastSerialization header, Trace object: sync time, QPC frequency)
 *   is the stream's own, so events keep their times relative to the watched session;
 * - metadata ids are unique for the whole stream and each is defined once: every metadata block
 *   ever seen is kept (a few KB: one record per event kind) and written first in each capture;
 * - stack ids restart after each sequence-point block: the stack blocks since the last one are
 *   carried, and a segment remembers those in force when it began;
 * - event blocks are self-contained (compressed headers restart at each block), and a reader
 *   seeing a capture thread for the first time takes its first sequence number as the baseline
 *   (TraceEvent's EventCache does `SequenceNumber - 1`, and so does nettrace/event-sorter.ts),
 *   so a cut is not counted as lost events.
 *
 * The ring holds raw block bytes only; it is pure (no I/O): the watcher writes the chunks
 * `captureChunks` returns.
 */
import { BlockKind } from '../nettrace/reader.js';
import { eventBlockTimestamps, reframeBlock, reframedLength, splitFsBlock, type FsBlockParts } from './fs-block.js';

/** A block kept by the ring: its parts, and the trace-time span of its events (event blocks). */
export interface RingBlock {
  kind: BlockKind;
  parts: FsBlockParts;
  /** Earliest / latest event time in the block (ms since the trace's sync time); NaN for others. */
  minMSec: number;
  maxMSec: number;
  bytes: number;
}

interface Segment {
  blocks: RingBlock[];
  /** Stack blocks in force when the segment began (since the last sequence point). */
  stacks: RingBlock[];
  startMSec: number;
  endMSec: number;
  bytes: number;
}

export interface RingOptions {
  /** Upper bound of the ring's memory (segments and carried stack blocks), in bytes. */
  maxBytes: number;
  /** How far back captures reach (ms): older segments are dropped even below maxBytes. */
  keepMSec: number;
  /** Segment span (ms; default 1000) — a capture starts at a segment boundary. */
  segmentMSec?: number;
}

export interface RingStats {
  /** Bytes held by segments and carried stack blocks (bounded by maxBytes). */
  ringBytes: number;
  /** Bytes of the trace header and metadata blocks (kept for the whole watch). */
  headerBytes: number;
  segments: number;
  /** Trace time of the oldest event kept (ms), or null when empty. */
  oldestMSec: number | null;
  /** Segments dropped because the ring was full before they were `keepMSec` old. */
  droppedForSpace: number;
  /** The most `ringBytes` ever held (after each block's evictions). */
  peakBytes: number;
}

export class SegmentRing {
  private header: Uint8Array | undefined;
  private syncQpc = 0n;
  private qpcPerMSec = 1;
  private readonly metadata: RingBlock[] = [];
  private metadataBytes = 0;
  private stacks: RingBlock[] = [];
  private stackBytes = 0;
  private readonly segments: Segment[] = [];
  /** Bytes of the segments' blocks. */
  private bytes = 0;
  private droppedForSpace = 0;
  /** Segments dropped for any reason (space or age). */
  private dropped = 0;
  private peakBytes = 0;
  private readonly segmentMSec: number;
  private readonly segmentBytes: number;
  /** Newest event time seen (ms). */
  newestMSec = Number.NEGATIVE_INFINITY;

  constructor(private readonly opts: RingOptions) {
    this.segmentMSec = opts.segmentMSec ?? 1000;
    // Eight or more segments fit in the budget, so dropping whole segments keeps the ring within it.
    this.segmentBytes = Math.max(4096, Math.floor(opts.maxBytes / 8));
  }

  /** The stream's bytes up to the end of its Trace object, and its clock (ticks at sync time, ticks per second). */
  setHeader(bytes: Uint8Array, syncQpc: bigint, qpcFrequency: number): void {
    this.header = bytes.slice();
    this.syncQpc = syncQpc;
    this.qpcPerMSec = qpcFrequency / 1000;
  }

  get hasHeader(): boolean {
    return this.header !== undefined;
  }

  /**
   * Adds one block as read from the stream (`raw`: its bytes, starting at stream offset `offset`).
   * The ring keeps `raw` itself (no copy): give it bytes of its own, not a view of a larger chunk
   * (BlockTap.slice copies), or the chunk would stay alive with it.
   */
  add(kind: BlockKind, raw: Uint8Array, offset: number): RingBlock | undefined {
    // Only these are needed to read GC events again (and end-of-stream is the capture's own).
    if (kind !== BlockKind.Event && kind !== BlockKind.Metadata && kind !== BlockKind.Stack && kind !== BlockKind.SequencePoint) return undefined;
    const parts = splitFsBlock(raw, offset);
    const block: RingBlock = { kind, parts, minMSec: NaN, maxMSec: NaN, bytes: parts.header.length + parts.content.length + 4 };
    switch (kind) {
      case BlockKind.Metadata:
        this.metadata.push(block);
        this.metadataBytes += block.bytes;
        return block;
      case BlockKind.Stack:
        // In stream order in its segment, and carried until the next sequence point (counted
        // twice while both: the bound stays an upper bound).
        this.stacks.push(block);
        this.stackBytes += block.bytes;
        this.append(block);
        break;
      case BlockKind.SequencePoint:
        // Stack ids restart here: what came before is no longer referenced after this block.
        this.stacks = [];
        this.stackBytes = 0;
        this.append(block);
        break;
      case BlockKind.Event: {
        const ts = eventBlockTimestamps(parts.content);
        if (ts !== undefined && ts.min > 0n) {
          block.minMSec = Number(ts.min - this.syncQpc) / this.qpcPerMSec;
          block.maxMSec = Number(ts.max - this.syncQpc) / this.qpcPerMSec;
          if (block.maxMSec > this.newestMSec) this.newestMSec = block.maxMSec;
        }
        this.append(block);
        break;
      }
    }
    this.evict();
    this.peakBytes = Math.max(this.peakBytes, this.bytes + this.stackBytes);
    return block;
  }

  private current(): Segment {
    let s = this.segments[this.segments.length - 1];
    const full = s !== undefined && (s.bytes >= this.segmentBytes || (Number.isFinite(s.startMSec) && this.newestMSec - s.startMSec >= this.segmentMSec));
    if (s === undefined || full) {
      s = { blocks: [], stacks: this.stacks.slice(), startMSec: NaN, endMSec: NaN, bytes: 0 };
      this.segments.push(s);
    }
    return s;
  }

  private append(b: RingBlock): void {
    const s = this.current();
    s.blocks.push(b);
    s.bytes += b.bytes;
    this.bytes += b.bytes;
    if (!Number.isNaN(b.minMSec)) {
      if (!(s.startMSec <= b.minMSec)) s.startMSec = b.minMSec;
      if (!(s.endMSec >= b.maxMSec)) s.endMSec = b.maxMSec;
    }
  }

  /** Drops the oldest segments: while over budget, or while the next one alone covers `keepMSec`. */
  private evict(): void {
    while (this.segments.length > 1) {
      const next = this.segments[1]!;
      const tooOld = next.startMSec <= this.newestMSec - this.opts.keepMSec;
      const tooBig = this.bytes + this.stackBytes > this.opts.maxBytes;
      if (!tooOld && !tooBig) break;
      if (tooBig && !tooOld) this.droppedForSpace++;
      this.dropped++;
      this.bytes -= this.segments.shift()!.bytes;
    }
  }

  stats(): RingStats {
    const first = this.segments.find((s) => !Number.isNaN(s.startMSec));
    return {
      ringBytes: this.bytes + this.stackBytes,
      headerBytes: (this.header?.length ?? 0) + this.metadataBytes,
      segments: this.segments.length,
      oldestMSec: first?.startMSec ?? null,
      droppedForSpace: this.droppedForSpace,
      peakBytes: this.peakBytes,
    };
  }

  /**
   * The blocks a capture starting at `fromMSec` needs from the ring: the stack blocks in force at
   * the first segment that reaches `fromMSec`, then every block from there on.
   */
  since(fromMSec: number): { stacks: RingBlock[]; blocks: RingBlock[]; startMSec: number | null } {
    // The last segment that starts at or before fromMSec (segments without events go with the
    // one before them); when every segment starts later, the ring did not reach that far back.
    let i = 0;
    this.segments.forEach((s, k) => {
      if (s.startMSec <= fromMSec) i = k;
    });
    const picked = this.segments.slice(i);
    const blocks = picked.flatMap((s) => s.blocks);
    const start = picked.find((s) => !Number.isNaN(s.startMSec))?.startMSec ?? null;
    return { stacks: picked[0]?.stacks ?? this.stacks.slice(), blocks, startMSec: start };
  }

  /**
   * Whether a capture cut by `since(fromMSec)` (its `startMSec`) holds a GC that began at
   * `gcStartMSec`: false once the ring has dropped the segment the GC began in.
   */
  static holds(startMSec: number | null, gcStartMSec: number): boolean {
    return startMSec !== null && startMSec <= gcStartMSec;
  }

  /**
   * `holds`, for this ring at the moment a trigger is judged. A trigger can be judged while the
   * block holding its GC's events is still being read, before the ring has it: for the first GC
   * of a watch, the ring then has no timed block at all (`since` gives no start), yet nothing was
   * dropped and the capture takes that block as it is added. Only a ring that has dropped
   * segments can have lost the GC's start (a busy workload's GC #1 was reported "cut" with a
   * 0.25 MB ring that had dropped nothing).
   */
  captureHolds(startMSec: number | null, gcStartMSec: number): boolean {
    if (startMSec === null) return this.dropped === 0;
    return SegmentRing.holds(startMSec, gcStartMSec);
  }

  /**
   * A capture as file chunks: the trace header, every metadata block, the carried stack blocks,
   * then `blocks`, then the end-of-stream tag (NullReference). Blocks are reframed for their new
   * offsets.
   */
  captureChunks(stacks: readonly RingBlock[], blocks: readonly RingBlock[]): Uint8Array[] {
    if (this.header === undefined) throw new Error('no trace header yet');
    const out: Uint8Array[] = [this.header];
    let offset = this.header.length;
    const emit = (b: RingBlock): void => {
      const len = reframedLength(b.parts, offset);
      out.push(...reframeBlock(b.parts, offset));
      offset += len;
    };
    // Metadata after the stacks would be as valid; first reads naturally (definitions, then uses).
    for (const m of this.metadata) emit(m);
    const seen = new Set<RingBlock>();
    for (const s of stacks) {
      seen.add(s);
      emit(s);
    }
    for (const b of blocks) if (!seen.has(b)) emit(b);
    out.push(Uint8Array.of(1));
    return out;
  }
}
