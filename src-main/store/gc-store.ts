/**
 * Writing and reading GC rows. Writes are batched: rows accumulate and `flush()` stores them in
 * one transaction with a prepared statement (INSERT OR REPLACE, so a GC whose metrics changed
 * after it completed is simply written again).
 */
import type { GcRecord } from '../shared/gc-record.js';
import type { PinnedTypeCount } from '../shared/finding.js';
import { GcRecordTable } from '../common/gc-record-table.js';
import { HEAP_GENERATION_FIELDS, type HeapGenerationHistory, type HeapHistory } from '../common/heap-history.js';
import type { Database, SqlValue } from './db.js';
import { GC_COLUMNS, recordToRow, rowToRecord } from './gc-rows.js';
import { deflateTickRows, INSERT_TICK_CHUNK } from './stack-store.js';

const INSERT_GC = `INSERT OR REPLACE INTO gcs (session_id, ${GC_COLUMNS.join(', ')}) VALUES `;
const INSERT_HEAP = `INSERT OR REPLACE INTO gc_heaps (session_id, gc_idx, heap, condemn_reasons0, condemn_reasons1, compact_mechanisms, expand_mechanisms,
  free_list_allocated, free_list_rejected, end_of_seg_allocated, condemned_allocated, pinned_allocated, extra_gen0_commit, gens, mark) VALUES `;

/** Rows per INSERT: one statement per chunk keeps round trips to SQLite's thread few. */
const ROWS_PER_STATEMENT = 100;

/**
 * Writes rows with multi-row INSERTs in which NULLs and 32-bit integers are SQL literals and only the
 * other values (fractional or larger numbers, strings, blobs) are bound parameters.
 *
 * Why: sqlite3 converts each bound parameter on the JavaScript thread, ~0.5 µs a value (it
 * tests every number for being a RegExp through the global object first). A GC row has ~86
 * values, of which ~16 are NULL and ~39 integers; binding them was most of an import's writing
 * (40,000 synthetic rows: 2.0 s of the writing thread → 0.8–1.0 s with literals; SQLite parses
 * the longer statement on its own thread).
 * Same storage: sqlite3 binds a number that is a 32-bit integer as an INTEGER and any other as
 * a REAL, so exactly those 32-bit integers become literals (SQLite parses an integer literal
 * exactly, and -0 binds as 0 too); a column without a type keeps the storage class it would have
 * had. A fractional number is never written as text: SQLite's decimal-to-double conversion is
 * not correctly rounded (1 ULP off for ~5 in 100,000 values).
 * The statement text now differs from chunk to chunk, so it is prepared each time (on SQLite's
 * thread), not cached.
 */
export function insertStatement(head: string, rows: SqlValue[][], from: number, to: number): { sql: string; params: SqlValue[] } {
  let sql = head;
  const params: SqlValue[] = [];
  for (let r = from; r < to; r++) {
    const row = rows[r]!;
    sql += r === from ? '(' : ', (';
    for (let c = 0; c < row.length; c++) {
      const v = row[c]!;
      if (c > 0) sql += ', ';
      if (v === null) sql += 'NULL';
      else if (typeof v === 'number' && (v | 0) === v) sql += String(v | 0);
      else {
        sql += '?';
        params.push(v);
      }
    }
    sql += ')';
  }
  return { sql, params };
}

async function insertRows(db: Database, head: string, rows: SqlValue[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const { sql, params } = insertStatement(head, rows, i, Math.min(rows.length, i + ROWS_PER_STATEMENT));
    await db.run(sql, params);
  }
}

/** A queued value: what SQLite stores, or a value stored as its JSON text (gc_heaps' gens and mark). */
export type QueuedValue = SqlValue | number[][] | { bytes: number[]; msec: number[] };

/** Rows queued by a GcWriter between two flushes: what one transaction writes. */
export interface WriteBatch {
  /** INSERT head ('INSERT … VALUES ') → rows, written in this order. */
  tables: [string, QueuedValue[][]][];
}

/** The JSON columns of INSERT_HEAP's rows (gens, mark). */
const HEAP_JSON_COLUMNS = [13, 14];

