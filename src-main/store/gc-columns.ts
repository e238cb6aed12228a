/**
 * Column snapshots: every GC column a session view needs (the registry's view columns,
 * shared/gc-column-registry.ts), as one Float64Array per column (NaN for NULL), stored as BLOBs
 * named after their SQL column once a session is complete. Reading 100 000 GCs row by row (or as
 * JSON arrays) costs about a second; reading the snapshot costs milliseconds, which is what
 * lets a large session open within the UI budget. The rows in `gcs` stay the source of truth:
 * a snapshot whose gc_count differs from the session's rows, or that lacks a column, is rebuilt.
 */
import { VIEW_COLUMN_DEFS, type GcColumns } from '../shared/gc-column-registry.js';
import type { Database } from './db.js';
import { getGcColumnsFloat64 } from './gc-store.js';

/** The SQL columns of everything a session view reads: the chart series plus what range summaries need. */
// Unique: two view columns may read one SQL column (gen0Frag, derived, and frag0 both read gen0_frag_mb).
export const VIEW_COLUMNS: readonly string[] = [...new Set(VIEW_COLUMN_DEFS.map((c) => c.sql))];

/**
 * Sessions at least this large get their snapshot written when their import finishes (CLI or
 * app), so even the first open is fast; smaller ones read their rows in tens of milliseconds and
 * get a snapshot lazily when first opened.
 */
export const SNAPSHOT_AT_IMPORT_MIN_GCS = 5000;

export type ColumnArrays<K extends string> = Record<K, Float64Array>;

/** A session's view columns keyed by SQL column → keyed by the registry's column keys. */
export function viewColumnsOf(bySql: ColumnArrays<string>): GcColumns {
  const out = {} as GcColumns;
  for (const c of VIEW_COLUMN_DEFS) out[c.key] = bySql[c.sql]!;
  return out;
}

/** The inverse of viewColumnsOf, for writing a snapshot of columns held in memory. */
export function sqlNamedColumns(c: GcColumns): ColumnArrays<string> {
  const out: ColumnArrays<string> = {};
  for (const d of VIEW_COLUMN_DEFS) out[d.sql] = c[d.key];
  return out;
}

/**
 * A session's view columns: from its snapshot when valid, else from its rows (see
 * loadGcColumns). `stored` settles once a snapshot built from the rows is written: the caller
 * has the columns before that (writing 30-odd columns of a 100 000-GC session takes about as
 * long as reading them, and nothing needs to wait for it but closing the database).
 */
export async function loadViewColumns(
  db: Database,
  sessionId: number,
  opts: { gcCount: number; store: boolean },
): Promise<{ columns: GcColumns; stored: Promise<void> }> {
  const r = await loadGcColumns(db, sessionId, VIEW_COLUMNS, { ...opts, waitForStore: false });
  return { columns: viewColumnsOf(r.columns), stored: r.stored };
}

function toBlob(a: Float64Array): Buffer {
  // Float64Array is host-endian; every platform GCScope ships on is little-endian, and the
  // snapshot is a per-machine cache, so no byte swapping.
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

function fromBlob(b: Uint8Array): Float64Array {
  // A view when the driver's Buffer is 8-byte aligned (a blob larger than Node's pool, i.e. every
  // column of a session worth a snapshot, has its own allocation); a copy otherwise.
  if (b.byteOffset % 8 === 0 && b.byteLength % 8 === 0) return new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
  const out = new Float64Array(b.byteLength / 8);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** The stored snapshot, or undefined when it is missing, partial or stale. */
export async function readColumnSnapshot<K extends string>(
  db: Database,
  sessionId: number,
  columns: readonly K[],
  gcCount: number,
): Promise<ColumnArrays<K> | undefined> {
  const rows = await db.all<{ name: string; gc_count: number; data: Uint8Array }>(
    `SELECT name, gc_count, data FROM gc_columns WHERE session_id = ? AND name IN (${columns.map(() => '?').join(', ')})`,
    [sessionId, ...columns],
  );
  if (rows.length !== columns.length || rows.some((r) => r.gc_count !== gcCount || r.data.byteLength !== gcCount * 8)) return undefined;
  const out = {} as ColumnArrays<K>;
  for (const r of rows) out[r.name as K] = fromBlob(r.data);
  return out;
}

export async function writeColumnSnapshot<K extends string>(db: Database, sessionId: number, columns: ColumnArrays<K>): Promise<void> {
  // One statement per column and no explicit transaction: the connection is shared with live
  // recorders whose batches open their own; a partial snapshot is simply rebuilt.
  for (const name of Object.keys(columns) as K[]) {
    const a = columns[name];
    await db.run('INSERT OR REPLACE INTO gc_columns (session_id, name, gc_count, data) VALUES (?, ?, ?, ?)', [sessionId, name, a.length, toBlob(a)]);
  }
}

/**
 * The columns of a session: from its snapshot when there is a valid one, else from the rows
 * (and, when `store` is set — the session is finished — the snapshot is written for next time).
 */
export async function loadGcColumns<K extends string>(
  db: Database,
  sessionId: number,
  columns: readonly K[],
  opts: { gcCount: number; store: boolean; /** Resolve only once the snapshot is written (default). */ waitForStore?: boolean },
): Promise<{ columns: ColumnArrays<K>; fromSnapshot: boolean; stored: Promise<void> }> {
  if (opts.store) {
    const snap = await readColumnSnapshot(db, sessionId, columns, opts.gcCount);
    if (snap !== undefined) return { columns: snap, fromSnapshot: true, stored: Promise.resolve() };
  }
  const out = await getGcColumnsFloat64(db, sessionId, columns, { finished: opts.store });
  // A cache: failing to write it (disk full, read-only database) must not fail the read.
  const stored = opts.store && out[columns[0]!].length === opts.gcCount ? writeColumnSnapshot(db, sessionId, out).catch(() => undefined) : Promise.resolve();
  if (opts.waitForStore !== false) await stored;
  return { columns: out, fromSnapshot: false, stored };
}
