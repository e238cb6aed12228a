/**
 * uPlot options of the Server GC lanes and the memory headroom lane (columns: server-gc-lanes.ts):
 * the shared x axis, cursor and selection of every lane (chart-options.ts), the lane's series and
 * the headroom lane's labelled gap to the hard limit.
 */
import uPlot from 'uplot';
import { formatFixed, formatMB } from '../../src-main/shared/format.js';
import { mbTicks, percentTicks } from './axis-format.js';
import { blankRight, common, peakArea, peakLine, visibleMax, yAxis, type LaneHooks } from './chart-options.js';
import { isGap } from './chart-data.js';

const CHANGE = '#d03030';
const TUNING = '#1f6fd0';
const GEN2_TUNING = '#8a3fd0';

const legend =
  (f: (v: number) => string) =>
  (_u: uPlot, v: number | null, _si: number, idx: number | null): string =>
    idx == null ? '–' : v == null ? 'n/a' : f(v);
/** The legend for a column with NaN (no value) as well as null. */
const gapLegend =
  (f: (v: number) => string) =>
  (_u: uPlot, v: number | null, _si: number, idx: number | null): string =>
    idx == null ? '–' : isGap(v) ? 'n/a' : f(v!);
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
      { label: "heaps (each GC's own)", stroke: '#333', width: 2, spanGaps: true, paths: stepped, points: { show: false }, value: legend(heaps) },
      {
        label: 'DATAS decision (new count)',
        stroke: TUNING,
        paths: () => null,
        points: { show: true, size: 7, fill: '#fff', stroke: TUNING, width: 2 },
        value: legend(heaps),
      },
      {
        label: 'gen2 decision',
        stroke: GEN2_TUNING,
        paths: () => null,
        points: { show: true, size: 8, fill: GEN2_TUNING, stroke: GEN2_TUNING, width: 1 },
        value: legend(heaps),
      },
      {
        label: 'change pause (outside GCs)',
        stroke: CHANGE,
        paths: () => null,
        points: { show: true, size: 11, fill: CHANGE, stroke: '#fff', width: 1.5 },
        value: (_u, _v, _si, idx) => (idx == null ? '–' : pauseLabel(idx)),
      },
      { label: 'cores', stroke: '#999', width: 1, dash: [3, 4], points: { show: false }, value: legend(heaps) },
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
export function headroomOptions(
  width: number,
  height: number,
  hooks: LaneHooks,
  gap: () => { row: number; mb: number; limitMB: number } | null,
): uPlot.Options {
  const { xAxis, xSeries, ...base } = common(width, height, hooks);
  return {
    ...base,
    // The columns are Float64Arrays with NaN for "no value" (lane-data.ts): the y range is taken
    // from the visible values, as the session lanes do, not by uPlot (NaN at the view's edge).
    // Headroom above the highest value to 80 % of the height, clear of the 90 % high-load line.
    scales: {
      ...base.scales,
      y: {
        auto: true,
        range: (u) => {
          const max = visibleMax(u);
          return [0, max > 0 ? max * 1.25 : 1];
        },
      },
      load: { auto: false, range: [0, 100] },
    },
    series: [
      xSeries,
      {
        label: 'heap after GC',
        stroke: '#2a7',
        fill: 'rgba(34,170,119,0.18)',
        width: 1.5,
        spanGaps: true,
        auto: false,
        paths: peakArea,
        points: { show: false },
        value: gapLegend(mb),
      },
      {
        label: 'committed',
        stroke: '#555',
        width: 1.5,
        dash: [4, 3],
        spanGaps: true,
        auto: false,
        paths: peakLine,
        points: { show: false },
        value: gapLegend(mb),
      },
      {
        label: 'hard limit',
        stroke: CHANGE,
        width: 2,
        auto: false,
        points: { show: false },
        value: (_u, v, _si, idx) => (idx == null ? '–' : isGap(v) ? 'none configured' : formatMB(v!)),
      },
      {
        label: 'memory load',
        scale: 'load',
        stroke: '#a6a',
        width: 1,
        spanGaps: true,
        paths: peakLine,
        points: { show: false },
        value: gapLegend((v) => `${formatFixed(v, 0)} %`),
      },
      {
        label: 'high memory load',
        scale: 'load',
        stroke: '#a6a',
        width: 1,
        dash: [2, 4],
        points: { show: false },
        value: gapLegend((v) => `${formatFixed(v, 0)} %`),
      },
    ],
    axes: [xAxis, yAxis('memory', mbTicks), yAxis('load', percentTicks, 'load', 1)],
    plugins: [
      {
        hooks: {
          // The gap to the limit, labelled where it is tightest: a bracket from the committed (or
          // heap) value up to the limit line, and its size.
          draw: [
            // The high-memory-load line is on the right (load) axis, and a heap near the top of
            // the left one ran along it: a tester read it as the heap reaching a threshold. It is
            // named at its right end, in its colour.
            (u) => {
              const ys = u.data[5] ?? [];
              let high: number | null | undefined;
              for (let i = ys.length - 1; i >= 0 && isGap(high); i--) high = ys[i];
              if (isGap(high)) return;
              const ctx = u.ctx;
              ctx.save();
              ctx.fillStyle = '#a6a';
              ctx.font = `${11 * devicePixelRatio}px sans-serif`;
              ctx.textAlign = 'right';
              ctx.fillText(
                `high memory load ${formatFixed(high!, 0)} %`,
                u.bbox.left + u.bbox.width - 4 * devicePixelRatio,
                u.valToPos(high!, 'load', true) - 3 * devicePixelRatio,
              );
              ctx.restore();
            },
            (u) => {
              const g = gap();
              if (g === null) return;
              const xs = u.data[0];
              const committed = u.data[2]?.[g.row];
              const used = isGap(committed) ? u.data[1]?.[g.row] : committed;
              if (isGap(used) || xs[g.row] === undefined) return;
              const cx = u.valToPos(xs[g.row]!, 'x', true);
              const yTop = u.valToPos(g.limitMB, 'y', true);
              const yBot = u.valToPos(used!, 'y', true);
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
