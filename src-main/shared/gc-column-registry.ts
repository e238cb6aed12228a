/**
 * The column registry: every per-GC quantity, declared once. Everything that carries per-GC data
 * derives from this table — the `GcRecord` type, the `gcs` table's columns and their row mapping
 * (store/gc-rows.ts), the column snapshots and the chart series (gc-series.ts), the
 * `report --format csv` columns, the GC table's columns and the rollup / summary inputs.
 *
 * Adding a per-GC column is one entry here plus its computation: in gc/to-record.ts for a stored
 * column (and a migration adding its SQL column), or a `derive` function on the entry for a value
 * computed from the record's other fields (read from an existing SQL column, never stored twice).
 *
 * Order matters and is part of the contracts built on it: entries are in the `gcs` table's column
 * order (migration 1, then later migrations), which is also the key order of a record read back
 * from the store (scalars first, then per-generation arrays). Report CSV columns have their own
 * published order (`csv`), and so do the GC table's default columns (`table.order`).
 *
 * Types and constant tables only: shared with the renderer. Names follow TraceEvent's `TraceGC`
 * where it has the quantity (`traceEvent`), so exports compare with PerfView's.
 */

import { grown } from './grown.js';

/** How a value is measured (and so formatted): 'MB' are 10^6 bytes, times are ms since the trace's sync time. */
export type ColumnUnit = 'index' | 'count' | 'code' | 'flags' | 'text' | 'bool' | 'ms' | 'MB' | 'MB/s' | '%' | 'bytes' | 'address';

/** How the GC table shows a column: a number with `digits` decimals, or one of these. */
export type TableFormat = 'number' | 'generation' | 'reason' | 'seconds';

export interface PickerSpec {
  readonly key: string;
  readonly gen?: number;
  readonly label: string;
  readonly title: string;
  readonly digits: number;
  readonly scale?: number;
  /**
   * What the trace must carry, when the session says whether it does (UNAVAILABLE_REASONS key);
   * without it the column is "not in this trace" only when every value is unavailable, for `emptyWhy`.
   */
  readonly needs?: 'noPerHeapHistory' | 'noPinEvents';
  readonly emptyWhy?: string;
  /** Position in the picker (and the table, when shown); registry order after those that have one. */
  readonly order?: number;
}

/** The typed array a column travels in to the renderer. */
export type ArrayKind = 'f64' | 'f32' | 'i32' | 'u8';

export interface ColumnSpec {
  /** The GcRecord field (TraceEvent's name where it has one). */
  readonly field: string;
  /** The `gcs` column; for per-generation columns the suffix of gen0_…, gen1_…, gen2_…, loh_…, poh_…. */
  readonly sql: string;
  readonly unit: ColumnUnit;
  /** The trace may not support it: null in the record (never NaN or a made-up 0), NaN in arrays. */
  readonly optional: boolean;
  /** One value per generation [gen0, gen1, gen2, LOH, POH]. */
  readonly perGen?: true;
  /** TraceEvent's TraceGC member it reproduces; null for GCScope's own. */
  readonly traceEvent: string | null;
  /** Chart series key (per-generation: one key per generation) and array type. */
  readonly series?: { readonly key: string | readonly [string, string, string, string, string]; readonly array: ArrayKind };
  /**
   * Read into a session's in-memory columns though not charted (rollups, summaries and the
   * diagnosis rules need it); per-generation: one key per generation, as `series`.
   */
  readonly view?: string | readonly [string, string, string, string, string];
  /** Position in `report --format csv` (a published column order: new columns take the next number). */
  readonly csv?: number;
  /** In the GC table: header, tooltip, decimals, default position; `whenPresent` hides it while every value is unavailable. */
  readonly table?: {
    readonly label: string;
    readonly title: string;
    readonly digits: number;
    readonly order: number;
    readonly whenPresent?: true;
    readonly format?: TableFormat;
  };
  /**
   * Offered in the GC table's column picker, fetched when shown (not part of the chart series):
   * one column per item (`gen`: which generation of a per-generation entry), shown × `scale`.
   * `needs` names what the trace must carry (UNAVAILABLE_REASONS key); `emptyWhy` says why a
   * session that has it still has no value.
   */
  readonly picker?: readonly PickerSpec[];
  /** A code whose name is shown instead of the number in text exports (the names live in gc-enums.ts). */
  readonly names?: 'gcReason';
  /**
   * A value computed from the record's other fields instead of stored (never stored twice).
   * `from` names the stored fields it reads: a columnar read (the GC table's picker) fetches
   * their SQL columns and derives row by row; `sql` names the SQL column it is closest to.
   */
  readonly derive?: (r: never) => number | null;
  readonly from?: readonly string[];
}

