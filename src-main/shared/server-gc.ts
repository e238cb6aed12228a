/**
 * Server GC and DATAS (dynamic heap count) data of a session, as the session view's Server GC lane
 * group, its memory headroom lane and `report` show them (types and small pure helpers only;
 * shared with the renderer). Times are ms since the trace's sync time; sizes in bytes unless the
 * name says MB; throughput cost (TCP) in percent.
 */

/** DATAS's default throughput-cost target (GCDTargetTCP, .NET 10 docs): 2 %. */
export const DEFAULT_TARGET_TCP_PERCENT = 2;
/** The runtime's high memory load threshold when not configured (GCHighMemPercent): 90 % below 80 GiB of RAM. */
export const DEFAULT_HIGH_MEMORY_PERCENT = 90;

/** A SizeAdaptationSample (.NET 9+) or HeapCountSample (.NET 8): one GC's cost, in µs. */
export interface DatasSample {
  gcNumber: number;
  timeMSec: number;
  /** This GC's end − the previous suspension's end (µs). */
  elapsedUs: number;
  pauseUs: number;
  /** More-space-lock (allocation) waits summed over heaps (µs): SOH + UOH, or .NET 8's one value. */
  mslWaitUs: number;
  /** Heap count the GC ran with (for the per-heap share of the waits). */
  heapCount: number;
  /** Gen0 budget per heap DATAS set (bytes); null on .NET 8. */
  gen0BudgetPerHeap: number | null;
  /** TotalSOHStableSize (bytes), DATAS's application-size estimate; null on .NET 8. */
  sohStableSize: number | null;
}

/** A DATAS decision (SizeAdaptationTuning, SizeAdaptationFullGCTuning, or .NET 8's HeapCountTuning). */
export interface DatasTuning {
  kind: 'tuning' | 'full-gc-tuning' | 'net8-tuning';
  gcNumber: number;
  timeMSec: number;
  /** Heap count before the decision (the GC's own) and the one decided. */
  heapCount: number | null;
  newHeapCount: number;
  medianTcpPercent: number;
  /** The decision's other fields, by their runtime names, raw (enum codes are not mapped). */
  fields: Record<string, number>;
}

/** A heap-count change applied between GCs: a SuspendForGCPrep pause outside any GC. */
export interface HeapCountChangePause {
  startMSec: number;
  durationMSec: number;
  afterGCNumber: number;
}

/** GCSettingsRundown values the headroom needs (bytes; 0 = not configured). */
export interface MemorySettings {
  hardLimitBytes: number;
  highMemPercentConfig: number;
  gen0MaxBudgetConfig: number;
}

export interface ServerGcData {
  /** The session ran Server GC (the lane group is shown only then). */
  serverGc: boolean;
  /** The session's GC mode label ('server (DATAS)', …). */
  gcMode: string | null;
  targetTcpPercent: number;
  samples: DatasSample[];
  tunings: DatasTuning[];
  changePauses: HeapCountChangePause[];
  /** Dynamic events kept raw, by name (unknown names or too short for their layout). */
  rawDynamicEvents: Record<string, number>;
  /** Null when the trace has no GCSettingsRundown (.NET 8+ rundown). */
  settings: MemorySettings | null;
  /** Runtime ≥ 9 on Server GC with no dynamic events at all: DATAS off or the GC keyword missing (D6). */
  missingDynamicEvents: boolean;
}

/** One heap of a Server GC: what it promoted and how long it marked, by root kind (M15). */
export interface HeapBalanceRow {
  heap: number;
  /** Survived bytes (pinned + not pinned) summed over generations, from GCPerHeapHistory. */
  survivedBytes: number;
  /** GCMarkWithType promoted bytes and mark time (ms) by root kind; empty without the events. */
  markBytes: number[];
  markMSec: number[];
}

/** GCMarkWithType root kinds (runtime gcinterface.h `gc_root_kind`), by index. */
export const MARK_ROOT_KINDS = [
  'Stack',
  'FinalizeQueue',
  'Handles',
  'Older',
  'SizedRef',
  'Overflow',
  'DependentHandles',
  'NewFQ',
  'Steal',
  'BGCRoots',
] as const;

