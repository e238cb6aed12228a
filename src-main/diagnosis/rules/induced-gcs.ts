/**
 * M4 — induced GCs (docs/diagnosis.md M4; MEM; PerfView's Heap Analyzer flags any induced GC).
 * Someone called GC.Collect (or GC.AddMemoryPressure, or a tool took a heap snapshot). Nearly
 * always a red flag: any induced GC is an info finding; a warning when they cost a real share of
 * the pause time or one induced full blocking GC alone is long.
 */
import { formatInt, formatMs, formatPercent } from '../../shared/format.js';
import { gcReasonName } from '../../shared/gc-enums.js';
import { isInducedReason } from '../../shared/gc-record.js';
import { evidenceOf, GC_TYPE, isFullBlocking, isInduced } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

/** GC reason 7 (gc.h reason_induced_noforce): GC.Collect(gen, GCCollectionMode.Optimized). */
const INDUCED_NOT_FORCED = 7;

export const inducedGcs: Rule = {
  id: 'induced-gcs',
  name: 'Induced GCs',
  source: 'M4 (Maoni Stephens, .NET Memory Performance Analysis; PerfView Heap Analyzer)',
  goal: 'latency',
  settings: [
    {
      name: 'infoPauseShare',
      default: 0.01,
      unit: 'ratio',
      description: "induced GCs' share of all pause time for an info finding (any induced GC is at least info)",
    },
    { name: 'warnPauseShare', default: 0.1, unit: 'ratio', description: 'share of all pause time for a warning' },
    { name: 'warnFullBlockingMSec', default: 100, unit: 'ms', description: 'one induced full blocking GC pausing this long is a warning by itself' },
  ],
  evaluate({ columns: c, rows, s, facts }) {
    // A heap snapshot GCScope took while recording induced its own gen2 GC: not the app's call.
    const ours = new Set(facts.snapshotGcNumbers ?? []);
    const oursInView = rows.filter((i) => ours.has(c.number[i]!) && isInduced(c, i));
    const induced = rows.filter((i) => isInduced(c, i) && !ours.has(c.number[i]!));
    const oursNote =
      oursInView.length === 0
        ? ''
        : `; ${formatInt(oursInView.length)} more ${oursInView.length === 1 ? 'was' : 'were'} GCScope's own heap snapshot${oursInView.length === 1 ? '' : 's'} (GC #${oursInView.map((i) => formatInt(c.number[i]!)).join(', #')}), not counted`;
    let total = 0;
    let inducedPause = 0;
    for (const i of rows) total += c.pause[i]!;
    for (const i of induced) inducedPause += c.pause[i]!;
    const share = total > 0 ? inducedPause / total : 0;
    let score = mapExp100Two(share, s.infoPauseShare!, s.warnPauseShare!);
    if (induced.length > 0) score = Math.max(score, 25);
    const longFull = induced.filter((i) => isFullBlocking(c, i) && c.pause[i]! >= s.warnFullBlockingMSec!);
    if (longFull.length > 0) score = Math.max(score, 75);
    const reason = `${formatInt(induced.length)} induced GCs, ${formatPercent(100 * share)} of the pause time (info from 1 GC, warning at ${formatPercent(100 * s.warnPauseShare!, 0)}); ${formatInt(longFull.length)} induced full blocking GCs ≥ ${formatMs(s.warnFullBlockingMSec!)}${oursNote}`;
    if (induced.length === 0) return judged(0, reason);
    // The Induced tile and column count as PerfView's GCStats does (reasons Induced and
    // InducedNotForced only); this rule also counts GC.Collect's other forms. Say so when the two differ.
    const beyondTile = induced.filter((i) => !isInducedReason(c.reason[i]!));
    const beyondNames = [...new Set(beyondTile.map((i) => gcReasonName(c.reason[i]!)))].join(', ');
    const tileNote =
      beyondTile.length === 0
        ? ''
        : `${formatInt(beyondTile.length)} of them (${beyondNames}) ${beyondTile.length === 1 ? 'is' : 'are'} not in the Induced tile, which counts as PerfView's GCStats does: reasons Induced and InducedNotForced only. `;
    // InducedNotForced is GC.Collect with GCCollectionMode.Optimized: the caller already lets the
    // GC decide, so advising that form (as for a forced GC.Collect) told them to do what they do.
    const optimized = induced.every((i) => c.reason[i] === INDUCED_NOT_FORCED);
    const notBlocking = induced.every((i) => c.type[i] === GC_TYPE.Background || c.generation[i] !== 2);
    const change = optimized
      ? `Remove the call if it is not needed: these already use GC.Collect's optimized form (InducedNotForced: GCCollectionMode.Optimized, so the GC decides${notBlocking ? ', and they do not block for a full collection' : ''}), and the GC still chose to collect each time. `
      : 'Remove the call, or use GC.Collect(2, GCCollectionMode.Optimized, blocking: false) so the GC decides. ';
    const gens = new Set(induced.map((i) => c.generation[i]!));
    const genWord = gens.size === 1 ? `gen${[...gens][0]} ` : '';
    return judged(score, reason, {
      // A count beside a different Induced tile reads as a mistake: the title names the GCs the
      // tile leaves out, and the explanation says why first (the card shows its first lines).
      title: `${formatInt(induced.length)} induced ${genWord}GC${induced.length === 1 ? '' : 's'}${beyondTile.length === 0 ? '' : ` (${formatInt(beyondTile.length)} ${beyondNames})`}: ${formatPercent(100 * share, 0)} of all pause time`,
      evidence: evidenceOf(c, induced),
      explanation:
        tileNote +
        (oursInView.length === 0
          ? ''
          : `${formatInt(oursInView.length)} other induced GC${oursInView.length === 1 ? '' : 's'} in view ${oursInView.length === 1 ? 'was' : 'were'} GCScope's own heap snapshot${oursInView.length === 1 ? '' : 's'} and ${oursInView.length === 1 ? 'is' : 'are'} not counted here. `) +
        `Something asked for ${induced.length === 1 ? 'this GC' : 'these GCs'} (GC.Collect, GC.AddMemoryPressure, or a tool taking a heap snapshot) instead of the GC deciding when to collect. ` +
        `They paused the process ${formatMs(inducedPause)} in all; an induced gen2 GC is usually a full blocking one, the most expensive kind.`,
      advice:
        'Find the caller: record the GCTriggered event with stacks (GC keyword plus the Stack keyword) or search the code for GC.Collect. ' +
        change +
        "If a heap-snapshot tool (gcdump, dotnet-monitor) caused them, they are not the app's fault.",
    });
  },
};
