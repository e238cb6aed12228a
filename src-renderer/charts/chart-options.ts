/**
 * uPlot options for the session view's lanes. All lanes share the x axis (seconds since the
 * trace's start; the view sets every lane's x scale to the same range), the cursor (sync key)
 * and the selection: dragging selects a time range and zooms every lane to it. Every lane has
 * the same fixed-size axis on both sides (a blank one where it has no second scale), so the plot
 * areas have the same width and the shared cursor lines up across lanes.
 */
import type uPlot from 'uplot';
import { formatMB, formatMs, formatPercent, formatRate } from '../../src-main/shared/format.js';
import { cursorTime, mbTicks, msTicks, percentTicks, rateTicks, secondsTicks } from './axis-format.js';
import { linearPos } from './canvas-pos.js';
import { isGap, thinToPixels } from './chart-data.js';
import { clampedMax, PAUSE_SERIES, type BgcSpan } from './lane-data.js';
import { GEN_COLORS } from './palette.js';
import { peakPath } from './peak-path.js';
import { markPoints, spriteMarks, type MarkStyle } from './sprite-marks.js';

export const SYNC_KEY = 'gcscope-session';
/** Width of every lane's left and right axis (px), labels included. */
export const AXIS_SIZE = 88;
const LABEL_SIZE = 18;

export interface LaneHooks {
  /** A range was selected (seconds). */
  onSelect: (fromSec: number, toSec: number) => void;
  /** A point was clicked: its data index. */
  onClick?: (dataIndex: number) => void;
  /** The cursor is at a point (its data index), or left the plot (null). */
  onHover?: (dataIndex: number | null) => void;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

type Ticks = (splits: number[]) => string[];

export function yAxis(label: string, ticks: Ticks, scale = 'y', side: 1 | 3 = 3): uPlot.Axis {
  const axis = cssVar('--muted', '#778');
  const grid = cssVar('--grid', 'rgba(128,128,128,0.15)');
  return {
    scale,
    side,
    label,
    labelSize: LABEL_SIZE,
    size: AXIS_SIZE - LABEL_SIZE,
    stroke: axis,
    grid: { show: side === 3, stroke: grid },
    ticks: { stroke: grid },
    values: (_u, splits) => ticks(splits),
  };
}

/** The right-hand axis of a lane without a second scale: takes the same room, draws nothing. */
export function blankRight(scale = 'y'): uPlot.Axis {
  return {
    scale,
    side: 1,
    label: '',
    labelSize: LABEL_SIZE,
    size: AXIS_SIZE - LABEL_SIZE,
    grid: { show: false },
    ticks: { show: false },
    values: (_u, splits) => splits.map(() => ''),
  };
}

/**
 * Picks, from the GC nearest the pointer in time (uPlot's cursor index), the one the lane shows
 * under the pointer; in a lane of marks, the one nearest in both directions.
 */
export type PointPick = (u: uPlot, nearestInTime: number) => number;

/**
 * The lane under the pointer when it picks its GC itself (the pause lane): while it has the
 * pointer, the lanes synced to it do not report their own (time-nearest) GC as hovered.
 */
let picker: uPlot | null = null;
/**
 * The time (x) of the GC the picking lane has under the pointer: the lanes synced to it show the
 * GC at that time, not the one nearest the pointer (issue 39: hovering near two GCs, the pause
 * lane named one and the lanes below the other, "3.053 s" over "3.096 s").
 */
let pickedX: number | null = null;

/** The index in sorted `xs` of the value nearest `x`. */
function nearestIndex(xs: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && Math.abs(xs[lo - 1]! - x) <= Math.abs(xs[lo]! - x) ? lo - 1 : lo;
}

export function common(
  width: number,
  height: number,
  hooks: LaneHooks,
  pick?: PointPick,
): Omit<uPlot.Options, 'series' | 'axes'> & { xAxis: uPlot.Axis; xSeries: uPlot.Series } {
  const axis = cssVar('--muted', '#778');
  const grid = cssVar('--grid', 'rgba(128,128,128,0.15)');
  // One pick per cursor position (uPlot asks for each series, then the hooks ask again).
  let memo = { left: NaN, top: NaN, idx: -1, picked: -1 };
  const picked = (u: uPlot, idx: number): number => {
    if (picker !== null && picker !== u) {
      // Another lane picks the GC: this one shows the same GC (the one at its time).
      const xs = u.data[0] as ArrayLike<number>;
      return pickedX === null || xs.length === 0 ? idx : nearestIndex(xs, pickedX);
    }
    if (pick === undefined || picker !== u) return idx;
    const { left = -1, top = -1 } = u.cursor;
    if (memo.left !== left || memo.top !== top || memo.idx !== idx) {
      memo = { left, top, idx, picked: pick(u, idx) };
      pickedX = (u.data[0] as ArrayLike<number>)[memo.picked] ?? null;
    }
    return memo.picked;
  };
  return {
    width,
    height,
    cursor: {
      sync: { key: SYNC_KEY, setSeries: false },
      drag: { x: true, y: false, setScale: false },
      focus: { prox: 16 },
      // A lane's NaN is "no value": no hover point (uPlot would leave one where it last was) and
      // a legend that says so.
      dataIdx: (u, si, idx) => {
        const i = picked(u, idx);
        return si > 0 && Number.isNaN((u.data[si] as ArrayLike<number | null>)[i]) ? null : i;
      },
    },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    legend: { show: true, live: true },
    // The view sets x on every lane; uPlot never ranges it from the data.
    scales: { x: { time: false, auto: false } },
    // Room for labels like "11.325 s" between ticks.
    xAxis: { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid }, space: 80, values: (_u, splits) => secondsTicks(splits) },
    xSeries: { label: 'time', value: (_u, v) => cursorTime(v) },
    hooks: {
      setSelect: [
        (u) => {
          if (u.select.width < 4) return;
          const a = u.posToVal(u.select.left, 'x');
          const b = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          hooks.onSelect(a, b);
          // The GC under the pointer before the zoom is not the one there after it, yet uPlot
          // keeps its cursor (legend values, hovered GC) until the pointer moves again. Hide it on
          // every lane (published to the sync group) once uPlot has finished the mouseup; the next
          // move shows the GC under the pointer in the new window.
          setTimeout(() => hideCursor(u), 0);
        },
      ],
      setCursor: [
        (u) => {
          if (hooks.onHover === undefined || (picker !== null && picker !== u)) return;
          const i = u.cursor.idx;
          hooks.onHover(u.cursor.left !== undefined && u.cursor.left >= 0 && i !== null && i !== undefined ? picked(u, i) : null);
        },
      ],
      ready: [
        (u) => {
          if (pick !== undefined) {
            u.over.addEventListener('pointerenter', () => (picker = u));
            u.over.addEventListener('pointerleave', () => {
              if (picker !== u) return;
              picker = null;
              pickedX = null;
            });
          }
          if (hooks.onClick === undefined) return;
          u.over.addEventListener('click', () => {
            const i = u.cursor.idx;
            if (i !== null && i !== undefined) hooks.onClick?.(picked(u, i));
          });
        },
      ],
    },
  };
}