/** Per-generation arrays are [gen0, gen1, gen2, LOH, POH]. */
export type Gen5<T> = [T, T, T, T, T];

export const GEN_SQL_PREFIXES = ['gen0', 'gen1', 'gen2', 'loh', 'poh'] as const;

/** Why a session has no LOH allocation waits at all (the picker's columns for them). */
const LOH_WAIT_EMPTY_WHY =
  "no background GC with the private provider's BGCAllocWaitBegin/End events (large allocations wait only for background GCs; every GCScope profile asks for the events)";

/** Stored entries, in the `gcs` table's column order. */
const STORED_REGISTRY = [
  // ---- identity and timing (migration 1) ----
  { field: 'index', sql: 'idx', unit: 'index', optional: false, traceEvent: null, series: { key: 'index', array: 'i32' } },
  {
    field: 'number',
    sql: 'number',
    unit: 'count',
    optional: false,
    traceEvent: 'Number',
    series: { key: 'number', array: 'i32' },
    csv: 0,
    table: { label: 'GC#', title: 'GC number', digits: 0, order: 0 },
  },
  {
    field: 'generation',
    sql: 'generation',
    unit: 'code',
    optional: false,
    traceEvent: 'Generation',
    series: { key: 'generation', array: 'u8' },
    csv: 1,
    table: { label: 'Gen', title: 'generation and kind: N blocking, B background, F foreground; I induced', digits: 0, order: 1, format: 'generation' },
  },
  { field: 'type', sql: 'type', unit: 'code', optional: false, traceEvent: 'Type', series: { key: 'type', array: 'u8' }, csv: 2 },
  {
    field: 'reason',
    sql: 'reason',
    unit: 'code',
    optional: false,
    traceEvent: 'Reason',
    series: { key: 'reason', array: 'u8' },
    csv: 4,
    names: 'gcReason',
    table: { label: 'Reason', title: 'trigger reason', digits: 0, order: 2, format: 'reason' },
  },
  { field: 'gcGenerationName', sql: 'gc_generation_name', unit: 'text', optional: false, traceEvent: 'GCGenerationName', csv: 3 },
  { field: 'isComplete', sql: 'is_complete', unit: 'bool', optional: false, traceEvent: 'IsComplete', series: { key: 'complete', array: 'u8' }, csv: 5 },
  {
    field: 'pauseStartRelativeMSec',
    sql: 'pause_start_msec',
    unit: 'ms',
    optional: false,
    traceEvent: 'PauseStartRelativeMSec',
    series: { key: 'time', array: 'f64' },
    csv: 6,
    table: {
      label: 'Start s',
      title: 'pause start, seconds since the trace started (as `gcscope log`, the reports and PerfView count)',
      digits: 3,
      order: 3,
      format: 'seconds',
    },
  },
  { field: 'startRelativeMSec', sql: 'start_msec', unit: 'ms', optional: false, traceEvent: 'StartRelativeMSec', csv: 7 },
  {
    field: 'suspendDurationMSec',
    sql: 'suspend_msec',
    unit: 'ms',
    optional: false,
    traceEvent: 'SuspendDurationMSec',
    series: { key: 'suspend', array: 'f32' },
    csv: 8,
    table: { label: 'Suspend ms', title: 'time to suspend the application threads', digits: 3, order: 5 },
  },
  {
    field: 'pauseDurationMSec',
    sql: 'pause_msec',
    unit: 'ms',
    optional: false,
    traceEvent: 'PauseDurationMSec',
    series: { key: 'pause', array: 'f64' },
    csv: 9,
    table: { label: 'Pause ms', title: 'time the application was paused', digits: 3, order: 4 },
  },
  /** GCEnd − GCStart (a background GC's whole span); null when GCEnd never arrived. */
  { field: 'durationMSec', sql: 'duration_msec', unit: 'ms', optional: true, traceEvent: 'DurationMSec', series: { key: 'duration', array: 'f32' }, csv: 10 },
  { field: 'durationSinceLastRestartMSec', sql: 'since_last_restart_msec', unit: 'ms', optional: true, traceEvent: 'DurationSinceLastRestartMSec', csv: 11 },
  {
    field: 'pauseTimePercentageSinceLastGC',
    sql: 'pause_pct_since_last_gc',
    unit: '%',
    optional: true,
    traceEvent: 'PauseTimePercentageSinceLastGC',
    series: { key: 'pausePercent', array: 'f32' },
    csv: 12,
  },
  // ---- sizes and allocation ----
  {
    field: 'heapSizeBeforeMB',
    sql: 'heap_before_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'HeapSizeBeforeMB',
    series: { key: 'heapBefore', array: 'f32' },
    csv: 18,
    table: { label: 'Before MB', title: 'heap size before the GC', digits: 2, order: 6 },
  },
  {
    field: 'heapSizeAfterMB',
    sql: 'heap_after_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'HeapSizeAfterMB',
    series: { key: 'heapAfter', array: 'f32' },
    csv: 20,
    table: { label: 'After MB', title: 'heap size after the GC', digits: 2, order: 7 },
  },
  { field: 'heapSizePeakMB', sql: 'heap_peak_mb', unit: 'MB', optional: true, traceEvent: 'HeapSizePeakMB', view: 'heapPeak', csv: 19 },
  {
    field: 'promotedMB',
    sql: 'promoted_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'PromotedMB',
    series: { key: 'promoted', array: 'f32' },
    csv: 21,
    table: { label: 'Promoted MB', title: 'bytes that survived and moved to an older generation', digits: 3, order: 8 },
  },
  {
    field: 'allocedSinceLastGCMB',
    sql: 'alloc_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'AllocedSinceLastGCMB',
    series: { key: 'allocated', array: 'f32' },
    csv: 16,
    table: { label: 'Alloc MB', title: 'allocated since the previous GC', digits: 2, order: 9 },
  },
  {
    field: 'allocRateMBSec',
    sql: 'alloc_rate_mb_sec',
    unit: 'MB/s',
    optional: true,
    traceEvent: 'AllocRateMBSec',
    series: { key: 'allocRate', array: 'f32' },
    csv: 17,
  },
  /** UserAllocated gen0 / LOH / POH (MB). */
  { field: 'gen0AllocatedMB', sql: 'gen0_alloc_mb', unit: 'MB', optional: true, traceEvent: 'UserAllocated[Gen0]', csv: 13 },
  { field: 'lohAllocatedMB', sql: 'loh_alloc_mb', unit: 'MB', optional: true, traceEvent: 'UserAllocated[LOH]', csv: 14 },
  { field: 'pohAllocatedMB', sql: 'poh_alloc_mb', unit: 'MB', optional: true, traceEvent: 'UserAllocated[POH]', csv: 15 },
  // ---- per generation ----
  {
    field: 'genSizeAfterMB',
    sql: 'size_after_mb',
    unit: 'MB',
    optional: true,
    perGen: true,
    traceEvent: 'GenSizeAfterMB',
    series: { key: ['gen0', 'gen1', 'gen2', 'loh', 'poh'], array: 'f32' },
    csv: 22,
  },
  { field: 'genSizeBeforeMB', sql: 'size_before_mb', unit: 'MB', optional: true, perGen: true, traceEvent: 'GenSizeBeforeMB', csv: 25 },
  { field: 'genPromotedMB', sql: 'promoted_mb', unit: 'MB', optional: true, perGen: true, traceEvent: 'GenPromotedMB', csv: 26 },
  {
    field: 'survivalPercent',
    sql: 'survival_pct',
    unit: '%',
    optional: true,
    perGen: true,
    traceEvent: 'SurvivalPercent',
    csv: 23,
    picker: ([0, 1, 2] as const).map((g) => ({
      key: `gen${g}SurvivalPercent` as const,
      gen: g,
      label: `Surv gen${g} %`,
      digits: 0,
      needs: 'noPerHeapHistory' as const,
      emptyWhy: `no gen${g} GC with per-heap history`,
      title: `share of gen${g} that survived this GC (per-heap history; n/a when gen${g} was not collected)`,
    })),
  },
  { field: 'fragmentationPercent', sql: 'frag_pct', unit: '%', optional: true, perGen: true, traceEvent: 'GenFragmentationPercent', csv: 24 },
  // Charted as the hatched free space inside each generation's heap area.
  {
    field: 'fragmentationMB',
    sql: 'frag_mb',
    unit: 'MB',
    optional: true,
    perGen: true,
    traceEvent: 'GenFragmentationMB',
    series: { key: ['frag0', 'frag1', 'frag2', 'fragLoh', 'fragPoh'], array: 'f32' },
  },
  /** Allocation budget set for the next GC (per-heap NewAllocation summed). */
  {
    field: 'genBudgetMB',
    sql: 'budget_mb',
    unit: 'MB',
    optional: true,
    perGen: true,
    traceEvent: 'GenBudgetMB',
    view: ['budget0', 'budget1', 'budget2', 'budgetLoh', 'budgetPoh'],
    csv: 27,
  },
  // ---- HeapStats, pinning, GlobalHeapHistory ----
  {
    field: 'finalizationPromotedMB',
    sql: 'finalization_promoted_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'HeapStats.FinalizationPromotedSize',
    view: 'finalizationPromoted',
    csv: 28,
  },
  {
    field: 'finalizationPromotedCount',
    sql: 'finalization_promoted_count',
    unit: 'count',
    optional: true,
    traceEvent: 'HeapStats.FinalizationPromotedCount',
    csv: 29,
  },
  {
    field: 'pinnedObjectCount',
    sql: 'pinned_object_count',
    unit: 'count',
    optional: true,
    traceEvent: 'HeapStats.PinnedObjectCount',
    view: 'pinnedObjects',
    csv: 30,
    picker: [{ key: 'pinnedCount', label: 'Pinned', title: 'number of objects pinned during the GC', digits: 0, needs: 'noPinEvents' }],
  },
  { field: 'gcHandleCount', sql: 'gc_handle_count', unit: 'count', optional: true, traceEvent: 'HeapStats.GCHandleCount' },
  /** Bytes of objects pinned at GC time (PinObjectAtGCTime, verbose only). */
  {
    field: 'pinnedObjectSizes',
    sql: 'pinned_object_bytes',
    unit: 'bytes',
    optional: true,
    traceEvent: 'PinnedObjectSizes',
    view: 'pinnedBytes',
    csv: 31,
    picker: [
      {
        key: 'pinnedMB',
        label: 'Pinned MB',
        title: 'size of the objects pinned during the GC (PinObjectAtGCTime)',
        digits: 3,
        scale: 1e-6,
        needs: 'noPinEvents',
      },
    ],
  },
  /** Share of pinned-plug bytes explained by user-pinned objects; null without plug events. */
  { field: 'pinnedObjectPercentage', sql: 'pinned_object_pct', unit: '%', optional: true, traceEvent: 'PinnedObjectPercentage', view: 'pinnedPercent' },
  { field: 'heapCount', sql: 'heap_count', unit: 'count', optional: true, traceEvent: 'HeapCount', series: { key: 'heapCount', array: 'f32' }, csv: 32 },
  { field: 'bgcFinalPauseMSec', sql: 'bgc_final_pause_msec', unit: 'ms', optional: true, traceEvent: 'BGCFinalPauseMSec', view: 'bgcFinalPause' },
  /** From GlobalHeapHistory: whether the GC compacted; null without the event. */
  { field: 'compacted', sql: 'compacted', unit: 'bool', optional: true, traceEvent: null, csv: 33 },
  { field: 'globalMechanisms', sql: 'global_mechanisms', unit: 'flags', optional: true, traceEvent: 'GlobalHeapHistory.GlobalMechanisms' },
  { field: 'pauseMode', sql: 'pause_mode', unit: 'code', optional: true, traceEvent: 'GlobalHeapHistory.PauseMode' },
  {
    field: 'memoryLoadPercent',
    sql: 'memory_load_pct',
    unit: '%',
    optional: true,
    traceEvent: 'GlobalHeapHistory.MemoryPressure',
    series: { key: 'memoryLoad', array: 'f32' },
    csv: 34,
  },
  { field: 'condemnReasons0', sql: 'condemn_reasons0', unit: 'flags', optional: true, traceEvent: 'GlobalHeapHistory.CondemnReasons0' },
  {
    field: 'condemnReasons1',
    sql: 'condemn_reasons1',
    unit: 'flags',
    optional: true,
    traceEvent: 'GlobalHeapHistory.CondemnReasons1',
    view: 'condemnReasons1',
  },
  { field: 'committedInUseBeforeMB', sql: 'committed_before_mb', unit: 'MB', optional: true, traceEvent: 'CommittedUsageBefore.TotalCommittedInUse' },
  {
    field: 'committedInUseAfterMB',
    sql: 'committed_after_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'CommittedUsageAfter.TotalCommittedInUse',
    series: { key: 'committed', array: 'f32' },
    csv: 35,
  },
  /** Objects queued for finalization after this GC (GCFinalizersEnd). */
  { field: 'finalizersQueued', sql: 'finalizers_queued', unit: 'count', optional: true, traceEvent: null },
  // ---- survival and movement (gc-survival profile; migration 3) ----
  // Bytes and ranges that survived a sweeping GC, bytes and ranges a compacting GC moved
  // (relocated: those whose address changed), and the lowest/highest address they cover.
  {
    field: 'survivedMB',
    sql: 'survived_mb',
    unit: 'MB',
    optional: true,
    traceEvent: null,
    series: { key: 'survived', array: 'f32' },
    csv: 36,
    table: {
      label: 'Survived MB',
      title: 'bytes that survived in place (a sweeping GC), from GCBulkSurvivingObjectRanges',
      digits: 3,
      order: 10,
      whenPresent: true,
    },
  },
  { field: 'survivedRanges', sql: 'survived_ranges', unit: 'count', optional: true, traceEvent: null, csv: 37 },
  {
    field: 'movedMB',
    sql: 'moved_mb',
    unit: 'MB',
    optional: true,
    traceEvent: null,
    series: { key: 'moved', array: 'f32' },
    csv: 38,
    table: { label: 'Moved MB', title: 'bytes a compacting GC moved, from GCBulkMovedObjectRanges', digits: 3, order: 11, whenPresent: true },
  },
  { field: 'movedRanges', sql: 'moved_ranges', unit: 'count', optional: true, traceEvent: null, csv: 39 },
  { field: 'relocatedMB', sql: 'relocated_mb', unit: 'MB', optional: true, traceEvent: null, csv: 40 },
  { field: 'rangeLowAddress', sql: 'range_low_address', unit: 'address', optional: true, traceEvent: null, csv: 41 },
  { field: 'rangeHighAddress', sql: 'range_high_address', unit: 'address', optional: true, traceEvent: null, csv: 42 },
  // ---- LOH allocation waits during a background GC (private provider; migration 5) ----
  // gc/bgc-alloc-waits.ts: the longest wait, their total and count; 0 for a BGC during which the
  // private provider was seen and nothing waited; null for other GCs and traces without it.
  // In the GC table's picker; empty (n/a) for GCs other than background ones.
  {
    field: 'lohAllocWaitMaxMSec',
    sql: 'loh_wait_max_msec',
    unit: 'ms',
    optional: true,
    traceEvent: 'LOHWaitThreads',
    view: 'lohWaitMax',
    csv: 44,
    picker: [
      {
        key: 'lohWaitMaxMSec',
        label: 'LOH wait max ms',
        title: 'longest wait of a large-object allocation for this background GC (BGCAllocWaitBegin/End); 0: none waited, n/a for other GCs',
        digits: 3,
        emptyWhy: LOH_WAIT_EMPTY_WHY,
      },
    ],
  },
  {
    field: 'lohAllocWaitTotalMSec',
    sql: 'loh_wait_total_msec',
    unit: 'ms',
    optional: true,
    traceEvent: 'LOHWaitThreads',
    view: 'lohWaitTotal',
    csv: 45,
    picker: [
      {
        key: 'lohWaitTotalMSec',
        label: 'LOH wait total ms',
        title: 'all the waits of large-object allocations for this background GC added up (BGCAllocWaitBegin/End); n/a for other GCs',
        digits: 3,
        emptyWhy: LOH_WAIT_EMPTY_WHY,
      },
    ],
  },
  {
    field: 'lohAllocWaitCount',
    sql: 'loh_wait_count',
    unit: 'count',
    optional: true,
    traceEvent: 'LOHWaitThreads',
    csv: 46,
    picker: [
      {
        key: 'lohWaitCount',
        label: 'LOH waits',
        title: 'large-object allocations that waited for this background GC to finish (BGCAllocWaitBegin/End); n/a for other GCs',
        digits: 0,
        emptyWhy: LOH_WAIT_EMPTY_WHY,
      },
    ],
  },
] as const satisfies readonly ColumnSpec[];