/** Writes a batch in one transaction on `db`. */
export async function writeBatch(db: Database, batch: WriteBatch): Promise<void> {
  // Sample chunks are compressed on libuv's threads while this thread binds the other rows.
  const deflated = batch.tables.map(([head, rows]) => (head === INSERT_TICK_CHUNK ? deflateTickRows(rows as SqlValue[][]) : undefined));
  // Awaited before the transaction returns even if it fails early, so no rejection goes unhandled.
  const allDeflated = Promise.all(deflated);
  await db
    .transaction(async () => {
      for (let t = 0; t < batch.tables.length; t++) {
        const [head, rows] = batch.tables[t]!;
        if (rows.length === 0) continue;
        if (head === INSERT_HEAP) {
          for (const r of rows) for (const c of HEAP_JSON_COLUMNS) if (r[c] !== null) r[c] = JSON.stringify(r[c]);
        } else if (deflated[t] !== undefined) await deflated[t];
        await insertRows(db, head, rows as SqlValue[][]);
      }
    })
    .finally(() => allDeflated.catch(() => undefined));
}

/** Where a GcWriter's batches go: its own connection (default), or another thread's (write-worker-client.ts). */
export type BatchSink = (batch: WriteBatch) => Promise<void>;

export class GcWriter {
  private gcs = new Map<number, SqlValue[]>();
  private heaps: QueuedValue[][] = [];
  /** Rows of other tables (by INSERT head) written in the same transaction as the GCs (one connection: one transaction at a time). */
  private extra = new Map<string, SqlValue[][]>();
  private pending: Promise<void> = Promise.resolve();
  private failure: unknown;
  /** One promise per batch handed to flush() and not yet written, oldest first (they complete in order). */
  private batches: Promise<void>[] = [];
  rowsWritten = 0;

  private readonly sink: BatchSink;

  constructor(
    db: Database,
    private readonly sessionId: number,
    sink?: BatchSink,
  ) {
    this.sink = sink ?? ((b) => writeBatch(db, b));
  }

  /** Queue a GC row (a later add of the same index replaces it). */
  add(r: GcRecord): void {
    this.gcs.set(r.index, [this.sessionId, ...recordToRow(r)]);
  }

  /** `marks`: GCMarkWithType promoted bytes and mark time (ms) by root kind, by heap number. */
  addHeaps(gcIndex: number, perHeap: readonly HeapHistory[], marks?: readonly ({ bytes: number[]; msec: number[] } | undefined)[]): void {
    perHeap.forEach((h, i) => {
      const m = marks?.[h.heapIndex ?? i];
      // The two JSON columns are queued as values and made text where the batch is written
      // (HEAP_JSON_COLUMNS): with a writer thread, turning ~50 numbers into text is its work.
      const mark = m === undefined ? null : { bytes: Array.from(m.bytes, (x) => x ?? 0), msec: Array.from(m.msec, (x) => x ?? 0) };
      // Written out rather than mapped over HEAP_GENERATION_FIELDS (this runs for every heap of
      // every GC of an import), in that list's order: getHeapDetail reads them back by it.
      const gens = h.generations.map((g) => [
        g.sizeBefore,
        g.freeListSpaceBefore,
        g.freeObjSpaceBefore,
        g.sizeAfter,
        g.freeListSpaceAfter,
        g.freeObjSpaceAfter,
        g.in,
        g.pinnedSurv,
        g.nonePinnedSurv,
        g.newAllocation,
      ]);
      this.heaps.push([
        this.sessionId,
        gcIndex,
        h.heapIndex ?? i,
        h.condemnReasons0,
        h.condemnReasons1,
        h.compactMechanisms,
        h.expandMechanisms,
        h.freeListAllocated,
        h.freeListRejected,
        h.endOfSegAllocated,
        h.condemnedAllocated,
        h.pinnedAllocated,
        h.extraGen0Commit,
        gens,
        mark,
      ]);
    });
  }

  /** Queues a row of another table (`head`: its 'INSERT … VALUES ' text) for the next flush. */
  addRow(head: string, row: SqlValue[]): void {
    const rows = this.extra.get(head);
    if (rows === undefined) this.extra.set(head, [row]);
    else rows.push(row);
  }

  get queued(): number {
    return this.gcs.size + this.heaps.length + this.extra.size;
  }

  /** Batches handed to flush() and not yet written: a writer that cannot keep up shows here. */
  get inFlight(): number {
    return this.batches.length;
  }

  /** Undefined when at most `n` batches are in flight, else a promise that settles once only `n` are. */
  whenAtMost(n: number): Promise<void> | undefined {
    const b = this.batches;
    return b.length <= n ? undefined : b[b.length - n - 1];
  }

