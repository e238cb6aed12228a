/**
 * One palette for generations, used by every chart, badge and legend (docs/ui.md): the colours
 * are shared/palette.ts's, the same as the HTML report's.
 * Kind is a second channel: blocking = filled, background = outlined (and a span), foreground =
 * filled with an outline, induced = a small diamond.
 */
export { GEN_COLORS, genColor, SIDE_COLORS } from '../../src-main/shared/palette.js';
export { GEN_LABELS } from '../../src-main/shared/gc-column-registry.js';
export const KIND_LABELS = ['blocking', 'background', 'foreground'] as const;
