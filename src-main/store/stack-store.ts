/**
 * Call stacks and allocation samples of a session (migration 6, issue 14): stacks and frames
 * deduplicated, AllocationTick samples and GC/Triggered events as rows pointing at them. Written
 * through the session's GcWriter batches; read back as one StackData for the allocation views.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRawSync } from 'node:zlib';
import { TickGroups } from '../shared/allocations.js';
import type { Database, SqlValue } from './db.js';

export const INSERT_FRAME = 'INSERT OR REPLACE INTO stack_frames (session_id, frame_id, address, name) VALUES ';
export const INSERT_STACK = 'INSERT OR REPLACE INTO stacks (session_id, stack_id, frames) VALUES ';
export const INSERT_TICK_CHUNK = 'INSERT OR REPLACE INTO alloc_ticks (session_id, chunk, n, data, encoding) VALUES ';

/** alloc_ticks.encoding (migration 8): the column layout as tickChunk packs it, or that deflated. */
export const TICKS_RAW = 0;
export const TICKS_DEFLATED = 1;

/**
 * Compresses the tick chunks of a batch's INSERT_TICK_CHUNK rows ([session, chunk, n, data,
 * TICKS_RAW]) where the batch is written: on the import's writer thread, not the decoding one.
 * Deflate level 1 takes a gc-verbose trace's samples to about a fifth (~190 MB/s here); the bytes
 * SQLite then writes twice (WAL, then checkpoint) were a quarter of importing a 1.1 GB trace.
 * Compressed on libuv's thread pool: the thread that writes is also the decoding one for a small
 * file (16 ms of a 5.9 MB gc-verbose trace's import, sync). One output buffer as large as the
 * input: with zlib's default 16 KB, the JavaScript side of each output piece (joined at the end)
 * cost the 1.1 GB import's writer thread 0.66 s; the compressed bytes are the same.
 */
export async function deflateTickRows(rows: SqlValue[][]): Promise<void> {
  await Promise.all(
    rows.map(async (r) => {
      if (r[4] !== TICKS_RAW) return;
      const raw = r[3] as Uint8Array;
      r[3] = await deflateRawAsync(raw, { level: 1, chunkSize: Math.max(1 << 14, raw.length) });
      r[4] = TICKS_DEFLATED;
    }),
  );
}

const deflateRawAsync = promisify(deflateRaw);

/** Sample columns of one chunk (see migration 6 for the byte layout). */
export interface TickColumns {
  time: ArrayLike<number>;
  amount: ArrayLike<number>;
  objectSize: ArrayLike<number>;
  type: ArrayLike<number>;
  stack: ArrayLike<number>;
  kind: ArrayLike<number>;
}

/** Whether this machine stores numbers little-endian, as the BLOBs do (x64 and arm64 do). */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Packs n samples into a chunk's BLOB: n times f64 time, f64 amount, f64 object size, i32 type,
 * i32 stack, u8 kind, column after column, little-endian.
 */
export function tickChunk(c: TickColumns, n: number): Uint8Array {
  const b = new Uint8Array(n * 33);
  if (LITTLE_ENDIAN) {
    // Columns written through typed-array views (the offsets are multiples of 8 and 4): a
    // DataView call per value was 6 % of importing a trace of 1.3 M allocation samples; this is
    // ~6× faster (bench: 120 → 18 ms for 1.3 M). Not `set`: the columns may be longer than n
    // (StackEvents.clearTicks keeps them), and slicing them first was slower than either.
    // One loop per column, not one helper for all: a helper called with three kinds of typed
    // array compiles to slow generic element access (0.2 s of a 1.1 GB trace's import).
    const time = new Float64Array(b.buffer, 0, n);
    const amount = new Float64Array(b.buffer, n * 8, n);
    const objectSize = new Float64Array(b.buffer, n * 16, n);
    const type = new Int32Array(b.buffer, n * 24, n);
    const stack = new Int32Array(b.buffer, n * 28, n);
    const kind = new Uint8Array(b.buffer, n * 32, n);
    for (let i = 0; i < n; i++) time[i] = c.time[i]!;
    for (let i = 0; i < n; i++) amount[i] = c.amount[i]!;
    for (let i = 0; i < n; i++) objectSize[i] = c.objectSize[i]!;
    for (let i = 0; i < n; i++) type[i] = c.type[i]!;
    for (let i = 0; i < n; i++) stack[i] = c.stack[i]!;
    for (let i = 0; i < n; i++) kind[i] = c.kind[i]!;
    return b;
  }
  const v = new DataView(b.buffer);
  for (let i = 0; i < n; i++) {
    v.setFloat64(i * 8, c.time[i]!, true);
    v.setFloat64(n * 8 + i * 8, c.amount[i]!, true);
    v.setFloat64(n * 16 + i * 8, c.objectSize[i]!, true);
    v.setInt32(n * 24 + i * 4, c.type[i]!, true);
    v.setInt32(n * 28 + i * 4, c.stack[i]!, true);
    b[n * 32 + i] = c.kind[i]!;
  }
  return b;
}
export const INSERT_TICK_TYPE = 'INSERT OR REPLACE INTO alloc_tick_types (session_id, type_id, name) VALUES ';
export const INSERT_TRIGGER = 'INSERT OR REPLACE INTO gc_triggers (session_id, seq, time_msec, reason, thread_id, stack_id) VALUES ';

