/**
 * One palette for generations, used by every chart, badge and legend (docs/ui.md): Tableau 10 hues,
 * distinguishable under common colour blindness and readable on light and dark backgrounds.
 * Kind is a second channel: blocking = filled, background = outlined (and a span), foreground =
 * filled with an outline, induced = a small diamond.
 */
export const GEN_COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#b07aa1'] as const;
export const GEN_LABELS = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'] as const;
export const KIND_LABELS = ['blocking', 'background', 'foreground'] as const;

export function genColor(g: number): string {
  return GEN_COLORS[g] ?? '#888';
}
