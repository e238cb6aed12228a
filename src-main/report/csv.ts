/**
 * `report --format csv`: one row per GC, full precision, an empty cell where a value is
 * unavailable. The columns are the column registry's (shared/gc-column-registry.ts) in their
 * published order.
 */
import { gcReasonName } from '../shared/gc-enums.js';
import { CSV_COLUMN_DEFS, type GcRecord } from '../shared/gc-column-registry.js';
import type { GcReport } from './model.js';

/** The CSV's columns, from the column registry (its `csv` positions): codes with names show the name, addresses hex. */
const CSV_COLUMNS: [string, (g: GcRecord) => unknown][] = CSV_COLUMN_DEFS.map(({ header, spec, gen }) => {
  const field = spec.field as keyof GcRecord;
  const raw = gen === null ? (g: GcRecord): unknown => g[field] : (g: GcRecord): unknown => (g[field] as unknown[])[gen];
  if (spec.names === 'gcReason') return [header, (g) => gcReasonName(raw(g) as number)];
  if (spec.unit === 'address') return [header, (g) => (raw(g) === null ? null : `0x${(raw(g) as number).toString(16)}`)];
  return [header, raw];
});

function csvCell(v: unknown): string {
  if (v === null || v === undefined || (typeof v === 'number' && !Number.isFinite(v))) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function renderCsvReport(rep: GcReport): string {
  return [...csvReportPieces(rep)].join('');
}

/** The CSV in pieces of 512 rows, in order (the CLI writes them as they come: a long trace's CSV is tens of MB). */
export function* csvReportPieces(rep: GcReport): Generator<string, void, void> {
  let lines = [CSV_COLUMNS.map(([c]) => c).join(',')];
  for (const g of rep.gcs) {
    lines.push(CSV_COLUMNS.map(([, f]) => csvCell(f(g))).join(','));
    if (lines.length === 512) {
      yield lines.join('\n') + '\n';
      lines = [];
    }
  }
  if (lines.length > 0) yield lines.join('\n') + '\n';
}