/** Per-sample throughput cost (%) as DATAS computes it: (waits / heaps + pause) × 100 / elapsed, capped at 100. */
export function sampleTcpPercent(s: Pick<DatasSample, 'elapsedUs' | 'pauseUs' | 'mslWaitUs' | 'heapCount'>): number | null {
  if (s.elapsedUs <= 0) return null;
  return Math.min(100, ((s.mslWaitUs / Math.max(1, s.heapCount) + s.pauseUs) * 100) / s.elapsedUs);
}

/**
 * The DATAS gen0 budget cap (BCD): m × LDS with m = (20 − ConserveMemory) / √(LDS in MB), clamped
 * to [0.1, 10]; ConserveMemory is 5 under DATAS unless configured (.NET docs). Bytes; null when
 * the stable size is unknown or 0.
 */
export function datasBudgetCap(sohStableSize: number | null, conserveMemory = 5): number | null {
  if (sohStableSize === null || sohStableSize <= 0) return null;
  const mb = sohStableSize / 1e6;
  const m = Math.min(10, Math.max(0.1, (20 - conserveMemory) / Math.sqrt(mb)));
  return m * sohStableSize;
}

/** A heap-count change at a GC: the GC whose own GlobalHeapHistory.NumHeaps differs from the GC before. */
export interface HeapCountChange {
  gcNumber: number;
  timeMSec: number;
  from: number;
  to: number;
}

/** The changes along a session's per-GC heap counts (NaN/absent counts are skipped, not changes). */
export function heapCountChanges(numbers: ArrayLike<number>, times: ArrayLike<number>, counts: ArrayLike<number>): HeapCountChange[] {
  const out: HeapCountChange[] = [];
  let last = Number.NaN;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (!(c > 0)) continue;
    if (!Number.isNaN(last) && c !== last) out.push({ gcNumber: numbers[i]!, timeMSec: times[i]!, from: last, to: c });
    last = c;
  }
  return out;
}

/** A stored or just-decoded dynamic event row (store/server-gc-store.ts), or a change pause ('SuspendForGCPrep'). */
export interface DynamicEventRecord {
  gcIndex: number | null;
  gcNumber: number | null;
  timeMSec: number;
  name: string;
  data: Record<string, unknown>;
}

/** The memory headroom of a session: heap and committed against the limit (M14). MB are 10^6 bytes. */
export interface MemoryHeadroom {
  /** GCHeapHardLimit from GCSettingsRundown (MB), null when none is configured or the rundown is missing. */
  hardLimitMB: number | null;
  /** Exact configured limit in bytes (null as above). */
  hardLimitBytes: number | null;
  /** The trace has GCSettingsRundown, so "no limit" means none is configured (false: unknown). */
  settingsKnown: boolean;
  /** The high memory load threshold (%): GCHighMemPercent when configured, else the runtime default. */
  highMemoryLoadPercent: number;
  highMemoryLoadConfigured: boolean;
  maxHeapAfterMB: number | null;
  maxCommittedMB: number | null;
  maxMemoryLoadPercent: number | null;
  /** Hard limit − the largest committed (or heap after GC when committed is unknown): the tightest gap (MB). */
  minHeadroomMB: number | null;
  /** The GC (number) where the gap was tightest. */
  minHeadroomGcNumber: number | null;
  /** GCs whose memory load was at or above the threshold. */
  gcsAtHighMemoryLoad: number;
}

const maxOf = (a: ArrayLike<number>): number | null => {
  let m = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < a.length; i++) if (a[i]! > m) m = a[i]!;
  return m === Number.NEGATIVE_INFINITY ? null : m;
};

/** Headroom from a session's per-GC columns (NaN = unavailable) and its GC settings. */
export function memoryHeadroom(
  cols: { number: ArrayLike<number>; heapAfter: ArrayLike<number>; committed: ArrayLike<number>; memoryLoad: ArrayLike<number> },
  settings: MemorySettings | null,
): MemoryHeadroom {
  const limit = settings !== null && settings.hardLimitBytes > 0 ? settings.hardLimitBytes : null;
  const configured = settings !== null && settings.highMemPercentConfig > 0;
  const high = configured ? settings.highMemPercentConfig : DEFAULT_HIGH_MEMORY_PERCENT;
  let minGap: number | null = null;
  let minGapGc: number | null = null;
  let atHigh = 0;
  for (let i = 0; i < cols.number.length; i++) {
    if (cols.memoryLoad[i]! >= high) atHigh++;
    if (limit === null) continue;
    const c = cols.committed[i]!;
    const used = Number.isNaN(c) ? cols.heapAfter[i]! : c;
    if (Number.isNaN(used)) continue;
    const gap = limit / 1e6 - used;
    if (minGap === null || gap < minGap) {
      minGap = gap;
      minGapGc = cols.number[i]!;
    }
  }
  return {
    hardLimitMB: limit === null ? null : limit / 1e6,
    hardLimitBytes: limit,
    settingsKnown: settings !== null,
    highMemoryLoadPercent: high,
    highMemoryLoadConfigured: configured,
    maxHeapAfterMB: maxOf(cols.heapAfter),
    maxCommittedMB: maxOf(cols.committed),
    maxMemoryLoadPercent: maxOf(cols.memoryLoad),
    minHeadroomMB: minGap,
    minHeadroomGcNumber: minGapGc,
    gcsAtHighMemoryLoad: atHigh,
  };
}