/** Puts the cursor at (left, top) CSS px on this lane and the lanes synced to it, its hooks fired (legend values, hovered GC). */
export function setSyncedCursor(u: uPlot, left: number, top: number): void {
  // uPlot's third argument publishes to the sync group; its typings list only two.
  (u.setCursor as (opts: { left: number; top: number }, fireHook?: boolean, pub?: boolean) => void)({ left, top }, true, true);
}

/** Hides the cursor (and so clears the legend and the hovered GC) on this lane and the lanes synced to it. */
export function hideCursor(u: uPlot): void {
  setSyncedCursor(u, -10, -10);
}

const noLine = (): null => null;
/** Lines and areas with one vertex per pixel column, its peak (peak-path.ts). */
export const peakLine = peakPath(false);
export const peakArea = peakPath(true);
/** A per-interval value (the allocation rate since the previous GC): level over its interval. */
export const peakStepLine = peakPath(false, true);

/** Indexes of the first and last visible points: uPlot sets them on the x series while ranging, before it ranges y. */
function visible(u: uPlot): [number, number] {
  const n = u.data[0].length;
  const idxs = u.series[0]?.idxs;
  return idxs === undefined || idxs[0] == null || idxs[1] == null ? [0, n - 1] : [idxs[0], idxs[1]];
}

