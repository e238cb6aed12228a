/**
 * GcRecord ⇄ the `gcs` table's columns, derived from the column registry
 * (shared/gc-column-registry.ts): one column per stored scalar entry, five (gen0_…, gen1_…,
 * gen2_…, loh_…, poh_…) per per-generation entry; booleans are 0/1; null stays NULL. Derived
 * entries are not stored: they are computed again when a record is read.
 */
import { STORED_SPECS, sqlColumnsOf, withDerived, type GcRecord, type GcRecordBase } from '../shared/gc-column-registry.js';
import type { SqlValue } from './db.js';

/** Every stored column, in table order. */
export const GC_COLUMNS: string[] = STORED_SPECS.flatMap(sqlColumnsOf);

const SCALARS = STORED_SPECS.filter((c) => c.perGen !== true);
const PER_GEN = STORED_SPECS.filter((c) => c.perGen === true).map((c) => ({ field: c.field, columns: sqlColumnsOf(c) }));

function toSql(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return String(v);
}

/** The record's values in GC_COLUMNS order. */
export function recordToRow(r: GcRecord): SqlValue[] {
  const rec = r as unknown as Record<string, unknown>;
  const out: SqlValue[] = [];
  for (const c of STORED_SPECS) {
    const v = rec[c.field];
    if (c.perGen === true) for (let g = 0; g < 5; g++) out.push(toSql((v as unknown[])[g]));
    else out.push(toSql(v));
  }
  return out;
}

/** A record from a `gcs` row: scalars in table order, then the per-generation arrays, then derived fields. */
export function rowToRecord(row: Record<string, SqlValue>): GcRecord {
  const rec: Record<string, unknown> = {};
  for (const c of SCALARS) {
    const v = row[c.sql] ?? null;
    rec[c.field] = c.unit === 'bool' ? (v === null ? null : v === 1) : v;
  }
  for (const p of PER_GEN) rec[p.field] = p.columns.map((col) => (row[col] as number | null) ?? null);
  return withDerived(rec as GcRecordBase);
}
