/**
 * A scatter lane's marks (one round mark per GC) stamped from a small pre-drawn bitmap instead of
 * drawn as uPlot's arcs.
 *
 * Why: a 2D canvas records its drawing and rasterizes it when the page commits the frame, on
 * the page's main thread. Anti-aliased circles are the dearest thing to rasterize. During a live
 * recording at ~140 GCs/s, the pause lane's ~2,600 marks (one per pixel column for the pause and
 * one for its suspension) made every tenth of a second a commit of ~8–10 ms of CPU. Each of the
 * page's remaining long tasks was such a commit that waited for a core (bench:live-ui's trace).
 * Copying a bitmap at whole-pixel positions costs a fraction of that: in Chromium without a GPU,
 * 2,600 marks rasterized in 4–5 ms instead of 19–22 ms.
 *
 * The marks look as uPlot draws them (same diameter, outline width, fill and outline colours).
 * Their centres sit on whole device pixels, as uPlot's own rounding puts them. A series keeps its
 * `points` options (size, colours) for the hover dot and the legend. `show: false` only stops
 * uPlot from drawing them itself; this plugin draws them in the series' own turn (its drawSeries
 * hook), so the lane's stacking order and the focus dimming are kept.
 */
import type uPlot from 'uplot';
import { linearPos } from './canvas-pos.js';
import { isGap, thinToPixels } from './chart-data.js';

export interface MarkStyle {
  /** Diameter, outline included (CSS px), as uPlot's `points.size`. */
  size: number;
  fill: string;
  stroke: string;
  /** Outline width (CSS px), as uPlot's `points.width`. */
  width: number;
  /**
   * Drawn before every series (uPlot's drawAxes hook) instead of in the series' own turn: a mark
   * that belongs under the others. The pause lane's suspension dot sits inside its GC's pause;
   * where the two are a pixel apart (most gen0 GCs at a whole-session zoom) the grey dot drawn
   * last covered the generation's colour and a thousand gen0 GCs read as a grey band.
   */
  beneath?: boolean;
}

/** A series' `points` for marks this plugin draws: uPlot keeps them for the hover dot only. */
export function markPoints(style: MarkStyle): uPlot.Series.Points {
  return { show: false, size: style.size, fill: style.fill, stroke: style.stroke, width: style.width };
}

interface Sprite {
  canvas: HTMLCanvasElement;
  /** Offset from the mark's centre to the bitmap's top-left corner (device px). */
  half: number;
}

const sprites = new Map<string, Sprite>();

/** The mark drawn once at this device pixel ratio, as uPlot draws a point (fill, then outline). */
function sprite(style: MarkStyle, dpr: number): Sprite {
  const key = `${style.size}|${style.fill}|${style.stroke}|${style.width}|${dpr}`;
  const known = sprites.get(key);
  if (known !== undefined) return known;
  const lineWidth = style.width * dpr;
  const radius = ((style.size - style.width) / 2) * dpr;
  // Even, so the centre falls on a pixel corner like uPlot's rounded centres: room for the
  // outline's outer half and a pixel of anti-aliasing on each side.
  const side = 2 * Math.ceil(radius + lineWidth / 2 + 1);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = side;
  const ctx = canvas.getContext('2d')!;
  ctx.beginPath();
  ctx.arc(side / 2, side / 2, radius, 0, 2 * Math.PI);
  ctx.fillStyle = style.fill;
  ctx.fill();
  if (lineWidth > 0) {
    ctx.lineWidth = lineWidth;
    ctx.strokeStyle = style.stroke;
    ctx.stroke();
  }
  const s = { canvas, half: side / 2 };
  sprites.set(key, s);
  return s;
}

/**
 * Draws the marks of the series in `styles` (by series index): those in view, at most one per
 * pixel column, the highest (thinToPixels, as the lanes' `thin` filter).
 */
export function spriteMarks(styles: ReadonlyMap<number, MarkStyle>): uPlot.Plugin {
  const beneath = [...styles].filter(([, st]) => st.beneath === true).map(([si]) => si);
  const draw = (u: uPlot, si: number): void => {
    const style = styles.get(si);
    const idxs = u.series[0]?.idxs;
    const x = u.scales.x;
    if (style === undefined || idxs === undefined || idxs[0] == null || idxs[1] == null || x?.min == null || x.max == null) return;
    const xs = u.data[0] as ArrayLike<number>;
    const ys = u.data[si] as ArrayLike<number | null | undefined>;
    const scale = u.series[si]!.scale ?? 'y';
    const dpr = devicePixelRatio || 1;
    const s = sprite(style, dpr);
    const ctx = u.ctx;
    ctx.save();
    // As uPlot clips its points: the plot area, widened by a mark so edge marks show whole.
    const { left, top, width, height } = u.bbox;
    ctx.beginPath();
    ctx.rect(left - s.half, top - s.half, width + 2 * s.half, height + 2 * s.half);
    ctx.clip();
    // A hovered series' neighbours dim (cursor focus): uPlot has reset the alpha by now.
    ctx.globalAlpha = u.series[si]!.alpha ?? 1;
    const xp = linearPos(u, 'x');
    const yp = linearPos(u, scale);
    const stamp = (i: number): void => {
      const v = ys[i];
      if (isGap(v)) return;
      const px = Math.round(xp.at + xs[i]! * xp.per);
      const py = Math.round(yp.at + v! * yp.per);
      ctx.drawImage(s.canvas, px - s.half, py - s.half);
    };
    const keep = thinToPixels(xs, ys, idxs[0], idxs[1], x.min, x.max, width / dpr);
    if (keep === null) for (let i = idxs[0]; i <= idxs[1]; i++) stamp(i);
    else for (const i of keep) stamp(i);
    ctx.restore();
  };
  return {
    hooks: {
      drawAxes: [(u) => beneath.forEach((si) => u.series[si]?.show !== false && draw(u, si))],
      drawSeries: [(u, si) => styles.get(si)?.beneath !== true && draw(u, si)],
    },
  };
}