/** What a derive function may read: every stored field. */
export type GcRecordBase = { [C in (typeof STORED_REGISTRY)[number] as C['field']]: Value<C> };

/** Derived entries: computed from the stored fields, never stored twice. */
const DERIVED_REGISTRY = [
  /** Free-list and free-object space left in gen0 after the GC, summed over heaps. */
  {
    field: 'gen0FragmentationMB',
    sql: 'gen0_frag_mb',
    unit: 'MB',
    optional: true,
    traceEvent: 'GenFragmentationMB(Gen0)',
    csv: 43,
    picker: [
      {
        key: 'gen0FragMB',
        label: 'Gen0 frag MB',
        title: 'gen0 fragmentation after the GC: free-list and free-object space, from GCPerHeapHistory (TraceEvent GenFragmentationMB)',
        digits: 3,
        needs: 'noPerHeapHistory',
      },
    ],
    derive: (r: GcRecordBase) => r.fragmentationMB[0],
    from: ['fragmentationMB'],
  },
  /**
   * Fragmentation of the whole heap after the GC: the free space inside the generations (free
   * lists and free objects, GCPerHeapHistory) over the heap size after, in % — TraceEvent's
   * GenFragmentationPercent summed over the generations. Null when a generation lacks it.
   */
  {
    field: 'heapFragmentationPercent',
    sql: 'heap_after_mb',
    unit: '%',
    optional: true,
    traceEvent: null,
    picker: [
      {
        key: 'fragPercent',
        label: 'Frag %',
        title: 'fragmentation after the GC: free space inside the generations (free lists, free objects) as % of the heap after',
        digits: 1,
        needs: 'noPerHeapHistory',
        order: 0,
      },
    ],
    derive: (r: GcRecordBase) => {
      const after = r.heapSizeAfterMB;
      if (after === null || after <= 0) return null;
      let free = 0;
      for (const f of r.fragmentationMB) {
        if (f === null) return null;
        free += f;
      }
      return (free * 100) / after;
    },
    from: ['fragmentationMB', 'heapSizeAfterMB'],
  },
] as const satisfies readonly ColumnSpec[];

