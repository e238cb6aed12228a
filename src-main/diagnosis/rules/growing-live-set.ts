/**
 * M9 — managed memory leak: the live set keeps growing after warm-up (docs/diagnosis.md M9
 * J6: JMC's IncreasingLiveSet and GCViewer's slope after full GC). The warm-up (warm-up.ts) is
 * found on every GC's live data (gc-set.ts liveDataSeries: LOH and POH as the last gen2 GC
 * measured them — after an ephemeral GC their size includes dead large objects). Over the gen2
 * GCs after the warm-up, the least-squares slope of the live old data (gen2 + LOH + POH minus
 * free space) against time, relative to its first post-warm-up value, per minute. A short
 * recording can show a fast relative rate for a small absolute change, so the fitted growth must
 * also be a real share of the live set (minGrowthPercent).
 *
 * A live set still climbing when the recording ends (warm-up.ts `climbing`: no steady state, the
 * last quarter above the second half) has no warm-up to leave out: a start-up fill levels off, a
 * leak does not (issue 39: an 8 s recording of a leak climbing 1 → 650 MB was taken whole for
 * warm-up, leaving too few gen2 GCs to judge). Then, when no gen2 GC reclaimed what the one before
 * it left (within 5 %: each reclaiming nothing is the leak's other half), every gen2 GC is judged; and when even those
 * are fewer than minGen2GCs (a short recording on a busy machine runs few of them) but at least
 * two, each left more live data than the one before (none reclaimed what the others promoted),
 * the trend is fitted over every GC's live data from the first gen2 GC on (ephemeral GCs report
 * gen2's size too: gc-set.ts liveDataSeries), which then needs minGen2GCs points.
 */
import { formatInt, formatMB, formatPercent } from '../../shared/format.js';
import { evidenceOf, liveDataSeries, oldLiveMB } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast, leastSquares } from '../stats.js';
import { describeWarmUp, warmUpOfGcs } from '../warm-up.js';

/** A gen2 GC that leaves less than this share below the previous one's live data reclaimed nothing to speak of. */
const RECLAIM_TOLERANCE = 0.05;

