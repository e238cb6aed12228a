/**
 * GcRecord ⇄ the `gcs` table's columns (migration 1). Per-generation arrays are flattened to
 * gen0_…, gen1_…, gen2_…, loh_…, poh_… columns; booleans are 0/1; null stays NULL.
 */
import type { Gen5, GcRecord } from '../shared/gc-record.js';
import type { SqlValue } from './db.js';

const GENS = ['gen0', 'gen1', 'gen2', 'loh', 'poh'] as const;

type ArrayKey = 'genSizeAfterMB' | 'genSizeBeforeMB' | 'genPromotedMB' | 'survivalPercent' | 'fragmentationPercent' | 'fragmentationMB' | 'genBudgetMB';
type ScalarKey = Exclude<keyof GcRecord, ArrayKey>;

/** [column, record field] for scalar fields, in table order. */
const SCALARS: [string, ScalarKey][] = [
  ['idx', 'index'], ['number', 'number'], ['generation', 'generation'], ['type', 'type'], ['reason', 'reason'], ['gc_generation_name', 'gcGenerationName'],
  ['is_complete', 'isComplete'], ['pause_start_msec', 'pauseStartRelativeMSec'], ['start_msec', 'startRelativeMSec'], ['suspend_msec', 'suspendDurationMSec'],
  ['pause_msec', 'pauseDurationMSec'], ['duration_msec', 'durationMSec'], ['since_last_restart_msec', 'durationSinceLastRestartMSec'],
  ['pause_pct_since_last_gc', 'pauseTimePercentageSinceLastGC'], ['heap_before_mb', 'heapSizeBeforeMB'], ['heap_after_mb', 'heapSizeAfterMB'],
  ['heap_peak_mb', 'heapSizePeakMB'], ['promoted_mb', 'promotedMB'], ['alloc_mb', 'allocedSinceLastGCMB'], ['alloc_rate_mb_sec', 'allocRateMBSec'],
  ['gen0_alloc_mb', 'gen0AllocatedMB'], ['loh_alloc_mb', 'lohAllocatedMB'], ['poh_alloc_mb', 'pohAllocatedMB'],
];
const ARRAYS: [string, ArrayKey][] = [
  ['size_after_mb', 'genSizeAfterMB'], ['size_before_mb', 'genSizeBeforeMB'], ['promoted_mb', 'genPromotedMB'], ['survival_pct', 'survivalPercent'],
  ['frag_pct', 'fragmentationPercent'], ['frag_mb', 'fragmentationMB'], ['budget_mb', 'genBudgetMB'],
];
const TAIL: [string, ScalarKey][] = [
  ['finalization_promoted_mb', 'finalizationPromotedMB'], ['finalization_promoted_count', 'finalizationPromotedCount'], ['pinned_object_count', 'pinnedObjectCount'],
  ['gc_handle_count', 'gcHandleCount'], ['pinned_object_bytes', 'pinnedObjectSizes'], ['pinned_object_pct', 'pinnedObjectPercentage'], ['heap_count', 'heapCount'],
  ['bgc_final_pause_msec', 'bgcFinalPauseMSec'], ['compacted', 'compacted'], ['global_mechanisms', 'globalMechanisms'], ['pause_mode', 'pauseMode'],
  ['memory_load_pct', 'memoryLoadPercent'], ['condemn_reasons0', 'condemnReasons0'], ['condemn_reasons1', 'condemnReasons1'],
  ['committed_before_mb', 'committedInUseBeforeMB'], ['committed_after_mb', 'committedInUseAfterMB'], ['finalizers_queued', 'finalizersQueued'],
  ['survived_mb', 'survivedMB'], ['survived_ranges', 'survivedRanges'], ['moved_mb', 'movedMB'], ['moved_ranges', 'movedRanges'], ['relocated_mb', 'relocatedMB'],
  ['range_low_address', 'rangeLowAddress'], ['range_high_address', 'rangeHighAddress'],
];

export const GC_COLUMNS: string[] = [
  ...SCALARS.map(([c]) => c),
  ...ARRAYS.flatMap(([suffix]) => GENS.map((g) => `${g}_${suffix}`)),
  ...TAIL.map(([c]) => c),
];

const BOOLEANS = new Set(['isComplete', 'compacted']);

function toSql(v: unknown): SqlValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return String(v);
}

export function recordToRow(r: GcRecord): SqlValue[] {
  const out: SqlValue[] = [];
  for (const [, k] of SCALARS) out.push(toSql(r[k]));
  for (const [, k] of ARRAYS) for (let g = 0; g < 5; g++) out.push(toSql(r[k][g]));
  for (const [, k] of TAIL) out.push(toSql(r[k]));
  return out;
}

export function rowToRecord(row: Record<string, SqlValue>): GcRecord {
  const rec: Record<string, unknown> = {};
  for (const [c, k] of [...SCALARS, ...TAIL]) {
    const v = row[c] ?? null;
    rec[k] = BOOLEANS.has(k) ? (v === null ? null : v === 1) : v;
  }
  for (const [suffix, k] of ARRAYS) rec[k] = GENS.map((g) => (row[`${g}_${suffix}`] as number | null) ?? null) as Gen5<number | null>;
  return rec as unknown as GcRecord;
}