export const GC_COLUMN_REGISTRY = [...STORED_REGISTRY, ...DERIVED_REGISTRY] as const;

type Entry = (typeof GC_COLUMN_REGISTRY)[number];

type Base<C> = C extends { unit: 'text' } ? string : C extends { unit: 'bool' } ? boolean : number;
type Cell<C> = C extends { optional: true } ? Base<C> | null : Base<C>;
type Value<C> = C extends { perGen: true } ? Gen5<Cell<C>> : Cell<C>;

/**
 * The per-GC record every consumer sees — the store, `report --format json|csv`, the web bridge
 * and the renderer: one field per registry entry. A value the trace cannot support is `null`;
 * `UNAVAILABLE_REASONS` (gc-record.ts) says why.
 */
export type GcRecord = { [C in Entry as C['field']]: Value<C> };

/** Every entry, typed loosely, for code that walks the registry. */
export const GC_COLUMN_SPECS: readonly ColumnSpec[] = GC_COLUMN_REGISTRY;

/** Stored entries (not derived), in table order. */
export const STORED_SPECS: readonly ColumnSpec[] = GC_COLUMN_SPECS.filter((c) => c.derive === undefined);
/** Derived entries, computed from a record's stored fields. */
export const DERIVED_SPECS: readonly ColumnSpec[] = GC_COLUMN_SPECS.filter((c) => c.derive !== undefined);