/**
 * The largest value of the shown series on `scale` among the points in view, NaN skipped. The
 * lanes range their y scales with this instead of uPlot's own scan, which takes a NaN at the edge
 * of the view for the minimum and maximum (their series have `auto: false`, so uPlot skips it).
 */
export function visibleMax(u: uPlot, scale = 'y', skip?: number): number {
  const [a, b] = visible(u);
  let max = Number.NEGATIVE_INFINITY;
  for (let si = 1; si < u.series.length; si++) {
    const s = u.series[si]!;
    if (si === skip || s.show === false || (s.scale ?? 'y') !== scale) continue;
    const ys = u.data[si] as ArrayLike<number | null | undefined>;
    // NaN > max is false: gaps skip themselves.
    for (let i = a; i <= b; i++) {
      const v = ys[i];
      if (v != null && v > max) max = v;
    }
  }
  return max;
}

/** A legend value: '–' with no GC hovered, `missing` for a hovered GC without one. */
const hoverValue =
  (fmt: (v: number) => string, missing = 'n/a') =>
  (u: uPlot, v: number | null): string =>
    u.cursor.idx == null ? '–' : isGap(v) ? missing : fmt(v!);

const ms = (_u: uPlot, v: number | null): string => (isGap(v) ? '–' : formatMs(v!));

/** The pause lane's series of the GCs a filter leaves out (drawn dimmed). */
const FILTERED_OUT = PAUSE_SERIES.indexOf('filtered out') + 1;
/** The pause lane's series that draw a GC's pause mark (each GC is in one of them): gen0–2, background, foreground gen0/1, filtered out. */
const MARK_SERIES = [1, 2, 3, 4, 5, 6, 9];
/** How far either side of the pointer (CSS px) a mark is looked for. */
const PICK_PX = 8;

/**
 * The mark nearest the pointer in the pause lane: in time alone, a short pause 1 px beside a long
 * one took the click meant for the long one (the outlier a user goes for). Among the GCs within
 * PICK_PX of the pointer in time, the one whose mark is nearest in both directions.
 */
export function nearestMark(u: uPlot, nearestInTime: number): number {
  const xs = u.data[0] as ArrayLike<number>;
  const left = u.cursor.left ?? -1;
  const top = u.cursor.top ?? -1;
  if (left < 0 || top < 0) return nearestInTime;
  let best = nearestInTime;
  let bestD = Number.POSITIVE_INFINITY;
  const consider = (j: number): boolean => {
    const dx = u.valToPos(xs[j]!, 'x') - left;
    if (Math.abs(dx) > PICK_PX) return false;
    for (const si of MARK_SERIES) {
      const v = (u.data[si] as ArrayLike<number | null> | undefined)?.[j];
      if (v === null || v === undefined || Number.isNaN(v)) continue;
      const dy = u.valToPos(v, 'y') - top;
      const d = dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = j;
      }
      break;
    }
    return true;
  };
  for (let j = nearestInTime; j >= 0 && consider(j); j--);
  for (let j = nearestInTime + 1; j < xs.length && consider(j); j++);
  return best;
}

