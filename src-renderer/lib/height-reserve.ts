/**
 * Heights to reserve for parts of the session view whose content arrives after the first chart
 * (the findings, the tiles' numbers): the last height each had with its content, at this window
 * width, kept across page loads. Reserving it keeps the lanes below from moving just after they
 * were drawn, under a pointer already on its way to them; a part that turns out shorter or taller
 * moves them once, as it would have without the reserve.
 */
const PREFIX = 'gcscope.height.';

function key(part: string): string {
  // Rounded to 40 px: a resize by a few pixels keeps the reserve, a different window does not.
  return `${PREFIX}${part}@${Math.round(window.innerWidth / 40) * 40}`;
}

/** The height `part` last had with its content at about this window width, or 0. */
export function reservedHeight(part: string): number {
  try {
    const v = Number(localStorage.getItem(key(part)));
    return Number.isFinite(v) && v > 0 && v < 2000 ? v : 0;
  } catch {
    // Storage unavailable (private mode, a sandboxed page): no reserve.
    return 0;
  }
}

/** Notes the height `part` has with its content, for the next time it waits for it. */
export function noteHeight(part: string, px: number): void {
  try {
    localStorage.setItem(key(part), px.toFixed(1));
  } catch {
    // As above: the reserve is only a nicety.
  }
}