  /** Starts writing what is queued (one transaction); writes are chained, never concurrent. */
  flush(): Promise<void> {
    if (this.gcs.size === 0 && this.heaps.length === 0 && this.extra.size === 0) return this.pending;
    const gcs = [...this.gcs.values()];
    const heaps = this.heaps;
    const extra = this.extra;
    this.gcs = new Map();
    this.heaps = [];
    this.extra = new Map();
    const batch: WriteBatch = { tables: [[INSERT_GC, gcs], [INSERT_HEAP, heaps], ...extra] };
    // After a failed batch (a full disk) nothing more is written: what is stored stays the GCs of
    // the batches before it, each with its per-heap and dynamic rows (one transaction a batch).
    this.pending = this.pending.then(() =>
      (this.failure === undefined ? this.sink(batch) : Promise.reject(this.failure))
        .then(() => {
          this.rowsWritten += gcs.length;
        })
        .catch((e: unknown) => {
          this.failure ??= e;
        })
        .finally(() => {
          this.batches.shift();
        }),
    );
    this.batches.push(this.pending);
    return this.pending;
  }

  /** Flushes and waits; rethrows the first write failure. */
  async close(): Promise<void> {
    await this.flush();
    await this.pending;
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * GC rows read per query. Small enough that a page's row objects die young: with 4,096 rows
 * (~14 MB of row objects and records alive at once) V8 promoted them to its old generation,
 * which grew to ~200 MB before a full collection. `log --session` of a 1.1 GB trace's session
 * (38,932 GCs): 4,096 rows 420-442 MB, 1,024 292-329 MB, 512 218-226 MB, 256 230-253 MB.
 */
const RECORDS_PER_READ = 512;

/**
 * Every GC of a session, in order, to `each`. Read a page at a time: node-sqlite3 builds a whole
 * result in native memory and then as one object per row, so the 38,932 GCs of a 1.1 GB trace
 * read at once held both next to the records (a stored session's report peaked at 1 GB).
 */
async function eachGcRecord(db: Database, sessionId: number, each: (r: GcRecord) => void): Promise<void> {
  for (let after = -1; ;) {
    const rows = await db.all<Record<string, SqlValue>>('SELECT * FROM gcs WHERE session_id = ? AND idx > ? ORDER BY idx LIMIT ?', [
      sessionId,
      after,
      RECORDS_PER_READ,
    ]);
    for (const r of rows) each(rowToRecord(r));
    if (rows.length < RECORDS_PER_READ) return;
    after = Number(rows[rows.length - 1]!.idx);
  }
}

export async function getGcRecords(db: Database, sessionId: number): Promise<GcRecord[]> {
  const out: GcRecord[] = [];
  await eachGcRecord(db, sessionId, (r) => out.push(r));
  return out;
}

/**
 * The same GCs in a compact table (common/gc-record-table.ts: numbers in one Float64Array instead
 * of an object per GC), what a whole session's report reads: 38,932 GcRecord objects took ~250 MB.
 */
export async function getGcRecordTable(db: Database, sessionId: number): Promise<GcRecordTable> {
  const t = new GcRecordTable();
  let k = 0;
  await eachGcRecord(db, sessionId, (r) => t.set(k++, r));
  return t;
}

/** One GC by its index in the session (the primary key), or undefined. */
export async function getGcRecord(db: Database, sessionId: number, index: number): Promise<GcRecord | undefined> {
  const row = await db.get<Record<string, SqlValue>>('SELECT * FROM gcs WHERE session_id = ? AND idx = ?', [sessionId, index]);
  return row === undefined ? undefined : rowToRecord(row);
}

/** Whether the session has a GC of this index (one without per-heap rows included). */
export async function hasGc(db: Database, sessionId: number, index: number): Promise<boolean> {
  return (await db.get<{ idx: number }>('SELECT idx FROM gcs WHERE session_id = ? AND idx = ?', [sessionId, index])) !== undefined;
}

/** Every GC's index, number and start, in index order: a GC's "who caused it" reads the samples since the GC before it. */
export async function getGcStarts(db: Database, sessionId: number): Promise<{ idx: number; number: number; startMSec: number }[]> {
  const rows = await db.all<{ idx: number; number: number; start_msec: number }>('SELECT idx, number, start_msec FROM gcs WHERE session_id = ? ORDER BY idx', [
    sessionId,
  ]);
  return rows.map((g) => ({ idx: g.idx, number: g.number, startMSec: g.start_msec }));
}

/**
 * Every GC's number and heap count (null: not known), as SQLite returns the rows: a session's
 * DATAS data looks heap counts up by GC number, and its 100,000 rows are not copied again here.
 */
export async function getGcHeapCounts(db: Database, sessionId: number): Promise<{ number: number; heap_count: number | null }[]> {
  return db.all<{ number: number; heap_count: number | null }>('SELECT number, heap_count FROM gcs WHERE session_id = ?', [sessionId]);
}

/**
 * Columns as arrays, fetched fast: SQLite builds one JSON array per column (json_group_array in
 * C) and JSON.parse reads it, instead of materialising one JS object per row — 100 000 GCs in
 * tens of milliseconds rather than seconds. NULL stays null. Columns are validated.
 */
export async function getGcColumnArrays<K extends string>(
  db: Database,
  sessionId: number,
  columns: readonly K[],
  range?: { fromMSec: number; toMSec: number },
): Promise<Record<K, (number | null)[]>> {
  const out = {} as Record<K, (number | null)[]>;
  await readColumnsAsJson(db, sessionId, columns, range, false, (c, a, scale) => {
    if (scale !== 1) for (let k = 0; k < a.length; k++) if (a[k] !== null) a[k] = a[k]! / scale;
    out[c] = a;
  });
  return out;
}

/**
 * The same columns as Float64Arrays (NaN for NULL), converted in one pass as each is parsed: the
 * view columns of a session with no snapshot. `finished` (its rows cannot change any more)
 * lets the read use two connections (readColumnsAsJson).
 */
export async function getGcColumnsFloat64<K extends string>(
  db: Database,
  sessionId: number,
  columns: readonly K[],
  opts: { finished: boolean },
): Promise<Record<K, Float64Array>> {
  const out = {} as Record<K, Float64Array>;
  await readColumnsAsJson(db, sessionId, columns, undefined, opts.finished, (c, a, scale) => {
    const f = new Float64Array(a.length);
    for (let k = 0; k < a.length; k++) {
      const v = a[k];
      f[k] = v === null || v === undefined ? Number.NaN : v / scale;
    }
    out[c] = f;
  });
  return out;
}

async function readColumnsAsJson<K extends string>(
  db: Database,
  sessionId: number,
  columns: readonly K[],
  range: { fromMSec: number; toMSec: number } | undefined,
  finished: boolean,
  take: (column: K, values: (number | null)[], scale: number) => void,
): Promise<void> {
  for (const c of columns) if (!GC_COLUMNS.includes(c)) throw new Error(`unknown GC column ${c}`);
  const where = range === undefined ? '' : ' AND pause_start_msec >= ? AND pause_start_msec <= ?';
  const params: SqlValue[] = range === undefined ? [sessionId] : [sessionId, range.fromMSec, range.toMSec];
  // Times (ms) and sizes (MB) travel as integers scaled by 1e6 (SQLite writes JSON integers
  // several times faster than 15-digit reals): a size in MB is bytes / 1e6, so this is exact; a
  // time keeps a nanosecond, finer than any trace clock's tick. Ratios (rates, percentages)
  // travel as reals, since a fixed 1e-6 step would cost small values their precision.
  const expr = (c: string): string => (SCALED_COLUMN.test(c) ? `CAST(round(${c} * 1e6) AS INTEGER)` : c);
  const read = async (on: Database, cols: readonly K[]): Promise<void> => {
    const sql = `SELECT ${cols.map((c, i) => `json_group_array(${expr(c)}) AS c${i}`).join(', ')} FROM (SELECT ${cols.join(', ')} FROM gcs WHERE session_id = ?${where} ORDER BY idx)`;
    const row = await on.get<Record<string, string>>(sql, params);
    cols.forEach((c, i) => take(c, JSON.parse(row?.[`c${i}`] ?? '[]') as (number | null)[], SCALED_COLUMN.test(c) ? 1e6 : 1));
  };
  // Building the JSON is SQLite's work, one statement at a time per connection: a finished
  // session's many columns are read half on each of two connections, in parallel (db.reader()).
  // Not a recording's: a batch committed between the two reads would misalign the halves.
  const second = finished && columns.length >= PARALLEL_READ_MIN_COLUMNS ? await db.reader() : null;
  if (second === null) await read(db, columns);
  else
    await Promise.all([
      read(
        db,
        columns.filter((_, i) => i % 2 === 0),
      ),
      read(
        second,
        columns.filter((_, i) => i % 2 === 1),
      ),
    ]);
}

/** Below this many columns one statement is cheap enough (a table's extras, a range's few). */
const PARALLEL_READ_MIN_COLUMNS = 8;

/** REAL columns holding milliseconds or megabytes (see getGcColumnArrays). */
const SCALED_COLUMN = /_(msec|mb)$/;

export interface HeapDetail {
  heap: number;
  condemnReasons0: number | null;
  condemnReasons1: number | null;
  compactMechanisms: number | null;
  expandMechanisms: number | null;
  freeListAllocated: number | null;
  freeListRejected: number | null;
  extraGen0Commit: number | null;
  /** Per generation (gen0, gen1, gen2, LOH[, POH]), by name. */
  gens: HeapGenerationHistory[];
}

/** One generation's stored values (HEAP_GENERATION_FIELDS' order), named. */
function generationOf(stored: readonly number[]): HeapGenerationHistory {
  const g = {} as HeapGenerationHistory;
  for (let i = 0; i < HEAP_GENERATION_FIELDS.length; i++) g[HEAP_GENERATION_FIELDS[i]!] = stored[i]!;
  return g;
}

/** Where the survivors are in a stored generation's array (getPerHeapSurvivedMB reads every row's). */
const PINNED_SURV = HEAP_GENERATION_FIELDS.indexOf('pinnedSurv');
const NON_PINNED_SURV = HEAP_GENERATION_FIELDS.indexOf('nonePinnedSurv');

export async function getHeapDetail(db: Database, sessionId: number, gcIndex: number): Promise<HeapDetail[]> {
  const rows = await db.all<Record<string, number | string | null>>('SELECT * FROM gc_heaps WHERE session_id = ? AND gc_idx = ? ORDER BY heap', [
    sessionId,
    gcIndex,
  ]);
  return rows.map((r) => ({
    heap: r.heap as number,
    condemnReasons0: r.condemn_reasons0 as number | null,
    condemnReasons1: r.condemn_reasons1 as number | null,
    compactMechanisms: r.compact_mechanisms as number | null,
    expandMechanisms: r.expand_mechanisms as number | null,
    freeListAllocated: r.free_list_allocated as number | null,
    freeListRejected: r.free_list_rejected as number | null,
    extraGen0Commit: r.extra_gen0_commit as number | null,
    gens: (JSON.parse(r.gens as string) as number[][]).map(generationOf),
  }));
}

/**
 * MB that survived on each heap, per generation (pinned + non-pinned survivors of
 * GCPerHeapHistory), by GC index: the input of the diagnosis' heap-imbalance rule. Empty for a
 * session without per-heap history.
 */
export async function getPerHeapSurvivedMB(db: Database, sessionId: number): Promise<Map<number, number[][]>> {
  const rows = await db.all<{ gc_idx: number; gens: string }>('SELECT gc_idx, gens FROM gc_heaps WHERE session_id = ? ORDER BY gc_idx, heap', [sessionId]);
  const out = new Map<number, number[][]>();
  for (const r of rows) {
    const gens = JSON.parse(r.gens) as (number | null)[][];
    let heaps = out.get(r.gc_idx);
    if (heaps === undefined) out.set(r.gc_idx, (heaps = []));
    heaps.push(gens.map((g) => ((g[PINNED_SURV] ?? 0) + (g[NON_PINNED_SURV] ?? 0)) / 1e6));
  }
  return out;
}

/** gc_pinned_types (migration 11): a GC's pinned objects by type. */
export const INSERT_PINNED_TYPE = 'INSERT OR REPLACE INTO gc_pinned_types (session_id, gc_idx, type_name, objects, bytes) VALUES ';

/** Types kept per GC (the most pinned first): the GC detail and the finding name a few. */
export const PINNED_TYPES_PER_GC = 20;

/** One GC's pinned objects by type, most objects first; [] when none were stored. */
export async function getGcPinnedTypes(db: Database, sessionId: number, gcIndex: number): Promise<PinnedTypeCount[]> {
  const rows = await db.all<{ type_name: string; objects: number; bytes: number }>(
    'SELECT type_name, objects, bytes FROM gc_pinned_types WHERE session_id = ? AND gc_idx = ? ORDER BY objects DESC, bytes DESC, type_name',
    [sessionId, gcIndex],
  );
  return rows.map((r) => ({ typeName: r.type_name, objects: r.objects, bytes: r.bytes }));
}

/** Every GC's pinned types, by GC number (the pinning finding's evidence for a stored session). */
export async function getPinnedTypesByGcNumber(db: Database, sessionId: number): Promise<Map<number, PinnedTypeCount[]>> {
  const rows = await db.all<{ number: number; type_name: string; objects: number; bytes: number }>(
    'SELECT g.number AS number, p.type_name, p.objects, p.bytes FROM gc_pinned_types p JOIN gcs g ON g.session_id = p.session_id AND g.idx = p.gc_idx WHERE p.session_id = ? ORDER BY g.number, p.objects DESC, p.bytes DESC, p.type_name',
    [sessionId],
  );
  const out = new Map<number, PinnedTypeCount[]>();
  for (const r of rows) {
    let a = out.get(r.number);
    if (a === undefined) out.set(r.number, (a = []));
    a.push({ typeName: r.type_name, objects: r.objects, bytes: r.bytes });
  }
  return out;
}