export function pauseOptions(width: number, height: number, hooks: LaneHooks, spans: () => readonly BgcSpan[]): uPlot.Options {
  // Every series of this lane is marks, stamped by spriteMarks (sprite-marks.ts) in series order.
  const marks = new Map<number, MarkStyle>();
  // Series in order: each pts() call is the next series' marks; the suspension's are bars (notMarks).
  let next = 1;
  const pts = (fill: string, stroke: string, size = 6, width = 1.5, beneath = false): uPlot.Series.Points => {
    const style = { size, fill, stroke, width, beneath };
    marks.set(next++, style);
    return markPoints(style);
  };
  const notMarks = (style: MarkStyle): uPlot.Series.Points => {
    next++;
    return markPoints(style);
  };
  const spanColor = GEN_COLORS[2];
  const { xAxis, xSeries, ...base } = common(width, height, hooks, nearestMark);
  return {
    ...base,
    // A filter or a picked finding ranges the lane to the GCs it keeps (the dimmed ones may run
    // off the top): 28 GCs of a finding at ≤ 9 ms sat on the 0 line under a 150 ms axis set by
    // GCs the finding left out. With none of the kept GCs in view, the dimmed ones range it.
    scales: {
      ...base.scales,
      y: {
        auto: true,
        range: (u) => {
          const kept = visibleMax(u, 'y', FILTERED_OUT);
          const max = kept > 0 ? kept : visibleMax(u);
          return [0, max > 0 ? max * 1.08 : 1];
        },
      },
    },
    series: [
      xSeries,
      { label: 'gen0', stroke: GEN_COLORS[0], auto: false, paths: noLine, points: pts(GEN_COLORS[0], GEN_COLORS[0]), value: ms },
      { label: 'gen1', stroke: GEN_COLORS[1], auto: false, paths: noLine, points: pts(GEN_COLORS[1], GEN_COLORS[1]), value: ms },
      { label: 'gen2', stroke: GEN_COLORS[2], auto: false, paths: noLine, points: pts(GEN_COLORS[2], GEN_COLORS[2]), value: ms },
      { label: 'background', stroke: spanColor, auto: false, paths: noLine, points: pts('transparent', spanColor, 8), value: ms },
      { label: 'foreground gen0', stroke: '#333', auto: false, paths: noLine, points: pts(GEN_COLORS[0], '#222', 7), value: ms },
      { label: 'foreground gen1', stroke: '#333', auto: false, paths: noLine, points: pts(GEN_COLORS[1], '#222', 7), value: ms },
      { label: 'induced', stroke: '#888', auto: false, paths: noLine, points: pts('#fff', '#111', 3, 1), value: (_u, v) => (isGap(v) ? '–' : 'yes') },
      // The part of each pause spent suspending threads (the rest is GC work): a bar from the
      // axis up to the suspension's height under the GC's mark (suspensionBars), so a pause reads
      // as suspension + GC work. Not a sprite mark: the bars are drawn beneath every mark.
      {
        label: 'suspension',
        stroke: SUSPENSION_COLOR,
        fill: SUSPENSION_COLOR,
        auto: false,
        paths: noLine,
        points: notMarks({ size: 5, fill: SUSPENSION_COLOR, stroke: SUSPENSION_COLOR, width: 1 }),
        value: ms,
      },
      { label: 'filtered out', stroke: '#bbb', auto: false, paths: noLine, points: pts('rgba(160,160,160,0.35)', 'rgba(160,160,160,0.5)', 5, 1), value: ms },
    ],
    axes: [xAxis, yAxis('pause', msTicks), blankRight()],
    plugins: [
      suspensionBars(),
      spriteMarks(marks),
      {
        hooks: {
          // Background GCs are spans, not points: a thin bar over their whole duration.
          draw: [
            (u) => {
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = spanColor;
              ctx.globalAlpha = 0.55;
              ctx.lineWidth = 3 * devicePixelRatio;
              const xmin = u.scales.x?.min ?? 0;
              const xmax = u.scales.x?.max ?? 0;
              for (const s of spans()) {
                if (s.to < xmin || s.from > xmax) continue;
                const x0 = u.valToPos(s.from, 'x', true);
                const x1 = u.valToPos(s.to, 'x', true);
                const y = u.valToPos(s.y, 'y', true);
                ctx.beginPath();
                ctx.moveTo(x0, y);
                ctx.lineTo(Math.max(x1, x0 + 2), y);
                ctx.stroke();
              }
              ctx.restore();
            },
          ],
        },
      },
    ],
  };
}

/** The colour of the time spent suspending threads, in the pause lane and its legend (Tableau brown: apart from the five generations' hues). */
export const SUSPENSION_COLOR = '#9c755f';
/** The pause lane's series of each GC's suspension (ms). */
const SUSPENSION = PAUSE_SERIES.indexOf('suspension') + 1;

/**
 * Each pause as suspension plus GC work (issue 39: the suspension was a dot hidden under its GC's
 * mark, and a slow-suspension trace showed nothing of the time threads took to stop): a bar from
 * the axis to the suspension's height in SUSPENSION_COLOR, and a thin grey stem on from there to
 * the GC's pause mark (the GC's own work). Drawn before the series (uPlot's drawAxes hook), so
 * every mark stays on top: a pause under a pixel still reads in its generation's colour. At most
 * one GC per pixel column, the one with the longest suspension (thinToPixels).
 */