export const growingLiveSet: Rule = {
  id: 'growing-live-set',
  name: 'Growing live set (leak)',
  source: 'M9 (Maoni Stephens: managed memory leak; JMC IncreasingLiveSet; GCViewer slope after full GC)',
  goal: 'footprint',
  settings: [
    {
      name: 'infoPercentPerMin',
      default: 1,
      unit: '%/min',
      description: 'growth of the live set per minute, relative to its first post-warm-up value, for an info finding',
    },
    { name: 'warnPercentPerMin', default: 5, unit: '%/min', description: 'growth per minute for a warning' },
    { name: 'minR2', default: 0.5, unit: 'R²', description: 'how well a straight line must fit the growth' },
    { name: 'minGen2GCs', default: 5, unit: 'GCs', description: 'gen2 GCs after warm-up needed to judge a trend' },
    {
      name: 'minGrowthPercent',
      default: 10,
      unit: '%',
      description:
        'growth over the judged span, as a share of the first value, needed for any finding: both the fitted line and the last gen2 GC against the first (a sawtooth is not a leak)',
    },
    {
      name: 'warmUpFraction',
      default: 0.9,
      unit: 'ratio',
      description: "warm-up ends when the live set first reaches this share of its median over the recording's second half",
    },
  ],
  evaluate({ columns: c, rows, s }) {
    // Warm-up from every GC's live data (gen0/gen1 GCs report gen2 sizes too: finer resolution;
    // LOH and POH as the last gen2 GC left them, since only gen2 GCs collect them).
    const wu = warmUpOfGcs(c, rows, s.warmUpFraction!);
    const gen2From = (from: number): number[] => rows.filter((i, k) => k >= from && c.generation[i] === 2 && Number.isFinite(oldLiveMB(c, i)));
    // Still climbing, and no gen2 GC reclaimed what the one before it left (within 5 %): the
    // leak's signature. A climb with a gen2 GC that freed much of it (a recording that ends in
    // the middle of a phase that fills and drops) is judged after its warm-up as usual.
    let gen2 = gen2From(0);
    const climbing = wu.climbing && gen2.every((i, k) => k === 0 || oldLiveMB(c, i) >= (1 - RECLAIM_TOLERANCE) * oldLiveMB(c, gen2[k - 1]!));
    if (!climbing) gen2 = gen2From(wu.endIndex);
    const warm = climbing
      ? 'no steady state: the live set is still climbing at the end and no gen2 GC reclaimed it, so no warm-up is left out'
      : describeWarmUp(wu);
    let x = gen2.map((i) => c.time[i]! / 60000);
    let y = gen2.map((i) => oldLiveMB(c, i));
    let points = `${formatInt(gen2.length)} gen2 GCs`;
    if (gen2.length < s.minGen2GCs! && climbing && gen2.length >= 2 && y.every((v, k) => k === 0 || v > y[k - 1]!)) {
      // Few gen2 GCs, none reclaiming what came before: every GC's live data from the first gen2 GC on.
      const all = rows.slice(rows.indexOf(gen2[0]!));
      const live = liveDataSeries(c, all);
      const keep = all.map((_, k) => k).filter((k) => Number.isFinite(live[k]!));
      if (keep.length >= s.minGen2GCs!) {
        x = keep.map((k) => c.time[all[k]!]! / 60000);
        y = keep.map((k) => live[k]!);
        points = `${formatInt(gen2.length)} gen2 GCs, none reclaiming what the one before left, and ${formatInt(keep.length - gen2.length)} GCs between them`;
      }
    }
    if (x.length < s.minGen2GCs!) return judged(0, `${warm}; ${formatInt(gen2.length)} gen2 GCs after it (need ${s.minGen2GCs} to judge a trend)`);
    const fit = leastSquares(x, y);
    const first = y[0]!;
    const rel = first > 0 ? (100 * fit.slope) / first : 0;
    const spanMin = x[x.length - 1]! - x[0]!;
    const growthPct = first > 0 ? (100 * fit.slope * spanMin) / first : 0;
    let score = mapExp100Two(rel, s.infoPercentPerMin!, s.warnPercentPerMin!);
    const gates: string[] = [];
    if (!atLeast(fit.r2, s.minR2!)) gates.push(`R² ${fit.r2.toFixed(2)} < ${s.minR2}`);
    if (!atLeast(growthPct, s.minGrowthPercent!)) gates.push(`grew ${formatPercent(growthPct, 0)} < ${s.minGrowthPercent} %`);
    // The line must not be the only growth: a sawtooth (a cache filled and dropped) fits a rising
    // line between its drops, and read "keeps growing: 769 MB → 769 MB". The last gen2 GC's live
    // data must be above the first's by the same share.
    const last = y[y.length - 1]!;
    const observedPct = first > 0 ? (100 * (last - first)) / first : 0;
    if (growthPct >= s.minGrowthPercent! && !atLeast(observedPct, s.minGrowthPercent!))
      gates.push(`the last gen2 GC's live data is ${formatPercent(observedPct, 0)} above the first's, < ${s.minGrowthPercent} %`);
    if (gates.length > 0) score = 0;
    const reason = `${warm}; ${points}: live set ${formatMB(first)} → ${formatMB(y[y.length - 1]!)}, slope ${formatPercent(rel)}/min (info at ${s.infoPercentPerMin} %/min, warning at ${s.warnPercentPerMin} %/min), R² ${fit.r2.toFixed(2)}${gates.length > 0 ? `; not a trend: ${gates.join(', ')}` : ''}`;
    if (score === 0) return judged(0, reason);
    return judged(score, reason, {
      title: `Live data keeps growing: ${formatMB(first)} → ${formatMB(y[y.length - 1]!)} over ${formatInt(gen2.length)} gen2 GCs (${formatPercent(rel, rel >= 100 ? 0 : 1)} per minute${climbing ? ', never levelling off' : ' after warm-up'})`,
      evidence: evidenceOf(c, gen2),
      explanation:
        'What survives gen2 GCs is what the program still references. After warm-up it should level off; here it grows steadily (R² ' +
        `${fit.r2.toFixed(2)})${climbing ? ' and is still climbing when the recording ends' : ''}, so something keeps adding references — a static collection, a cache without eviction, event handlers never removed. Unless it stops, the heap grows until memory runs out, and every gen2 GC gets slower.`,
      advice:
        'Take two heap snapshots some time apart (dotnet-gcdump collect, or PerfView "Take Heap Snapshot") and diff them: the types whose counts grow, and their paths to roots, show who holds on. Give caches a size limit or expiry.',
    });
  },
};