/** The SQL columns of a spec (five for a per-generation one). */
export function sqlColumnsOf(c: ColumnSpec): string[] {
  return c.perGen === true ? GEN_SQL_PREFIXES.map((g) => `${g}_${c.sql}`) : [c.sql];
}

/** Fills in a record's derived fields (appended after the stored ones, so their order is stable). */
export function withDerived<R extends GcRecordBase>(r: R): R & GcRecord {
  const out = r as unknown as Record<string, unknown>;
  for (const c of DERIVED_SPECS) out[c.field] = (c.derive as (r: GcRecordBase) => number | null)(r);
  return r as R & GcRecord;
}

// ---- columns: the in-memory shape of a session's GCs ----------------------------------------

type SeriesKeys<C> = C extends { series: { key: infer K } } ? (K extends readonly string[] ? K[number] : K & string) : never;
type ViewKeys<C> = C extends { view: infer K } ? (K extends readonly string[] ? K[number] : K & string) : never;

/** Keys of the columns a session view holds: the chart series plus what summaries need. */
export type ViewColumnKey = SeriesKeys<Entry> | ViewKeys<Entry>;
/** Keys of the chart series. */
export type SeriesColumnKey = SeriesKeys<Entry>;

type ArrayOf<K extends ArrayKind> = K extends 'f64' ? Float64Array : K extends 'f32' ? Float32Array : K extends 'i32' ? Int32Array : Uint8Array;
type SeriesArray<C, Key extends string> = C extends { series: { key: infer K; array: infer A extends ArrayKind } }
  ? Key extends (K extends readonly string[] ? K[number] : K)
    ? ArrayOf<A>
    : never
  : never;