function suspensionBars(): uPlot.Plugin {
  const draw = (u: uPlot): void => {
    const idxs = u.series[0]?.idxs;
    const x = u.scales.x;
    if (u.series[SUSPENSION]?.show === false || idxs === undefined || idxs[0] == null || idxs[1] == null || x?.min == null || x.max == null) return;
    const xs = u.data[0] as ArrayLike<number>;
    const sus = u.data[SUSPENSION] as ArrayLike<number | null | undefined>;
    const dpr = devicePixelRatio || 1;
    const { left, top, width, height } = u.bbox;
    const xp = linearPos(u, 'x');
    const yp = linearPos(u, 'y');
    const ctx = u.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, top, width, height);
    ctx.clip();
    const barW = Math.max(2, Math.round(3 * dpr));
    const base = Math.round(yp.at);
    const one = (i: number): void => {
      const v = sus[i];
      if (isGap(v)) return;
      const px = Math.round(xp.at + xs[i]! * xp.per);
      let pause = Number.NaN;
      for (const si of MARK_SERIES) {
        const p = (u.data[si] as ArrayLike<number | null | undefined>)[i];
        if (!isGap(p)) {
          pause = p!;
          break;
        }
      }
      const ys = Math.round(yp.at + v! * yp.per);
      if (!Number.isNaN(pause)) {
        // The GC's work: the rest of the pause, up to its mark.
        const yp2 = Math.round(yp.at + pause * yp.per);
        if (yp2 < ys) {
          ctx.fillStyle = GC_WORK_COLOR;
          ctx.fillRect(px - Math.floor(dpr / 2), yp2, Math.max(1, Math.round(dpr)), ys - yp2);
        }
      }
      if (base - ys >= 1) {
        ctx.fillStyle = SUSPENSION_COLOR;
        ctx.fillRect(px - Math.floor(barW / 2), ys, barW, base - ys);
      }
    };
    const keep = thinToPixels(xs, sus, idxs[0], idxs[1], x.min, x.max, width / dpr);
    if (keep === null) for (let i = idxs[0]; i <= idxs[1]; i++) one(i);
    else for (const i of keep) one(i);
    ctx.restore();
  };
  return { hooks: { drawAxes: [draw] } };
}
/** The stem of a pause's GC work above its suspension bar. */
const GC_WORK_COLOR = 'rgba(128,128,128,0.55)';

/**
 * Heap after each GC, stacked by generation (areas fill between running totals, drawn top layer
 * first so each covers the ones below) in the legend's own opaque colours, while the legend and
 * hover give each generation's OWN size (`own(g, idx)`), not the running total. The free space
 * inside a generation (fragmentation, `fragColumn(g)`, where the trace has per-heap history; NaN elsewhere) is
 * hatched over the top of its area, so a fragmented gen0 does not read as live data. Series 7,
 * heap before GC, is off until the view's before/after toggle shows it; series 8 only names the
 * GC's total fragmentation in the legend.
 */
