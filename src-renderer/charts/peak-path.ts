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
import { linearPos } from './canvas-pos.js';

/**
 * The run being drawn, as fields (not variables captured by closures: a double stored in a
 * closure's context is a fresh heap number each time, and these change at every GC drawn).
 */
class PeakRun {
  /** Column of the last value seen (NaN when no run is open). */
  col = Number.NaN;
  best = Number.NEGATIVE_INFINITY;
  /** The run's first column, and whether it has a vertex yet. */
  runX = 0;
  inRun = false;
  lastX = 0;

  constructor(
    private readonly stroke: Path2D,
    private readonly area: Path2D | null,
    /** Canvas y of the value 0 (where areas close), and pixels per unit. */
    private readonly yAt: number,
    private readonly yPer: number,
    private readonly stepBefore: boolean,
  ) {}

  /** Ends the column: its peak becomes a vertex. */
  vertex(): void {
    if (this.best === Number.NEGATIVE_INFINITY) return;
    const y = this.yAt + this.best * this.yPer;
    const col = this.col;
    const area = this.area;
    if (!this.inRun) {
      this.stroke.moveTo(col, y);
      area?.moveTo(col, this.yAt);
      area?.lineTo(col, y);
      this.runX = col;
      this.inRun = true;
    } else {
      if (this.stepBefore) {
        this.stroke.lineTo(this.lastX, y);
        area?.lineTo(this.lastX, y);
      }
      this.stroke.lineTo(col, y);
      area?.lineTo(col, y);
    }
    this.lastX = col;
    this.best = Number.NEGATIVE_INFINITY;
  }

  endRun(): void {
    this.vertex();
    if (this.inRun && this.area !== null) {
      this.area.lineTo(this.lastX, this.yAt);
      this.area.lineTo(this.runX, this.yAt);
      this.area.closePath();
    }
    this.inRun = false;
    this.col = Number.NaN;
  }
}

export function peakPath(fill: boolean, stepBefore = false): uPlot.Series.PathBuilder {
  return (u, si, i0, i1) => {
    const xs = u.data[0] as ArrayLike<number>;
    const ys = u.data[si] as ArrayLike<number | null>;
    const series = u.series[si]!;
    const scale = series.scale ?? 'y';
    const spanGaps = series.spanGaps === true;
    const stroke = new Path2D();
    const area = fill ? new Path2D() : null;
    const x = linearPos(u, 'x');
    const y = linearPos(u, scale);
    const run = new PeakRun(stroke, area, y.at, y.per, stepBefore);
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
      const col = Math.round(x.at + xs[i]! * x.per);
      if (gap && col > run.col + 1) run.endRun();
      gap = false;
      if (col !== run.col) {
        run.vertex();
        run.col = col;
      }
      if (v > run.best) run.best = v;
    }
    run.endRun();
    return { stroke, fill: area, clip: null, band: null, flags: 0 };
  };
}