/** The tables a re-import clears before writing a session again. */
export const STACK_TABLES = ['stack_frames', 'stacks', 'alloc_ticks', 'alloc_tick_types', 'gc_triggers'] as const;

/** A session's stack facts (sessions.stack_info). */
export interface StackInfo {
  tickVersion: number;
  methodsFromLoadEvents: number;
  methodsFromRundown: number;
  methods: number;
  /** False while recording: names of methods known only from the end-of-session rundown are missing. */
  namesFinal: boolean;
}

export function stackBlob(frames: Int32Array): Uint8Array {
  const b = new Uint8Array(frames.length * 4);
  const v = new DataView(b.buffer);
  frames.forEach((f, i) => v.setInt32(i * 4, f, true));
  return b;
}

function framesOf(blob: Uint8Array): Int32Array {
  const n = blob.byteLength >> 2;
  const v = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = v.getInt32(i * 4, true);
  return out;
}

export async function setStackInfo(db: Database, sessionId: number, info: StackInfo): Promise<void> {
  await db.run('UPDATE sessions SET stack_info = ? WHERE id = ?', [JSON.stringify(info), sessionId]);
}

/** What the store holds of a session's stacks, in the shape symbols/ reads (symbols' StackData). */
export interface StoredStackData {
  tickTime: Float64Array;
  tickKind: Uint8Array;
  tickType: Int32Array;
  tickAmount: Float64Array;
  tickObjectSize: Float64Array;
  tickStack: Int32Array;
  /** Samples each entry stands for (loadStackData's `aggregate` option); absent: one each. */
  tickSamples?: Float64Array;
  tickCount: number;
  typeNames: string[];
  tickVersion: number;
  triggers: { timeMSec: number; reason: number; threadId: number; stack: number }[];
  stacks: { stacks: Int32Array[]; frameAddresses: number[] };
  methodCounts: { load: number; rundown: number; total: number };
  frameName(frame: number): string | undefined;
  /** False while the session records (see StackInfo.namesFinal). */
  namesFinal: boolean;
}

/**
 * Tick chunks read per query: a gc-verbose session holds hundreds of them, ~300 KB each deflated
 * and ~1.5 MB inflated. Four, not 16: `allocs --session` of a 1.1 GB trace's session peaked at
 * 154 MB with 16, 141 MB with 4 (129 MB with 1, but 20 % slower).
 */
const CHUNKS_PER_READ = 4;

export interface LoadStackOptions {
  /**
   * One entry per (stack, type, kind), amounts and object sizes summed and `tickSamples` counting
   * the samples (each keeps its first sample's time), as StackEvents' `aggregate` option: what a
   * whole-session report needs, in memory bounded by the distinct stacks and types instead of 33
   * bytes a sample (a 1.1 GB trace's session has 12 M samples). Time ranges then cannot be asked.
   */
  aggregate?: boolean;
}