/** GCSettingsRundown as stored (JSON of the decoded event) → the settings the headroom reads. */
export function memorySettingsOf(s: Record<string, unknown> | null | undefined): MemorySettings | null {
  if (s === null || s === undefined) return null;
  const n = (k: string): number => (typeof s[k] === 'number' ? (s[k] as number) : 0);
  return { hardLimitBytes: n('hardLimit'), highMemPercentConfig: n('highMemPercentConfig'), gen0MaxBudgetConfig: n('gen0MaxBudgetConfig') };
}

/** Major version of a runtime version string ('10.0.12' → 10); null when unknown. */
export function runtimeMajorOf(v: string | null): number | null {
  const m = v === null ? null : /^(\d+)\./.exec(v);
  return m === null ? null : Number(m[1]);
}

/**
 * The fewest and most heaps the given GCs had (each GC's own heap count; NaN or 0 where its
 * events did not say), over `rows` or every GC; null when none says. One source of truth for
 * "1–2 heaps" in the session view's header and in `compare`'s sides (issue 39: compare said
 * "2 heaps" where the app said "1–2 heaps").
 */
export function heapCountSpan(counts: ArrayLike<number>, rows?: ArrayLike<number>): { min: number; max: number } | null {
  let min = Infinity;
  let max = 0;
  const n = rows === undefined ? counts.length : rows.length;
  for (let k = 0; k < n; k++) {
    const c = counts[rows === undefined ? k : rows[k]!]!;
    if (!(c > 0)) continue;
    if (c < min) min = c;
    if (c > max) max = c;
  }
  return max === 0 ? null : { min, max };
}

/** "1 heap", "2 heaps", or "1–2 heaps" when DATAS changed the count; null when unknown. */
export function heapCountText(min: number | null, max: number | null): string | null {
  if (max === null || !(max > 0)) return null;
  if (min === null || !(min > 0) || min === max) return `${max} heap${max === 1 ? '' : 's'}`;
  return `${min}–${max} heaps`;
}

/** Where a blocking GC's pause went, as far as its events say (pauseBreakdown). */
export interface PauseBreakdown {
  /** The heap that marked longest, and its mark time summed over root kinds (ms). */
  slowestHeap: number;
  markMSec: number;
  suspendMSec: number;
  /** pause − suspension − the slowest heap's marking, at least 0: planning, relocating or sweeping, compacting, restarting threads — no event times them. */
  restMSec: number;
}

/**
 * A GC's pause split into the time threads took to stop, the slowest heap's marking (the heaps
 * mark in parallel, so the slowest one sets it; GCMarkWithType's times by root kind), and the
 * rest. A user looking at a 400 ms gen1 pause beside ~1 ms of marking per heap was told nothing
 * of where the other 399 ms went. Null without mark times, or for a background GC (it marks
 * concurrently: its pause is not its marking).
 */
export function pauseBreakdown(balance: readonly HeapBalanceRow[], pauseMSec: number, suspendMSec: number, background: boolean): PauseBreakdown | null {
  if (background || !(pauseMSec > 0)) return null;
  let slowestHeap = -1;
  let markMSec = 0;
  for (const h of balance) {
    const t = h.markMSec.reduce((a, b) => a + b, 0);
    if (t > markMSec) {
      markMSec = t;
      slowestHeap = h.heap;
    }
  }
  if (slowestHeap < 0) return null;
  const suspend = Number.isFinite(suspendMSec) && suspendMSec > 0 ? suspendMSec : 0;
  return { slowestHeap, markMSec, suspendMSec: suspend, restMSec: Math.max(0, pauseMSec - suspend - markMSec) };
}
