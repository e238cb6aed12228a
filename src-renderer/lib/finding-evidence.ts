/**
 * A finding card's evidence line: its GCs and its time window, on the GC table's clock (seconds
 * since the session started, the table's "Start s" and the lanes' x axis) with the table's
 * precision — a single-GC finding's start reads exactly as that GC's Start cell. The diagnosis
 * gives times in ms since the trace's sync time (what `gcscope diagnose` prints "into the trace").
 * Pure.
 */
import { formatCount, formatFixed } from '../../src-main/shared/format.js';
import type { Finding } from '../../src-main/shared/finding.js';
import { TABLE_COLUMN_DEFS } from '../../src-main/shared/gc-column-registry.js';

/** The GC table's Start column decimals (the registry's). */
const START_DIGITS = TABLE_COLUMN_DEFS.find((c) => c.format === 'seconds')?.digits ?? 3;

/** A time (ms since the trace's sync time) as the GC table's Start column shows it, with its unit: "26.834 s". */
export function sessionSeconds(ms: number, t0: number): string {
  return `${formatFixed((ms - t0) / 1000, START_DIGITS)} s`;
}

export function findingEvidenceText(f: Pick<Finding, 'evidence'>, t0: number): string {
  const parts: string[] = [];
  const n = f.evidence.gcs.length;
  if (n > 0) parts.push(n <= 4 ? `GC ${f.evidence.gcs.map((g) => `#${g}`).join(', ')}` : formatCount(n, 'GC'));
  const { startMSec: from, endMSec: to } = f.evidence;
  if (from !== null && to !== null) parts.push(`${sessionSeconds(from, t0)} – ${sessionSeconds(to, t0)}`);
  return parts.join(' · ');
}
