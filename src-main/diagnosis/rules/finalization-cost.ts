/**
 * M13 — finalization cost (docs/diagnosis.md M13, derived from MEM "Finalizers"). An object with a
 * finalizer that dies is kept alive one more GC so its finalizer can run: it is promoted, and so
 * is everything it references. When that is a real share of what ephemeral GCs promote,
 * finalizers cost GC work. Information only (fixed score 50).
 */
import { formatMB, formatPercent } from '../../shared/format.js';
import { anyFinite, evidenceOf } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';
import { atLeast } from '../stats.js';

export const finalizationCost: Rule = {
  id: 'finalization-cost',
  name: 'Finalization cost',
  source: 'M13 (derived from Maoni Stephens, .NET Memory Performance Analysis: finalizers)',
  goal: 'throughput',
  settings: [{ name: 'promotedShare', default: 0.1, unit: 'ratio', description: 'bytes promoted only for finalization / all bytes promoted by ephemeral GCs' }],
  evaluate({ columns: c, rows, s }) {
    if (!anyFinite(c.finalizationPromoted, rows)) return notMeasured('GCHeapStats events with finalization-promoted sizes');
    let fin = 0;
    let prom = 0;
    const ev: number[] = [];
    for (const i of rows) {
      if (c.generation[i]! > 1) continue;
      const f = c.finalizationPromoted[i]!;
      const p = c.promoted[i]!;
      if (!Number.isFinite(f) || !Number.isFinite(p)) continue;
      fin += f;
      prom += p;
      if (f > 0) ev.push(i);
    }
    const share = prom > 0 ? fin / prom : 0;
    const reason = `finalization kept ${formatMB(fin)} alive of ${formatMB(prom)} promoted by ephemeral GCs (${formatPercent(100 * share, 0)}; info at ${formatPercent(100 * s.promotedShare!, 0)})`;
    if (!atLeast(share, s.promotedShare!) || fin <= 0) return judged(0, reason);
    return judged(50, reason, {
      title: `Finalizable objects make ${formatPercent(100 * share, 0)} of what ephemeral GCs promote (${formatMB(fin)})`,
      evidence: evidenceOf(c, ev),
      explanation:
        'A dead object with a finalizer is kept alive until its finalizer has run, so the GC promotes it (and everything it references) instead of freeing it; in gen2 it then waits for a gen2 GC. That is GC work and memory for objects the program no longer uses.',
      advice:
        'Dispose such objects (using / Dispose) and call GC.SuppressFinalize(this) in Dispose; prefer SafeHandle over your own finalizers; avoid finalizers on short-lived types.',
    });
  },
};
