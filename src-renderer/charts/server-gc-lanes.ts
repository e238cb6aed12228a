/**
 * Columns of the Server GC lane group (heap count, throughput cost vs target, gen0 budget vs the
 * DATAS cap) and the memory headroom lane, from the session's GC series and its DATAS data
 * (shared/server-gc.ts). x is seconds since the trace's start, like every lane; rows are GCs (a
 * heap-count change pause outside GCs gets a row of its own in the heap-count lane, so it is
 * drawn at its own time). Pure; the uPlot options are in server-gc-lane-options.ts.
 */
import { formatInt, formatMs } from '../../src-main/shared/format.js';
import type { GcSeries } from '../../src-main/shared/gc-series.js';
import { DEFAULT_HIGH_MEMORY_PERCENT, datasBudgetCap, sampleTcpPercent, type DatasTuning, type ServerGcData } from '../../src-main/shared/server-gc.js';
import type { LaneColumns } from './lane-data.js';

/** What a heap-count lane row is: a GC (its series index) or a change pause (its index in changePauses). */
export type HeapCountRow = { kind: 'gc'; index: number } | { kind: 'pause'; index: number };

export interface HeapCountLane {
  columns: LaneColumns;
  rows: HeapCountRow[];
  /** Decision per row (the tuning fired during that GC), for the table on click. */
  tuningAt: (DatasTuning | undefined)[];
}

const num = (v: number | null | undefined): number | null => (v === null || v === undefined || Number.isNaN(v) ? null : v);

/** Series row of each GC number. */
function rowsByNumber(s: GcSeries): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < s.length; i++) m.set(s.number[i]!, i);
  return m;
}

/**
 * Heap-count lane: [x, heap count per GC (step), decision (new count, at its GC), gen2 decision,
 * change pause (drawn at the count it changed to), the machine's cores (the most heaps Server GC
 * uses)]. Rows in time order.
 */
export function heapCountLane(s: GcSeries, d: ServerGcData | undefined, t0: number, cores: number | null = null): HeapCountLane {
  const byNumber = rowsByNumber(s);
  const tuningByRow = new Map<number, DatasTuning[]>();
  for (const t of d?.tunings ?? []) {
    const r = byNumber.get(t.gcNumber);
    if (r !== undefined) tuningByRow.set(r, [...(tuningByRow.get(r) ?? []), t]);
  }
  const pauses = d?.changePauses ?? [];
  const rows: HeapCountRow[] = [];
  let p = 0;
  for (let i = 0; i < s.length; i++) {
    while (p < pauses.length && pauses[p]!.startMSec < s.time[i]!) rows.push({ kind: 'pause', index: p++ });
    rows.push({ kind: 'gc', index: i });
  }
  while (p < pauses.length) rows.push({ kind: 'pause', index: p++ });
  const x: number[] = [];
  const count: (number | null)[] = [];
  const decision: (number | null)[] = [];
  const gen2: (number | null)[] = [];
  const change: (number | null)[] = [];
  const tuningAt: (DatasTuning | undefined)[] = [];
  /** Each row's own count (null for a pause or a GC without GlobalHeapHistory). */
  const own: (number | null)[] = [];
  let last: number | null = null;
  for (const r of rows) {
    if (r.kind === 'gc') {
      const c = num(s.heapCount[r.index]);
      if (c !== null) last = c;
      own.push(c);
      x.push((s.time[r.index]! - t0) / 1000);
      count.push(c ?? last);
      const ts = tuningByRow.get(r.index) ?? [];
      const main = ts.find((t) => t.kind !== 'full-gc-tuning');
      const full = ts.find((t) => t.kind === 'full-gc-tuning');
      decision.push(main === undefined ? null : main.newHeapCount);
      gen2.push(full === undefined ? null : full.newHeapCount);
      change.push(null);
      tuningAt.push(main ?? full);
    } else {
      const pz = pauses[r.index]!;
      x.push((pz.startMSec - t0) / 1000);
      // Between GCs the step line carries the count on through the pause.
      count.push(last);
      own.push(null);
      decision.push(null);
      gen2.push(null);
      change.push(last);
      tuningAt.push(undefined);
    }
  }
  // A change pause is drawn at the count it changed to: the next GC's own.
  let next: number | null = null;
  for (let k = rows.length - 1; k >= 0; k--) {
    if (rows[k]!.kind === 'gc') next = own[k] ?? next;
    else change[k] = next ?? change[k]!;
  }
  return { columns: [Float64Array.from(x), count, decision, gen2, change, new Array<number | null>(x.length).fill(cores)], rows, tuningAt };
}