/** The chart series' arrays, typed after each entry's array kind. */
export type SeriesArrays = { [K in SeriesColumnKey]: SeriesArray<Entry, K> };

/** One view column: its key, where it comes from (the SQL column, and the record field and generation). */
export interface ViewColumn {
  key: ViewColumnKey;
  sql: string;
  spec: ColumnSpec;
  gen: number | null;
  array: ArrayKind;
}

/** Every view column, in registry order. */
export const VIEW_COLUMN_DEFS: readonly ViewColumn[] = GC_COLUMN_SPECS.flatMap((c): ViewColumn[] => {
  if (c.series !== undefined) {
    const k = c.series.key;
    if (typeof k === 'string') return [{ key: k as ViewColumnKey, sql: c.sql, spec: c, gen: null, array: c.series.array }];
    return k.map((key, g) => ({ key: key as ViewColumnKey, sql: `${GEN_SQL_PREFIXES[g]}_${c.sql}`, spec: c, gen: g, array: c.series!.array }));
  }
  const v = c.view;
  if (typeof v === 'string') return [{ key: v as ViewColumnKey, sql: c.sql, spec: c, gen: null, array: 'f64' }];
  if (v !== undefined)
    return v.map((key, g) => ({ key: key as ViewColumnKey, sql: `${GEN_SQL_PREFIXES[g]}_${c.sql}`, spec: c, gen: g, array: 'f64' as const }));
  return [];
});