/** Reads a session's stacks, frames, samples and triggers. */
export async function loadStackData(db: Database, sessionId: number, opts: LoadStackOptions = {}): Promise<StoredStackData> {
  const [info, total, types, stacks, frames, triggers] = await Promise.all([
    db.get<{ stack_info: string | null }>('SELECT stack_info FROM sessions WHERE id = ?', [sessionId]),
    db.get<{ n: number | null }>('SELECT SUM(n) AS n FROM alloc_ticks WHERE session_id = ?', [sessionId]),
    db.all<{ type_id: number; name: string }>('SELECT type_id, name FROM alloc_tick_types WHERE session_id = ?', [sessionId]),
    db.all<{ stack_id: number; frames: Uint8Array }>('SELECT stack_id, frames FROM stacks WHERE session_id = ?', [sessionId]),
    db.all<{ frame_id: number; address: number; name: string | null }>('SELECT frame_id, address, name FROM stack_frames WHERE session_id = ?', [sessionId]),
    db.all<{ time_msec: number; reason: number; thread_id: number; stack_id: number }>(
      'SELECT time_msec, reason, thread_id, stack_id FROM gc_triggers WHERE session_id = ? ORDER BY seq',
      [sessionId],
    ),
  ]);
  const si = info?.stack_info != null ? (JSON.parse(info.stack_info) as StackInfo) : undefined;
  const out = opts.aggregate === true ? new AggregatedTicks() : new TickArrays(total?.n ?? 0);
  // The chunks a page at a time: all of them at once held every BLOB and its inflated copy.
  for (let after = -1; ;) {
    const page = await db.all<{ chunk: number; n: number; data: Uint8Array; encoding: number }>(
      'SELECT chunk, n, data, encoding FROM alloc_ticks WHERE session_id = ? AND chunk > ? ORDER BY chunk LIMIT ?',
      [sessionId, after, CHUNKS_PER_READ],
    );
    for (const c of page) {
      const m = c.n;
      if (c.encoding !== TICKS_RAW && c.encoding !== TICKS_DEFLATED)
        throw new Error(`alloc_ticks chunk of ${m} samples has encoding ${c.encoding}, which this GCScope does not know`);
      const data = c.encoding === TICKS_DEFLATED ? inflateRawSync(c.data, { maxOutputLength: m * 33 }) : c.data;
      if (data.byteLength !== m * 33) throw new Error(`alloc_ticks chunk of ${m} samples is ${data.byteLength} bytes, not ${m * 33}`);
      const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
      for (let i = 0; i < m; i++) {
        out.add(
          v.getFloat64(i * 8, true),
          v.getFloat64(m * 8 + i * 8, true),
          v.getFloat64(m * 16 + i * 8, true),
          v.getInt32(m * 24 + i * 4, true),
          v.getInt32(m * 28 + i * 4, true),
          data[m * 32 + i]!,
        );
      }
    }
    if (page.length < CHUNKS_PER_READ) break;
    after = page[page.length - 1]!.chunk;
  }
  const d: StoredStackData = {
    ...out.columns(),
    typeNames: [],
    tickVersion: si?.tickVersion ?? -1,
    triggers: triggers.map((t) => ({ timeMSec: t.time_msec, reason: t.reason, threadId: t.thread_id, stack: t.stack_id })),
    stacks: { stacks: [new Int32Array(0)], frameAddresses: [] },
    methodCounts: { load: si?.methodsFromLoadEvents ?? 0, rundown: si?.methodsFromRundown ?? 0, total: si?.methods ?? 0 },
    frameName: () => undefined,
    namesFinal: si?.namesFinal ?? false,
  };
  for (const t of types) d.typeNames[t.type_id] = t.name;
  for (const s of stacks) d.stacks.stacks[s.stack_id] = framesOf(s.frames);
  for (let i = 0; i < d.stacks.stacks.length; i++) d.stacks.stacks[i] ??= new Int32Array(0);
  const names: (string | undefined)[] = [];
  for (const f of frames) {
    d.stacks.frameAddresses[f.frame_id] = f.address;
    names[f.frame_id] = f.name ?? undefined;
  }
  d.frameName = (frame) => names[frame];
  return d;
}

type TickColumnArrays = Pick<
  StoredStackData,
  'tickTime' | 'tickKind' | 'tickType' | 'tickAmount' | 'tickObjectSize' | 'tickStack' | 'tickCount' | 'tickSamples'
>;

/** Every sample, in typed arrays of the session's sample count. */
class TickArrays {
  private at = 0;
  private readonly c: TickColumnArrays;
  constructor(n: number) {
    this.c = {
      tickTime: new Float64Array(n),
      tickKind: new Uint8Array(n),
      tickType: new Int32Array(n),
      tickAmount: new Float64Array(n),
      tickObjectSize: new Float64Array(n),
      tickStack: new Int32Array(n),
      tickCount: n,
    };
  }
  add(time: number, amount: number, objectSize: number, type: number, stack: number, kind: number): void {
    const i = this.at++;
    const c = this.c;
    c.tickTime[i] = time;
    c.tickAmount[i] = amount;
    c.tickObjectSize[i] = objectSize;
    c.tickType[i] = type;
    c.tickStack[i] = stack;
    c.tickKind[i] = kind;
  }
  columns(): TickColumnArrays {
    return this.c;
  }
}

/** One entry per (stack, type, kind), summed in sample order (as StackEvents' aggregate mode). */
class AggregatedTicks {
  private readonly time: number[] = [];
  private readonly amount: number[] = [];
  private readonly objectSize: number[] = [];
  private readonly type: number[] = [];
  private readonly stack: number[] = [];
  private readonly kind: number[] = [];
  private readonly samples: number[] = [];
  private readonly groups = new TickGroups();
  add(time: number, amount: number, objectSize: number, type: number, stack: number, kind: number): void {
    const at = this.groups.entryOr(stack, type, kind, this.time.length);
    if (at >= 0) {
      this.amount[at] = this.amount[at]! + amount;
      this.objectSize[at] = this.objectSize[at]! + objectSize;
      this.samples[at] = this.samples[at]! + 1;
      return;
    }
    this.time.push(time);
    this.amount.push(amount);
    this.objectSize.push(objectSize);
    this.type.push(type);
    this.stack.push(stack);
    this.kind.push(kind);
    this.samples.push(1);
  }
  columns(): TickColumnArrays {
    return {
      tickTime: Float64Array.from(this.time),
      tickKind: Uint8Array.from(this.kind),
      tickType: Int32Array.from(this.type),
      tickAmount: Float64Array.from(this.amount),
      tickObjectSize: Float64Array.from(this.objectSize),
      tickStack: Int32Array.from(this.stack),
      tickCount: this.time.length,
      tickSamples: Float64Array.from(this.samples),
    };
  }
}

/** Rows for one batch of newly seen frames / stacks / ticks / triggers. */
export function frameRow(sessionId: number, frameId: number, address: number, name: string | undefined): SqlValue[] {
  return [sessionId, frameId, address, name ?? null];
}