export function heapOptions(
  width: number,
  height: number,
  hooks: LaneHooks,
  own: (g: number, idx: number) => number | null,
  fragColumn: (g: number) => ArrayLike<number> | undefined,
): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  const layer = (g: number): uPlot.Series => ({
    label: ['gen0', 'gen1', 'gen2', 'LOH', 'POH'][g],
    stroke: GEN_COLORS[g],
    fill: GEN_COLORS[g],
    // Filled, not outlined: stroking five stacked outlines that swing with every GC was most of
    // the lane's rasterization (peak-path.ts); the fills' colours tell the generations apart.
    width: 0,
    auto: false,
    paths: peakArea,
    // An area needs two GCs: a session with one GC shows its generations' tops as dots instead.
    points: { show: (u: uPlot) => u.data[0].length === 1, size: 7, fill: GEN_COLORS[g] },
    value: (u) => (u.cursor.idx == null ? '–' : formatMB(own(g, u.cursor.idx))),
  });
  const beforeGc: MarkStyle = { size: 3, fill: '#111', stroke: '#111', width: 1 };
  let hatch: CanvasPattern | null = null;
  const pattern = (ctx: CanvasRenderingContext2D): CanvasPattern | null => {
    if (hatch !== null) return hatch;
    const size = Math.round(6 * devicePixelRatio);
    const c = document.createElement('canvas');
    c.width = c.height = size;
    const p = c.getContext('2d')!;
    p.strokeStyle = 'rgba(255,255,255,0.85)';
    p.lineWidth = Math.max(1, devicePixelRatio * 1.2);
    p.beginPath();
    p.moveTo(0, size);
    p.lineTo(size, 0);
    p.moveTo(-size / 2, size / 2);
    p.lineTo(size / 2, -size / 2);
    p.moveTo(size / 2, size * 1.5);
    p.lineTo(size * 1.5, size / 2);
    p.stroke();
    hatch = ctx.createPattern(c, 'repeat');
    return hatch;
  };
  return {
    ...base,
    // No focus dimming: it would make the other areas translucent and mix their colours.
    cursor: { ...base.cursor, focus: { prox: -1 } },
    scales: {
      ...base.scales,
      y: {
        auto: true,
        range: (u) => {
          const max = visibleMax(u);
          return [0, max > 0 ? max * 1.05 : 1];
        },
      },
    },
    // With no GC hovered the legend shows '–' throughout (not 'n/a' over data the chart draws).
    series: [
      xSeries,
      layer(4),
      layer(3),
      layer(2),
      layer(1),
      layer(0),
      { label: 'committed', stroke: '#555', width: 1.5, dash: [4, 3], auto: false, paths: peakLine, points: { show: false }, value: hoverValue(formatMB) },
      { label: 'before GC', show: false, stroke: '#111', width: 1.5, auto: false, points: markPoints(beforeGc), value: hoverValue(formatMB) },
      {
        label: 'fragmentation (hatched)',
        stroke: '#999',
        fill: '#999',
        width: 0,
        auto: false,
        paths: noLine,
        points: { show: false },
        value: hoverValue(formatMB, 'not in this trace'),
      },
    ],
    axes: [xAxis, yAxis('heap', mbTicks), blankRight()],
    plugins: [
      spriteMarks(new Map([[7, beforeGc]])),
      {
        hooks: {
          // Per generation: a band from its stack top down by its fragmentation, hatched.
          drawSeries: [
            (u, si) => {
              // After the last area (gen0, series 5) is drawn, so the hatching lies on top.
              if (si !== 5) return;
              const x = u.data[0];
              const idxs = u.series[0]?.idxs;
              if (idxs === undefined) return;
              const [a, b] = [Math.max(0, idxs[0]! - 1), Math.min(x.length - 1, idxs[1]! + 1)];
              const ctx = u.ctx;
              ctx.save();
              ctx.beginPath();
              ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
              ctx.clip();
              ctx.fillStyle = pattern(ctx) ?? 'rgba(255,255,255,0.5)';
              const xp = linearPos(u, 'x');
              const yp = linearPos(u, 'y');
              for (let g = 0; g < 5; g++) {
                // Runs of consecutive GCs with fragmentation in this generation: one polygon each,
                // with at most one vertex per pixel column (the GC with the most fragmentation
                // there): a whole long session in view costs what its width does, not one vertex
                // per GC (20,000 GCs in view made a 250 ms fill).
                const px: number[] = [];
                const top: number[] = [];
                const bottom: number[] = [];
                let bestFrag = -1;
                const flush = (): void => {
                  const n = px.length;
                  if (n > 0) {
                    ctx.beginPath();
                    ctx.moveTo(px[0]!, top[0]!);
                    for (let k = 1; k < n; k++) ctx.lineTo(px[k]!, top[k]!);
                    for (let k = n - 1; k >= 0; k--) ctx.lineTo(px[k]!, bottom[k]!);
                    // A single GC: a thin sliver so it still shows.
                    if (n === 1) ctx.lineTo(px[0]! + devicePixelRatio, top[0]!);
                    ctx.closePath();
                    ctx.fill();
                  }
                  px.length = 0;
                  top.length = 0;
                  bottom.length = 0;
                };
                const stackTop = u.data[5 - g] as ArrayLike<number | null>;
                // The column itself, not a getter per GC: a number returned from a call that is
                // not inlined is a fresh heap number, 5 per GC drawn, every redraw.
                const fragOf = fragColumn(g);
                if (fragOf === undefined) continue;
                for (let i = a; i <= b; i++) {
                  const f = i < fragOf.length ? fragOf[i]! : Number.NaN;
                  const t = stackTop[i];
                  if (!(f > 0) || t == null || Number.isNaN(t)) {
                    flush();
                    continue;
                  }
                  const x0 = Math.round(xp.at + x[i]! * xp.per);
                  const last = px.length - 1;
                  if (last >= 0 && px[last] === x0) {
                    if (f <= bestFrag) continue;
                    top[last] = yp.at + t * yp.per;
                    bottom[last] = yp.at + (t - f) * yp.per;
                  } else {
                    px.push(x0);
                    top.push(yp.at + t * yp.per);
                    bottom.push(yp.at + (t - f) * yp.per);
                  }
                  bestFrag = f;
                }
                flush();
              }
              ctx.restore();
            },
          ],
        },
      },
    ],
  };
}