/** The chart series' columns (what the renderer receives). */
export const SERIES_COLUMN_DEFS: readonly ViewColumn[] = VIEW_COLUMN_DEFS.filter((c) => c.spec.series !== undefined);

/**
 * A session's columns in memory: one Float64Array per view column, NaN where a value is
 * unavailable — what column snapshots store and what rollups and summaries read.
 */
export type GcColumns = Record<ViewColumnKey, Float64Array>;

/** A record's value for one view column, as a number (NaN when unavailable; booleans 0/1). */
export function viewValue(r: GcRecord, c: ViewColumn): number {
  const raw = (r as unknown as Record<string, unknown>)[c.spec.field];
  const v = c.gen === null ? raw : (raw as (number | null)[])[c.gen];
  if (v === null || v === undefined) return Number.NaN;
  if (typeof v === 'boolean') return v ? 1 : 0;
  // As the store does (a non-finite REAL is stored as NULL): columns never hold ±Infinity.
  return Number.isFinite(v) ? (v as number) : Number.NaN;
}

/**
 * Columns grown one GC at a time (by GC index: a GC written again replaces its values), for the
 * pipelines that hold a session's GCs as they are decoded.
 */
export class GcColumnBuilder {
  private cap = 0;
  private arrays = {} as GcColumns;
  /** One past the highest GC index set. */
  length = 0;

  constructor(initialCapacity = 1024) {
    this.grow(initialCapacity);
  }

  private grow(cap: number): void {
    for (const c of VIEW_COLUMN_DEFS) {
      const old = this.arrays[c.key];
      this.arrays[c.key] = old !== undefined ? grown(old, cap, Number.NaN) : new Float64Array(cap).fill(Number.NaN);
    }
    this.cap = cap;
  }

  /** Sets the GC at row `at` (its index in the session unless told). */
  set(r: GcRecord, at = r.index): void {
    const i = at;
    if (i >= this.cap) this.grow(Math.max(i + 1, this.cap * 2));
    for (const c of VIEW_COLUMN_DEFS) this.arrays[c.key][i] = viewValue(r, c);
    if (i >= this.length) this.length = i + 1;
  }

  /** Sets row `k` of `c` (a live batch's columns) at its GC's index. */
  setRow(c: GcColumns, k: number): void {
    const i = c.index[k]!;
    if (i >= this.cap) this.grow(Math.max(i + 1, this.cap * 2));
    if (i >= this.length) this.length = i + 1;
    for (const d of VIEW_COLUMN_DEFS) this.arrays[d.key][i] = c[d.key][k]!;
  }

  /**
   * The arrays themselves, at their capacity (rows past `length` are NaN): one object whose
   * arrays are replaced when they grow, so it stays current for a reader by index.
   */
  get arraysAtCapacity(): GcColumns {
    return this.arrays;
  }

  /** The columns so far (views of the builder's arrays, valid until the next `set`). */
  columns(): GcColumns {
    const out = {} as GcColumns;
    for (const c of VIEW_COLUMN_DEFS) out[c.key] = this.arrays[c.key].subarray(0, this.length);
    return out;
  }
}

/** Columns of records (in index order), as the report and the tests build them. */
export function columnsFromRecords(records: readonly GcRecord[]): GcColumns {
  const b = new GcColumnBuilder(Math.max(1, records.length));
  records.forEach((r, i) => b.set(r, i));
  return b.columns();
}

