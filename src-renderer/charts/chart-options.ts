/**
 * uPlot options for the session view's lanes. All lanes share the x axis (seconds since the
 * session's start), the cursor (sync key) and the selection: dragging selects a time range.
 */
import type uPlot from 'uplot';
import { formatMB, formatMs } from '../../src-main/shared/format';
import type { GcSeries } from '../../src-main/shared/gc-series';
import { GEN_COLORS } from './palette';

export const SYNC_KEY = 'gcscope-session';

export interface LaneHooks {
  /** A range was selected (seconds). */
  onSelect: (fromSec: number, toSec: number) => void;
  /** A point was clicked: its data index. */
  onClick?: (dataIndex: number) => void;
  /** Background GC spans to draw (pause chart). */
  spans?: () => { from: number; to: number; y: number }[];
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

function common(width: number, height: number, hooks: LaneHooks): Omit<uPlot.Options, 'series'> & { axes: uPlot.Axis[] } {
  const axis = cssVar('--muted', '#778');
  const grid = cssVar('--grid', 'rgba(128,128,128,0.15)');
  return {
    width,
    height,
    cursor: { sync: { key: SYNC_KEY, setSeries: false }, drag: { x: true, y: false, setScale: false }, focus: { prox: 16 } },
    select: { show: true, left: 0, top: 0, width: 0, height: 0 },
    legend: { show: true, live: true },
    scales: { x: { time: false } },
    axes: [
      { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid }, values: (_u, v) => v.map((s) => formatMs(s * 1000)) },
      { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid }, size: 64 },
    ],
    hooks: {
      setSelect: [
        (u) => {
          if (u.select.width < 4) return;
          const a = u.posToVal(u.select.left, 'x');
          const b = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          hooks.onSelect(a, b);
        },
      ],
      ready: [
        (u) => {
          if (hooks.onClick === undefined) return;
          u.over.addEventListener('click', () => {
            const i = u.cursor.idx;
            if (i !== null && i !== undefined) hooks.onClick?.(i);
          });
        },
      ],
    },
  };
}

const noLine = (): null => null;

export function pauseOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const pts = (fill: string, stroke: string, size = 6): uPlot.Series.Points => ({ show: true, size, fill, stroke, width: 1.5 });
  const spanColor = GEN_COLORS[2];
  return {
    ...common(width, height, hooks),
    series: [
      { label: 'time' },
      { label: 'gen0', stroke: GEN_COLORS[0], paths: noLine, points: pts(GEN_COLORS[0], GEN_COLORS[0]), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'gen1', stroke: GEN_COLORS[1], paths: noLine, points: pts(GEN_COLORS[1], GEN_COLORS[1]), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'gen2', stroke: GEN_COLORS[2], paths: noLine, points: pts(GEN_COLORS[2], GEN_COLORS[2]), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'background', stroke: spanColor, paths: noLine, points: pts('transparent', spanColor, 8), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'foreground gen0', stroke: '#333', paths: noLine, points: pts(GEN_COLORS[0], '#222', 7), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'foreground gen1', stroke: '#333', paths: noLine, points: pts(GEN_COLORS[1], '#222', 7), value: (_u, v) => (v == null ? '–' : formatMs(v)) },
      { label: 'induced', stroke: '#888', paths: noLine, points: { show: true, size: 3, fill: '#fff', stroke: '#111', width: 1 }, value: (_u, v) => (v == null ? '–' : 'yes') },
    ],
    axes: [common(width, height, hooks).axes[0]!, { ...common(width, height, hooks).axes[1]!, label: 'pause', values: (_u, v) => v.map((x) => formatMs(x)) }],
    plugins: [
      {
        hooks: {
          // Background GCs are spans, not points: a thin bar over their whole duration.
          draw: [
            (u) => {
              const spans = hooks.spans?.() ?? [];
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = spanColor;
              ctx.globalAlpha = 0.55;
              ctx.lineWidth = 3 * devicePixelRatio;
              for (const s of spans) {
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

export function heapOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const fillUnder = (i: number): uPlot.Series => ({
    label: ['gen0', 'gen1', 'gen2', 'LOH', 'POH'][i],
    stroke: GEN_COLORS[i],
    fill: GEN_COLORS[i] + 'aa',
    width: 1,
    points: { show: false },
    value: (_u, v) => (v == null ? '–' : formatMB(v)),
  });
  return {
    ...common(width, height, hooks),
    series: [
      { label: 'time' },
      fillUnder(4),
      fillUnder(3),
      fillUnder(2),
      fillUnder(1),
      fillUnder(0),
      { label: 'committed', stroke: '#888', width: 1.5, dash: [4, 3], points: { show: false }, value: (_u, v) => (v == null ? 'n/a' : formatMB(v)) },
    ],
    axes: [common(width, height, hooks).axes[0]!, { ...common(width, height, hooks).axes[1]!, label: 'heap after GC', values: (_u, v) => v.map((x) => formatMB(x)) }],
  };
}

/** Heap columns reordered top layer first so each filled area covers the ones below it. */
export function heapDrawOrder(c: [Float64Array, ...Float64Array[]]): [Float64Array, ...Float64Array[]] {
  return [c[0], c[5]!, c[4]!, c[3]!, c[2]!, c[1]!, c[6]!];
}

export function rateOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const base = common(width, height, hooks);
  return {
    ...base,
    scales: { x: { time: false }, rate: { auto: true }, pct: { range: [0, 100] } },
    series: [
      { label: 'time' },
      { label: 'allocation rate', scale: 'rate', stroke: '#59a14f', width: 1.5, points: { show: false }, value: (_u, v) => (v == null ? 'n/a' : `${v.toFixed(0)} MB/s`) },
      { label: '% paused (1 s window)', scale: 'pct', stroke: '#e15759', width: 1.5, points: { show: false }, value: (_u, v) => (v == null ? 'n/a' : `${v.toFixed(1)} %`) },
    ],
    axes: [base.axes[0]!, { ...base.axes[1]!, scale: 'rate', label: 'MB/s' }, { ...base.axes[1]!, scale: 'pct', side: 1, label: '% paused', grid: { show: false } }],
  };
}

/** Survival and movement per GC (gc-survival): bytes kept in place vs bytes moved by compaction. */
export function survivalOptions(width: number, height: number, hooks: LaneHooks): uPlot.Options {
  const base = common(width, height, hooks);
  const mb = (_u: uPlot, v: number | null): string => (v == null ? 'n/a' : `${v.toFixed(2)} MB`);
  return {
    ...base,
    scales: { x: { time: false }, y: { auto: true, range: (_u, _min, max) => [0, Math.max(max, 0.001)] } },
    series: [
      { label: 'time' },
      { label: 'survived in place', stroke: '#4e79a7', width: 0, points: { show: true, size: 5, fill: '#4e79a7' }, value: mb },
      { label: 'moved (compacted)', stroke: '#f28e2b', width: 0, points: { show: true, size: 5, fill: '#f28e2b' }, value: mb },
    ],
    axes: [base.axes[0]!, { ...base.axes[1]!, label: 'MB' }],
  };
}

/** Background GC spans for the pause lane (seconds). */
export function bgcSpans(s: GcSeries, t0: number): { from: number; to: number; y: number }[] {
  const out: { from: number; to: number; y: number }[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s.type[i] !== 1) continue;
    const d = s.duration[i]!;
    const from = (s.time[i]! - t0) / 1000;
    out.push({ from, to: from + (Number.isNaN(d) ? 0 : d / 1000), y: s.pause[i]! });
  }
  return out;
}
