/**
 * Columns and uPlot options of the Server GC lane group (heap count, throughput cost vs target,
 * gen0 budget vs the DATAS cap) and the memory headroom lane, from the session's GC series and
 * its DATAS data (shared/server-gc.ts). x is seconds since the session's start, like every lane;
 * rows are GCs (a heap-count change pause outside GCs gets a row of its own in the heap-count
 * lane, so it is drawn at its own time). Pure but for the canvas drawing in the plugins.
 */
import uPlot from 'uplot';
import { formatFixed, formatMB, formatMs } from '../../src-main/shared/format';
import type { GcSeries } from '../../src-main/shared/gc-series';
import { DEFAULT_HIGH_MEMORY_PERCENT, datasBudgetCap, sampleTcpPercent, type DatasTuning, type ServerGcData } from '../../src-main/shared/server-gc';
import { mbTicks, percentTicks } from './axis-format';
import { blankRight, common, yAxis, type LaneHooks } from './chart-options';
import type { LaneColumns } from './lane-data';

const CHANGE = '#d03030';
const TUNING = '#1f6fd0';
const GEN2_TUNING = '#8a3fd0';

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
 * change pause (drawn at the count it changed to)]. Rows in time order.
 */
export function heapCountLane(s: GcSeries, d: ServerGcData | undefined, t0: number): HeapCountLane {
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
  return { columns: [Float64Array.from(x), count, decision, gen2, change], rows, tuningAt };
}

/** The change pause behind a heap-count lane row, for its legend value. */
export function changePauseLabel(d: ServerGcData | undefined, lane: HeapCountLane, idx: number): string {
  const r = lane.rows[idx];
  if (r?.kind !== 'pause' || d === undefined) return '–';
  return `heap-count change, ${formatMs(d.changePauses[r.index]!.durationMSec)}`;
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

/** Headroom lane: [x, heap after GC (MB), committed (MB), hard limit (MB), memory load %, high-load threshold %]. */
export function headroomLane(s: GcSeries, d: ServerGcData | undefined, t0: number): LaneColumns {
  const n = s.length;
  const x = new Float64Array(n);
  const after: (number | null)[] = [];
  const committed: (number | null)[] = [];
  const load: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    x[i] = (s.time[i]! - t0) / 1000;
    after.push(num(s.heapAfter[i]));
    committed.push(num(s.committed[i]));
    load.push(num(s.memoryLoad[i]));
  }
  const limitBytes = d?.settings?.hardLimitBytes ?? 0;
  const limit = limitBytes > 0 ? limitBytes / 1e6 : null;
  const high = d?.settings !== null && d?.settings !== undefined && d.settings.highMemPercentConfig > 0 ? d.settings.highMemPercentConfig : DEFAULT_HIGH_MEMORY_PERCENT;
  return [x, after, committed, new Array<number | null>(n).fill(limit), load, new Array<number | null>(n).fill(high)];
}

const legend = (f: (v: number) => string) => (_u: uPlot, v: number | null, _si: number, idx: number | null): string => (idx == null ? '–' : v == null ? 'n/a' : f(v));
const heaps = (v: number): string => formatFixed(v, 0);
const pct = (v: number): string => `${formatFixed(v, 2)} %`;
const mb = (v: number): string => formatMB(v);

export function heapCountOptions(width: number, height: number, hooks: LaneHooks, pauseLabel: (idx: number) => string): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  // A step line: the count holds from one GC until the next GC that has another.
  const stepped = uPlot.paths.stepped!({ align: 1 });
  return {
    ...base,
    scales: { ...base.scales, y: { auto: true, range: (_u, _min, max) => [0, Math.max(2, Math.ceil(max) + 1)] } },
    series: [
      xSeries,
      { label: 'heaps (each GC\'s own)', stroke: '#333', width: 2, spanGaps: true, paths: stepped, points: { show: false }, value: legend(heaps) },
      { label: 'DATAS decision (new count)', stroke: TUNING, paths: () => null, points: { show: true, size: 7, fill: '#fff', stroke: TUNING, width: 2 }, value: legend(heaps) },
      { label: 'gen2 decision', stroke: GEN2_TUNING, paths: () => null, points: { show: true, size: 8, fill: GEN2_TUNING, stroke: GEN2_TUNING, width: 1 }, value: legend(heaps) },
      { label: 'change pause (outside GCs)', stroke: CHANGE, paths: () => null, points: { show: true, size: 11, fill: CHANGE, stroke: '#fff', width: 1.5 }, value: (_u, _v, _si, idx) => (idx == null ? '–' : pauseLabel(idx)) },
    ],
    axes: [xAxis, yAxis('heaps', (splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : ''))), blankRight()],
  };
}