/**
 * Allocation rate (left) and % of time paused (right). One allocation spike must not flatten the
 * rate axis: the axis stops at a high percentile of the visible rates and clipped points are
 * drawn as markers on the top edge.
 */
export function rateOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  let clipped = false;
  return {
    ...base,
    scales: {
      ...base.scales,
      rate: {
        auto: true,
        range: (u) => {
          const [a, b] = visible(u);
          const r = clampedMax((u.data[1] ?? []) as (number | null)[], a, b);
          clipped = r.clipped;
          return [0, r.max];
        },
      },
      pct: { auto: false, range: [0, 100] },
    },
    series: [
      xSeries,
      {
        label: 'allocation rate',
        scale: 'rate',
        stroke: '#59a14f',
        width: 1.5,
        auto: false,
        paths: peakStepLine,
        points: { show: false },
        value: hoverValue(formatRate),
      },
      {
        label: '% paused (1 s window)',
        scale: 'pct',
        stroke: '#e15759',
        width: 1.5,
        auto: false,
        paths: peakLine,
        points: { show: false },
        value: hoverValue((v) => formatPercent(v)),
      },
    ],
    axes: [xAxis, yAxis('allocation', rateTicks, 'rate'), yAxis('% paused', percentTicks, 'pct', 1)],
    plugins: [
      {
        hooks: {
          draw: [
            (u) => {
              if (!clipped) return;
              const top = u.scales.rate?.max ?? 0;
              const ys = u.data[1] ?? [];
              const [a, b] = visible(u);
              const ctx = u.ctx;
              ctx.save();
              ctx.fillStyle = '#59a14f';
              const y = u.bbox.top + 1;
              const r = 4 * devicePixelRatio;
              const xp = linearPos(u, 'x');
              for (let i = a; i <= b; i++) {
                const v = ys[i];
                // NaN (no value) is never above the top.
                if (v == null || !(v > top)) continue;
                const x = xp.at + u.data[0][i]! * xp.per;
                ctx.beginPath();
                ctx.moveTo(x - r, y + r * 1.6);
                ctx.lineTo(x + r, y + r * 1.6);
                ctx.lineTo(x, y);
                ctx.closePath();
                ctx.fill();
              }
              ctx.restore();
            },
          ],
        },
      },
    ],
  };
}

/** Survival and movement per GC (gc-survival): bytes kept in place vs bytes moved by compaction. */
export function survivalOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  // '–' with no GC hovered; 'n/a' only for a hovered GC the trace has no value for.
  const mb = hoverValue(formatMB);
  const survived: MarkStyle = { size: 5, fill: '#4e79a7', stroke: '#4e79a7', width: 1 };
  const moved: MarkStyle = { size: 5, fill: '#f28e2b', stroke: '#f28e2b', width: 1 };
  return {
    ...base,
    scales: { ...base.scales, y: { auto: true, range: (u) => [0, Math.max(visibleMax(u), 0.001)] } },
    series: [
      xSeries,
      { label: 'survived in place', stroke: '#4e79a7', width: 0, auto: false, points: markPoints(survived), value: mb },
      { label: 'moved (compacted)', stroke: '#f28e2b', width: 0, auto: false, points: markPoints(moved), value: mb },
    ],
    axes: [xAxis, yAxis('size', mbTicks), blankRight()],
    plugins: [
      spriteMarks(
        new Map([
          [1, survived],
          [2, moved],
        ]),
      ),
    ],
  };
}