/**
 * The change pause behind a heap-count lane row, for its legend value. After a change the runtime
 * makes the next GC a background GC to rebuild gen2's free lists (dynamic_heap_count.cpp,
 * trigger_bgc_for_rethreading_p): said here, so that BGC does not look unexplained.
 */
export function changePauseLabel(d: ServerGcData | undefined, lane: HeapCountLane, idx: number, s?: GcSeries): string {
  const r = lane.rows[idx];
  if (r?.kind !== 'pause' || d === undefined) return '–';
  const text = `heap-count change, ${formatMs(d.changePauses[r.index]!.durationMSec)}`;
  const next = lane.rows.slice(idx + 1).find((x) => x.kind === 'gc');
  if (s === undefined || next === undefined || s.type[next.index] !== 1) return text;
  return `${text}; the background GC #${formatInt(s.number[next.index]!)} after it is expected (free-list rethread)`;
}

/** Throughput-cost lane: [x, pause part %, allocation-wait part % (stacked on pause), decision's median TCP %, target %]. */
export function tcpLane(s: GcSeries, d: ServerGcData | undefined, t0: number): LaneColumns {
  const n = s.length;
  const byNumber = rowsByNumber(s);
  const pause: (number | null)[] = new Array<number | null>(n).fill(null);
  const total: (number | null)[] = new Array<number | null>(n).fill(null);
  const median: (number | null)[] = new Array<number | null>(n).fill(null);
  for (const smp of d?.samples ?? []) {
    const r = byNumber.get(smp.gcNumber);
    const tcp = sampleTcpPercent(smp);
    if (r === undefined || tcp === null) continue;
    pause[r] = Math.min(100, (smp.pauseUs * 100) / smp.elapsedUs);
    total[r] = tcp;
  }
  for (const t of d?.tunings ?? []) {
    const r = byNumber.get(t.gcNumber);
    if (r !== undefined && t.kind !== 'full-gc-tuning') median[r] = num(t.medianTcpPercent);
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = (s.time[i]! - t0) / 1000;
  const target = d === undefined ? null : d.targetTcpPercent;
  return [x, pause, total, median, new Array<number | null>(n).fill(target)];
}

/** Budget lane (MB): [x, gen0 budget (per heap × heaps), DATAS budget cap (BCD), SOH stable size]. */
export function budgetLane(s: GcSeries, d: ServerGcData | undefined, t0: number): LaneColumns {
  const n = s.length;
  const byNumber = rowsByNumber(s);
  const budget: (number | null)[] = new Array<number | null>(n).fill(null);
  const cap: (number | null)[] = new Array<number | null>(n).fill(null);
  const stable: (number | null)[] = new Array<number | null>(n).fill(null);
  for (const smp of d?.samples ?? []) {
    const r = byNumber.get(smp.gcNumber);
    if (r === undefined || smp.gen0BudgetPerHeap === null) continue;
    budget[r] = (smp.gen0BudgetPerHeap * smp.heapCount) / 1e6;
    const c = datasBudgetCap(smp.sohStableSize);
    cap[r] = c === null ? null : c / 1e6;
    stable[r] = smp.sohStableSize === null || smp.sohStableSize <= 0 ? null : smp.sohStableSize / 1e6;
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = (s.time[i]! - t0) / 1000;
  return [x, budget, cap, stable];
}

/**
 * The headroom lane's two lines: the hard limit (MB; NaN when none is configured or the trace has
 * no GCSettingsRundown) and the high-memory-load threshold (%, the runtime's default unless
 * configured). Its per-GC columns are the session lanes' (lane-data.ts), built as GCs arrive.
 */
export function headroomLimits(d: ServerGcData | undefined): { limitMB: number; highPercent: number } {
  const limitBytes = d?.settings?.hardLimitBytes ?? 0;
  const configured = d?.settings !== null && d?.settings !== undefined && d.settings.highMemPercentConfig > 0;
  return { limitMB: limitBytes > 0 ? limitBytes / 1e6 : Number.NaN, highPercent: configured ? d.settings!.highMemPercentConfig : DEFAULT_HIGH_MEMORY_PERCENT };
}
