/**
 * M16 — long background GC pauses (docs/diagnosis.md M16). A background GC's pauses (its initial
 * and final suspension) are normally short; long ones point at work done only in those
 * stop-the-world phases, or runtime issues. Scored on the longest: info at 50 ms, warning at
 * 200 ms (the quick-reference table's limits).
 */
import { formatInt, formatMs } from '../../shared/format.js';
import { evidenceOf, isBackground } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const longBgcPause: Rule = {
  id: 'long-bgc-pause',
  name: 'Long background GC pause',
  source: 'M16 (Maoni Stephens, .NET Memory Performance Analysis: long BGC pauses)',
  goal: 'latency',
  settings: [
    { name: 'infoMSec', default: 50, unit: 'ms', description: 'background GC pause for an info finding' },
    { name: 'warnMSec', default: 200, unit: 'ms', description: 'background GC pause for a warning' },
  ],
  evaluate({ columns: c, rows, s }) {
    const bgcs = rows.filter((i) => isBackground(c, i));
    if (bgcs.length === 0) return judged(0, 'no background GC');
    const worst = bgcs.reduce((a, i) => (c.pause[i]! > c.pause[a]! ? i : a));
    const score = mapExp100Two(c.pause[worst]!, s.infoMSec!, s.warnMSec!);
    const long = bgcs.filter((i) => c.pause[i]! >= s.infoMSec!);
    const reason = `longest background GC pause ${formatMs(c.pause[worst]!)} of ${formatInt(bgcs.length)} background GCs (info at ${formatMs(s.infoMSec!)}, warning at ${formatMs(s.warnMSec!)})`;
    if (long.length === 0) return judged(score, reason);
    const fin = c.bgcFinalPause[worst]!;
    return judged(score, reason, {
      title: `Background GC #${formatInt(c.number[worst]!)} paused the process ${formatMs(c.pause[worst]!)}${long.length > 1 ? ` (${formatInt(long.length)} background GCs over ${formatMs(s.infoMSec!)})` : ''}`,
      evidence: evidenceOf(c, long),
      explanation:
        'A background GC does most of its work while the program runs and pauses it only briefly, at its start and for its final mark' +
        (Number.isFinite(fin) ? ` (final pause ${formatMs(fin)} here)` : '') +
        '. Long pauses mean a lot of work in those stop-the-world phases: many roots to mark (large stacks, many handles), or a runtime issue.',
      advice:
        'Check which pause is long (the GC detail shows both). Many GC handles or pinned objects, large thread stacks and heavy use of weak handles add to the final mark; upgrade the runtime if you are on an old one.',
    });
  },
};
