/**
 * M8 — a long pause explained by work: an ephemeral GC that suddenly promotes much more than its
 * recent peers (docs/diagnosis.md M8; MEM "Long pause explained by work"). The GC's work is what
 * survives, so a gen0/gen1 GC promoting 3× the rolling median of the previous GCs of its
 * generation, and pausing twice as long, points at something that kept young objects alive.
 * Information only (JMC-style fixed score 50).
 */
import { formatInt, formatMB, formatMs } from '../../shared/format.js';
import { evidenceOf, gcList, numbersOf } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { atLeast, RollingMedian } from '../stats.js';

export const promotionSpike: Rule = {
  id: 'promotion-spike',
  name: 'Promotion spike',
  source: 'M8 (Maoni Stephens, .NET Memory Performance Analysis: long pause explained by work)',
  goal: 'latency',
  settings: [
    { name: 'promotedRatio', default: 3, unit: '×', description: 'promoted MB / rolling median of the same generation' },
    { name: 'pauseRatio', default: 2, unit: '×', description: 'pause / rolling median pause of the same generation' },
    { name: 'window', default: 50, unit: 'GCs', description: 'how many previous GCs of the generation the rolling median covers' },
    { name: 'minHistory', default: 10, unit: 'GCs', description: 'previous GCs needed before a GC is judged' },
    { name: 'minPromotedMB', default: 1, unit: 'MB', description: 'spikes smaller than this are ignored' },
  ],
  evaluate({ columns: c, rows, s }) {
    const spikes: number[] = [];
    let worst: { i: number; pr: number; medP: number } | undefined;
    for (const gen of [0, 1]) {
      const promoted = new RollingMedian(s.window!);
      const pause = new RollingMedian(s.window!);
      for (const i of rows) {
        if (c.generation[i] !== gen) continue;
        const p = c.promoted[i]!;
        if (!Number.isFinite(p)) continue;
        if (promoted.size >= s.minHistory!) {
          const medP = promoted.median();
          const medPause = pause.median();
          const pr = medP > 0 ? p / medP : Number.POSITIVE_INFINITY;
          if (atLeast(p, s.minPromotedMB!) && atLeast(pr, s.promotedRatio!) && atLeast(c.pause[i]!, s.pauseRatio! * medPause)) {
            spikes.push(i);
            if (worst === undefined || pr > worst.pr) worst = { i, pr, medP };
          }
        }
        promoted.push(p);
        pause.push(c.pause[i]!);
      }
    }
    const reason = `${formatInt(spikes.length)} ephemeral GCs promoted ≥ ${s.promotedRatio}× their rolling median and paused ≥ ${s.pauseRatio}× theirs`;
    if (worst === undefined) return judged(0, reason);
    spikes.sort((a, b) => a - b);
    const i = worst.i;
    return judged(50, reason, {
      title: `${spikes.length === 1 ? 'A gen' + c.generation[i] + ' GC' : `${formatInt(spikes.length)} ephemeral GCs`} promoted far more than usual: GC #${formatInt(c.number[i]!)} ${formatMB(c.promoted[i]!)} vs a median of ${formatMB(worst.medP)}, pausing ${formatMs(c.pause[i]!)}`,
      evidence: evidenceOf(c, spikes),
      explanation:
        `An ephemeral GC's pause grows with what survives it. ${gcList(numbersOf(c, spikes))} suddenly kept much more alive than the GCs before them, and paused longer for it. ` +
        'In C# the usual cause is an old object (gen2 or LOH) referencing young ones — a cache, a list or an event handler — so they survive although the code is done with them.',
      advice:
        'Null out references from long-lived objects to short-lived ones when done (or clear the collection). PerfView\'s "Generational Aware" view (.NET 5+) shows which old objects hold young ones; a heap snapshot right after such a GC shows what survived.',
    });
  },
};
