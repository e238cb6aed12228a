/**
 * CLR GC enumerations (docs/formats.md §3.4; runtime gc.h, ClrEtwAll.man value maps; TraceEvent's
 * names where it has them, so output reads the same as PerfView's).
 */

/** GCStart/GCTriggered/GlobalHeapHistory reason. Unknown numbers are shown raw. */
export const GC_REASON_NAMES: Record<number, string> = {
  0: 'AllocSmall',
  1: 'Induced',
  2: 'LowMemory',
  3: 'Empty',
  4: 'AllocLarge',
  5: 'OutOfSpaceSOH',
  6: 'OutOfSpaceLOH',
  7: 'InducedNotForced',
  8: 'Internal',
  9: 'InducedLowMemory',
  10: 'InducedCompacting',
  11: 'LowMemoryHost',
  12: 'PMFullGC',
  13: 'LowMemoryHostBlocking',
  14: 'BGCTuningSOH',
  15: 'BGCTuningLOH',
  16: 'BGCStepping',
  17: 'InducedAggressive',
};

export function gcReasonName(r: number): string {
  return GC_REASON_NAMES[r] ?? `Reason(${r})`;
}

/** GCStart.Type. */
export const GC_TYPE_NAMES: Record<number, string> = {
  0: 'NonConcurrentGC',
  1: 'BackgroundGC',
  2: 'ForegroundGC',
};

export const SUSPEND_REASON_NAMES: Record<number, string> = {
  0: 'SuspendOther',
  1: 'SuspendForGC',
  2: 'SuspendForAppDomainShutdown',
  3: 'SuspendForCodePitching',
  4: 'SuspendForShutdown',
  5: 'SuspendForDebugger',
  6: 'SuspendForGCPrep',
  7: 'SuspendForDebuggerSweep',
};

export const ALLOCATION_KIND_NAMES: Record<number, string> = { 0: 'Small', 1: 'Large', 2: 'Pinned' };

/** GlobalHeapHistory.GlobalMechanisms bit flags. */
export const GLOBAL_MECHANISMS: [number, string][] = [
  [0x1, 'Concurrent'],
  [0x2, 'Compaction'],
  [0x4, 'Promotion'],
  [0x8, 'Demotion'],
  [0x10, 'CardBundles'],
];

export const PAUSE_MODE_NAMES: Record<number, string> = { 0: 'Batch', 1: 'Interactive', 2: 'LowLatency', 3: 'SustainedLowLatency', 4: 'NoGC' };

/** PerHeapHistory compact mechanism (bit index). */
export const COMPACT_MECHANISMS = [
  'compact_low_ephemeral',
  'compact_high_frag',
  'compact_no_gaps',
  'compact_loh_forced',
  'compact_last_gc',
  'compact_induced_compacting',
  'compact_fragmented_gen0',
  'compact_high_mem_load',
  'compact_high_mem_frag',
  'compact_vhigh_mem_frag',
  'compact_no_gc_mode',
];
export const EXPAND_MECHANISMS = [
  'expand_reuse_normal',
  'expand_reuse_bestfit',
  'expand_new_seg_ep',
  'expand_new_seg',
  'expand_no_memory',
  'expand_next_full_gc',
];

/** CondemnReasons1 bits (gc.h gc_condemn_reason_condition). */
export const CONDEMN_CONDITIONS = [
  'induced_fullgc',
  'expand_fullgc',
  'high_mem',
  'very_high_mem',
  'low_ephemeral',
  'low_card',
  'eph_high_frag',
  'max_high_frag',
  'max_high_frag_e',
  'max_high_frag_m',
  'max_high_frag_vm',
  'max_gen1',
  'before_oom',
  'gen2_too_small',
  'induced_noforce',
  'before_bgc',
  'almost_max_alloc',
  'avoid_unproductive',
  'provisional_mode_induced',
  'provisional_mode_loh_alloc',
  'provisional_mode_gen1',
  'limit_before_oom',
  'loh_frag_hard_limit',
  'loh_reclaim_hard_limit',
  'servo_initial',
  'servo_ngc',
  'servo_bgc',
  'servo_postpone',
  'stress_mix',
  'stress',
  'aggressive',
];

export function flagNames(value: number, table: [number, string][]): string[] {
  return table.filter(([bit]) => (value & bit) !== 0).map(([, n]) => n);
}

/**
 * PerHeapHistory Compact/ExpandMechanisms: the runtime sets bit 31 when a mechanism was recorded
 * and bit i for mechanism i (TraceEvent's IndexOfSetBit). Returns 'not_specified' otherwise.
 */
export function mechanismName(value: number, names: string[]): string {
  for (let i = 0; i < names.length; i++) if ((value & (1 << i)) !== 0) return names[i]!;
  return 'not_specified';
}
