/**
 * A uPlot path builder for the lanes' lines and areas when many GCs share a pixel column: one
 * vertex per column, at the highest value there (the peak is what a heap, committed-memory or
 * allocation-rate line is read for). uPlot's own linear builder keeps each column's first, lowest,
 * highest and last value, so a value that swings between GCs (gen0 filling and emptying, committed
 * memory stepping) becomes a vertical zigzag in every column: the committed line of the
 * 100,000-GC session drew as a dark band, and stroking those zigzags was most of a canvas's
 * rasterization — bench:ui's zoom, the heap lane alone: 120–190 ms to rasterize with uPlot's
 * paths, about 25 ms with this one. With fewer GCs than columns it draws every point, straight
 * lines between them, as the linear builder does.
 *
 * NaN or null is no value: it breaks the line unless the series spans gaps. `fill` closes each
 * run down to the scale's 0 (the stacked heap areas, the headroom lane's heap). `stepBefore` is
 * for a value that holds over the interval before its GC (the allocation rate: what was allocated
 * since the previous GC over the time since it): the line steps at the previous vertex and runs
 * level to its own, where a straight line would slope across an interval it says nothing about.
 */
import type uPlot from 'uplot';

export function peakPath(fill: boolean, stepBefore = false): uPlot.Series.PathBuilder {
  return (u, si, i0, i1) => {
    const xs = u.data[0] as ArrayLike<number>;
    const ys = u.data[si] as ArrayLike<number | null>;
    const series = u.series[si]!;
    const scale = series.scale ?? 'y';
    const spanGaps = series.spanGaps === true;
    const stroke = new Path2D();
    const area = fill ? new Path2D() : null;
    const y0 = u.valToPos(0, scale, true);
    let col = Number.NaN;
    let best = Number.NEGATIVE_INFINITY;
    // The run being drawn: its first column's x, and whether it has a vertex yet.
    let runX = 0;
    let inRun = false;
    let lastX = 0;
    const vertex = (): void => {
      if (best === Number.NEGATIVE_INFINITY) return;
      const y = u.valToPos(best, scale, true);
      if (!inRun) {
        stroke.moveTo(col, y);
        area?.moveTo(col, y0);
        area?.lineTo(col, y);
        runX = col;
        inRun = true;
      } else {
        if (stepBefore) {
          stroke.lineTo(lastX, y);
          area?.lineTo(lastX, y);
        }
        stroke.lineTo(col, y);
        area?.lineTo(col, y);
      }
      lastX = col;
      best = Number.NEGATIVE_INFINITY;
    };
    const endRun = (): void => {
      vertex();
      if (inRun && area !== null) {
        area.lineTo(lastX, y0);
        area.lineTo(runX, y0);
        area.closePath();
      }
      inRun = false;
      col = Number.NaN;
    };
    // A GC with no value between two with one: the line breaks there only when a whole pixel
    // column is left without a value (closing an area to 0 and reopening it in the same column
    // drew a sliver down to the axis wherever a GC lacked the value).
    let gap = false;
    for (let i = i0; i <= i1; i++) {
      const v = ys[i];
      // NaN > anything is false, and null is not a number: both are "no value".
      if (v === null || v === undefined || Number.isNaN(v)) {
        gap = !spanGaps;
        continue;
      }
      const x = Math.round(u.valToPos(xs[i]!, 'x', true));
      // `col` is the column of the last value seen (NaN when no run is open).
      if (gap && x > col + 1) endRun();
      gap = false;
      if (x !== col) {
        vertex();
        col = x;
      }
      if (v > best) best = v;
    }
    endRun();
    return { stroke, fill: area, clip: null, band: null, flags: 0 };
  };
}
