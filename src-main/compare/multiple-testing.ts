/**
 * Benjamini–Hochberg adjusted p-values (Benjamini & Hochberg 1995): a comparison runs dozens of
 * tests (every stratum × every metric), so a raw p < 0.05 would flag a few by chance; adjusted
 * values below q keep the expected share of false discoveries at or below q.
 */

/** BH-adjusted p-values in the input's order: min over j ≥ i of p_(j)·m/j, capped at 1. */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((x, y) => p[x]! - p[y]!);
  const out = new Array<number>(m);
  let running = 1;
  for (let r = m - 1; r >= 0; r--) {
    const i = order[r]!;
    running = Math.min(running, (p[i]! * m) / (r + 1));
    out[i] = running;
  }
  return out;
}
