/**
 * The colours that carry meaning, defined once for every place that draws them (/work/shared/UI.md,
 * "Colour and shape carry meaning, the same everywhere"): the app's charts, badges and legends
 * (src-renderer/charts/palette.ts) and the HTML reports (report/html.ts, report/compare-html.ts).
 * Tableau 10 hues, distinguishable under common colour blindness and readable on light and dark
 * backgrounds.
 */

/** gen0, gen1, gen2, LOH, POH. */
export const GEN_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#b07aa1'] as const;

/** A generation's colour (grey for a code outside gen0…POH). */
export function genColor(g: number): string {
  return GEN_COLORS[g] ?? '#888';
}

/** The two sides of a comparison (A, B): the blue/orange pair of the generations, apart under common colour blindness. */
export const SIDE_COLORS = [GEN_COLORS[0], GEN_COLORS[1]] as const;