// ---- report CSV and the GC table -----------------------------------------------------------

export const GEN_LABELS = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'] as const;

/** One `report --format csv` column: its header, the entry and generation it reads. */
export interface CsvColumn {
  header: string;
  spec: ColumnSpec;
  gen: number | null;
}

export const CSV_COLUMN_DEFS: readonly CsvColumn[] = GC_COLUMN_SPECS.filter((c) => c.csv !== undefined)
  .sort((a, b) => a.csv! - b.csv!)
  .flatMap((c): CsvColumn[] =>
    c.perGen === true ? GEN_LABELS.map((label, g) => ({ header: `${label}_${c.field}`, spec: c, gen: g })) : [{ header: c.field, spec: c, gen: null }],
  );

/** A column of the GC table. */
export interface TableColumn {
  key: SeriesColumnKey;
  label: string;
  title: string;
  digits: number;
  unit: ColumnUnit;
  format: TableFormat;
  /** Shown only while some GC has a value. */
  whenPresent: boolean;
}

export const TABLE_COLUMN_DEFS: readonly TableColumn[] = GC_COLUMN_SPECS.filter(
  (c) => c.table !== undefined && c.series !== undefined && typeof c.series.key === 'string',
)
  .sort((a, b) => a.table!.order - b.table!.order)
  .map((c) => ({
    key: c.series!.key as SeriesColumnKey,
    label: c.table!.label,
    title: c.table!.title,
    digits: c.table!.digits,
    unit: c.unit,
    format: c.table!.format ?? 'number',
    whenPresent: c.table!.whenPresent === true,
  }));

// ---- the GC table's column picker -----------------------------------------------------------

type PickerKeys<C> = C extends { picker: readonly (infer P)[] } ? (P extends { key: infer K extends string } ? K : never) : never;
/** Keys of the registry's picker columns. */
export type PickerColumnKey = PickerKeys<Entry>;

/**
 * One picker column: where its values come from and how it is shown. A stored entry's values are
 * its SQL column (`sql`, one generation's for a per-generation entry) × `scale`; a derived
 * entry's are `spec.derive` of the fields in `spec.from`.
 */
export interface PickerColumn extends PickerSpec {
  key: PickerColumnKey;
  sql: string;
  spec: ColumnSpec;
}

export const PICKER_COLUMN_DEFS: readonly PickerColumn[] = GC_COLUMN_SPECS.flatMap((c) =>
  (c.picker ?? []).map((p): PickerColumn => ({
    ...p,
    key: p.key as PickerColumnKey,
    sql: p.gen === undefined ? c.sql : `${GEN_SQL_PREFIXES[p.gen]}_${c.sql}`,
    spec: c,
  })),
).sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity));

/** Registry entries by record field. */
export const SPEC_BY_FIELD: ReadonlyMap<string, ColumnSpec> = new Map(GC_COLUMN_SPECS.map((c) => [c.field, c]));

/**
 * A picker column's values for `n` GCs from the SQL columns of a columnar read (`read(sql)`:
 * one value per GC, null where unavailable), NaN where unavailable: the stored column scaled, or
 * the derived value computed from its `from` fields row by row.
 */
export function pickerValues(p: PickerColumn, n: number, read: (sql: string) => readonly (number | null)[]): Float64Array {
  const out = new Float64Array(n);
  const derive = p.spec.derive as ((r: GcRecordBase) => number | null) | undefined;
  if (derive === undefined) {
    const col = read(p.sql);
    const scale = p.scale ?? 1;
    for (let i = 0; i < n; i++) {
      const v = col[i];
      out[i] = v === null || v === undefined ? Number.NaN : v * scale;
    }
    return out;
  }
  // The fields it reads, as columns: a scalar field's SQL column, or a per-generation one's five.
  const fields = (p.spec.from ?? []).map((f) => {
    const spec = SPEC_BY_FIELD.get(f);
    if (spec === undefined || spec.derive !== undefined) throw new Error(`${p.spec.field} derives from ${f}, which is not a stored registry field`);
    return { field: f, perGen: spec.perGen === true, cols: sqlColumnsOf(spec).map(read) };
  });
  const row: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    for (const f of fields) row[f.field] = f.perGen ? f.cols.map((c) => c[i] ?? null) : (f.cols[0]![i] ?? null);
    const v = derive(row as GcRecordBase);
    out[i] = v === null || !Number.isFinite(v) ? Number.NaN : v;
  }
  return out;
}