export function tcpOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  return {
    ...base,
    scales: { ...base.scales, y: { auto: true, range: (_u, _min, max) => [0, Math.min(100, Math.max(5, max * 1.1))] } },
    series: [
      xSeries,
      { label: 'GC pause part', stroke: '#4a8', fill: 'rgba(68,170,136,0.35)', width: 1, points: { show: false }, value: legend(pct) },
      { label: 'throughput cost (pause + alloc waits / heaps)', stroke: '#c80', width: 1, points: { show: true, size: 3, fill: '#c80' }, value: legend(pct) },
      { label: 'DATAS median TCP', stroke: TUNING, paths: () => null, points: { show: true, size: 6, fill: TUNING, stroke: TUNING }, value: legend(pct) },
      { label: 'target', stroke: CHANGE, width: 1.5, dash: [6, 4], points: { show: false }, value: legend(pct) },
    ],
    axes: [xAxis, yAxis('cost', percentTicks), blankRight()],
  };
}

export function budgetOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  return {
    ...base,
    scales: { ...base.scales, y: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.08 : 1] } },
    series: [
      xSeries,
      { label: 'gen0 budget (all heaps)', stroke: '#1f6fd0', width: 1.5, spanGaps: true, points: { show: false }, value: legend(mb) },
      { label: 'DATAS budget cap (BCD)', stroke: CHANGE, width: 1.5, dash: [6, 4], spanGaps: true, points: { show: false }, value: legend(mb) },
      { label: 'SOH stable size', stroke: '#777', width: 1, spanGaps: true, points: { show: true, size: 3, fill: '#777' }, value: legend(mb) },
    ],
    axes: [xAxis, yAxis('size', mbTicks), blankRight()],
  };
}

/** The headroom lane; `gap` says where to label the tightest gap to the limit (row) and its size (MB). */
export function headroomOptions(width: number, height: number, hooks: LaneHooks, gap: () => { row: number; mb: number; limitMB: number } | null): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  return {
    ...base,
    scales: { ...base.scales, y: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.12 : 1] }, load: { auto: false, range: [0, 100] } },
    series: [
      xSeries,
      { label: 'heap after GC', stroke: '#2a7', fill: 'rgba(34,170,119,0.18)', width: 1.5, spanGaps: true, points: { show: false }, value: legend(mb) },
      { label: 'committed', stroke: '#555', width: 1.5, dash: [4, 3], spanGaps: true, points: { show: false }, value: legend(mb) },
      { label: 'hard limit', stroke: CHANGE, width: 2, points: { show: false }, value: (_u, v, _si, idx) => (idx == null ? '–' : v == null ? 'none configured' : formatMB(v)) },
      { label: 'memory load', scale: 'load', stroke: '#a6a', width: 1, spanGaps: true, points: { show: false }, value: legend((v) => `${formatFixed(v, 0)} %`) },
      { label: 'high memory load', scale: 'load', stroke: '#a6a', width: 1, dash: [2, 4], points: { show: false }, value: legend((v) => `${formatFixed(v, 0)} %`) },
    ],
    axes: [xAxis, yAxis('memory', mbTicks), yAxis('load', percentTicks, 'load', 1)],
    plugins: [
      {
        hooks: {
          // The gap to the limit, labelled where it is tightest: a bracket from the committed (or
          // heap) value up to the limit line, and its size.
          draw: [
            (u) => {
              const g = gap();
              if (g === null) return;
              const xs = u.data[0];
              const used = (u.data[2]?.[g.row] ?? u.data[1]?.[g.row]) as number | null | undefined;
              if (used === null || used === undefined || xs[g.row] === undefined) return;
              const cx = u.valToPos(xs[g.row]!, 'x', true);
              const yTop = u.valToPos(g.limitMB, 'y', true);
              const yBot = u.valToPos(used, 'y', true);
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = CHANGE;
              ctx.fillStyle = CHANGE;
              ctx.lineWidth = 1.5 * devicePixelRatio;
              ctx.beginPath();
              ctx.moveTo(cx, yTop);
              ctx.lineTo(cx, yBot);
              ctx.moveTo(cx - 4 * devicePixelRatio, yTop);
              ctx.lineTo(cx + 4 * devicePixelRatio, yTop);
              ctx.moveTo(cx - 4 * devicePixelRatio, yBot);
              ctx.lineTo(cx + 4 * devicePixelRatio, yBot);
              ctx.stroke();
              ctx.font = `${12 * devicePixelRatio}px sans-serif`;
              const text = `headroom ${formatMB(g.mb)} to the limit`;
              const w = ctx.measureText(text).width;
              const tx = Math.min(cx + 6 * devicePixelRatio, u.bbox.left + u.bbox.width - w - 4);
              ctx.fillText(text, Math.max(u.bbox.left + 4, tx), (yTop + yBot) / 2 + 4 * devicePixelRatio);
              ctx.restore();
            },
          ],
        },
      },
    ],
  };
}
