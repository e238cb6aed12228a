/**
 * M2 — random long GC pauses (docs/diagnosis.md M2; MEM "Debugging a random long GC"). A GC's work
 * is roughly what it promotes, so among GCs of the same kind with similar promoted bytes the GC
 * part of the pause (pause − suspension) should be similar. One that takes far longer could not
 * run: its threads lost the CPU. Expected time E = median of (pause − suspension) of the other
 * GCs of the same generation and type whose promoted MB is within ±tolerance of this one's.
 *
 * Only GCs after the warm-up are judged, and only they are peers (docs/diagnosis.md, "Warm-up": findings
 * default to the steady state). At startup the runtime JITs, loads types and fills caches beside
 * the GC, and the first GCs that promote the app's long-lived data have no peers that do the same
 * work: a slow startup GC is not a sign that the machine took the CPU away.
 *
 * How sure (the ratio to the peers) is not how much it matters (issue 39: one 12 ms gen0 GC on a
 * busy machine scored 100 and failed a CI gate on a healthy service). The score is the lower of
 * the two: how far over its peers the slowest GC is (infoRatio/warnRatio), and what the outliers
 * cost — the longest of them against a pause users notice (infoPauseMSec/warnPauseMSec), or,
 * when there are at least warnMinCount of them, the share of all pause time their excess took
 * (infoExcessShare/warnExcessShare). One short outlier is worth saying (info), not a warning.
 */
import { formatMB, formatMs, formatPercent } from '../../shared/format.js';
import { evidenceOf, gcList, numbersOf } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast, lowerBound, median } from '../stats.js';
import { describeWarmUp, warmUpOfGcs } from '../warm-up.js';

/**
 * Peers taken for the median when there are more (evenly spaced by promoted MB): an estimate of
 * the expected time that keeps a 100 000-GC session's diagnosis in milliseconds.
 */
const MAX_PEERS = 63;

export const randomLongPause: Rule = {
  id: 'random-long-pause',
  name: 'Random long GC pause',
  source: 'M2 (Maoni Stephens, .NET Memory Performance Analysis: a random long GC)',
  goal: 'latency',
  settings: [
    { name: 'infoRatio', default: 2, unit: '×', description: 'GC work time / expected time that makes an info finding' },
    { name: 'warnRatio', default: 4, unit: '×', description: 'GC work time / expected time that makes a warning' },
    { name: 'minExcessMSec', default: 10, unit: 'ms', description: 'a GC counts only when it took at least this much longer than expected' },
    { name: 'promotedTolerance', default: 0.25, unit: 'ratio', description: "peers promote within ± this share of the GC's promoted MB" },
    { name: 'minPeers', default: 3, unit: 'GCs', description: 'peers needed to estimate the expected time' },
    { name: 'infoPauseMSec', default: 10, unit: 'ms', description: 'the longest outlier pause that makes an info finding (when the share below does not)' },
    { name: 'warnPauseMSec', default: 100, unit: 'ms', description: 'the longest outlier pause that makes a warning: a pause users notice' },
    {
      name: 'infoExcessShare',
      default: 0.1,
      unit: 'ratio',
      description: "the outliers' time beyond their peers', as a share of all pause time in view, for an info finding (with at least warnMinCount outliers)",
    },
    { name: 'warnExcessShare', default: 0.5, unit: 'ratio', description: 'that share for a warning (with at least warnMinCount outliers)' },
    { name: 'warnMinCount', default: 3, unit: 'GCs', description: 'outliers needed before their share of the pause time counts' },
    {
      name: 'warmUpFraction',
      default: 0.9,
      unit: 'ratio',
      description: "GCs before the warm-up ends (the live set first reaches this share of its median over the recording's second half) are not judged",
    },
  ],
  evaluate({ columns: c, rows: inView, s, facts }) {
    // The steady GCs: from the end of the warm-up (all of them when no end is found — sizes unknown).
    const wu = warmUpOfGcs(c, inView, s.warmUpFraction!);
    const rows = wu.endMSec === null ? inView : inView.slice(wu.endIndex);
    const warm = wu.endMSec === null ? 'no warm-up end found: every GC judged' : `${describeWarmUp(wu)}: ${inView.length - rows.length} warm-up GCs not judged`;
    // Strata: generation × type, each sorted by promoted MB.
    const strata = new Map<number, number[]>();
    for (const i of rows) {
      if (!Number.isFinite(c.promoted[i]!)) continue;
      const k = c.generation[i]! * 4 + c.type[i]!;
      let a = strata.get(k);
      if (a === undefined) strata.set(k, (a = []));
      a.push(i);
    }
    const work = (i: number): number => c.pause[i]! - c.suspend[i]!;
    let best: { i: number; ratio: number; expected: number } | undefined;
    const flagged: { i: number; ratio: number; expected: number }[] = [];
    let judgedCount = 0;
    for (const members of strata.values()) {
      const sampled = new Map<number, number>();
      members.sort((a, b) => c.promoted[a]! - c.promoted[b]!);
      const prom = members.map((i) => c.promoted[i]!);
      for (let m = 0; m < members.length; m++) {
        const i = members[m]!;
        // Only a GC that could exceed its expectation by minExcessMSec is worth the median.
        if (!atLeast(work(i), s.minExcessMSec!)) continue;
        const p = prom[m]!;
        const lo = lowerBound(prom, p * (1 - s.promotedTolerance!));
        const hi = lowerBound(prom, p * (1 + s.promotedTolerance!) + Number.EPSILON * Math.max(1, p));
        const count = hi - lo - 1;
        if (count < s.minPeers!) continue;
        let expected: number;
        if (hi - lo <= MAX_PEERS) {
          const peers: number[] = [];
          for (let k = lo; k < hi; k++) if (k !== m) peers.push(work(members[k]!));
          expected = Math.max(median(peers), 0.001);
        } else {
          // A sampled window: GCs with the same window share its estimate.
          const key = lo * 1e7 + hi;
          let e = sampled.get(key);
          if (e === undefined) {
            const step = Math.ceil((hi - lo) / MAX_PEERS);
            const peers: number[] = [];
            for (let k = lo; k < hi; k += step) peers.push(work(members[k]!));
            sampled.set(key, (e = Math.max(median(peers), 0.001)));
          }
          expected = e;
        }
        judgedCount++;
        const ratio = work(i) / expected;
        const excess = work(i) - expected;
        if (!atLeast(excess, s.minExcessMSec!)) continue;
        const f = { i, ratio, expected };
        if (ratio >= s.infoRatio!) flagged.push(f);
        if (best === undefined || ratio > best.ratio) best = f;
      }
    }
    if (best === undefined)
      return judged(0, `${warm}; no GC took ${formatMs(s.minExcessMSec!)} longer than its peers (${judgedCount} GCs long enough to judge)`);
    const ev = flagged.length > 0 ? flagged.map((f) => f.i).sort((a, b) => a - b) : [best.i];
    const i = best.i;
    // What the outliers cost: the longest pause among them, and their time beyond the peers' as a
    // share of all pause time in view (the pause budget).
    const outliers = flagged.length > 0 ? flagged : [best];
    let excessMSec = 0;
    for (const f of outliers) excessMSec += work(f.i) - f.expected;
    let allPauseMSec = 0;
    for (const k of inView) if (Number.isFinite(c.pause[k]!)) allPauseMSec += c.pause[k]!;
    const excessShare = allPauseMSec > 0 ? excessMSec / allPauseMSec : 0;
    let longestPause = 0;
    for (const f of outliers) longestPause = Math.max(longestPause, c.pause[f.i]!);
    const sure = mapExp100Two(best.ratio, s.infoRatio!, s.warnRatio!);
    const byPause = mapExp100Two(longestPause, s.infoPauseMSec!, s.warnPauseMSec!);
    const byShare = outliers.length >= s.warnMinCount! ? mapExp100Two(excessShare, s.infoExcessShare!, s.warnExcessShare!) : 0;
    const score = Math.min(sure, Math.max(byPause, byShare));
    const cost = `${outliers.length} outlier${outliers.length === 1 ? '' : 's'}, longest ${formatMs(longestPause)} (info at ${formatMs(s.infoPauseMSec!)}, warning at ${formatMs(s.warnPauseMSec!)}), ${formatMs(excessMSec)} beyond their peers' time: ${formatPercent(100 * excessShare, 0)} of all pause time (with ${s.warnMinCount}+ outliers: info at ${formatPercent(100 * s.infoExcessShare!, 0)}, warning at ${formatPercent(100 * s.warnExcessShare!, 0)})`;
    // With several GCs flagged, the one furthest over its peers need not be the longest pause: a
    // title naming only "GC #138 paused 34.0 ms, 205×" read as the worst pause where the evidence
    // held a 691 ms one. The longest is named too.
    let longest = ev[0]!;
    for (const k of ev) if (c.pause[k]! > c.pause[longest]!) longest = k;
    const head = `GC #${c.number[i]} paused ${formatMs(c.pause[i]!)}, ${best.ratio.toFixed(1)}× what GCs promoting as much (${formatMB(c.promoted[i]!)}) take`;
    const others = `${ev.length} GCs took over ${s.infoRatio}× their peers' time`;
    const title =
      ev.length === 1
        ? head
        : longest === i
          ? `${head}; ${others}`
          : `${head}; ${others}, the longest GC #${c.number[longest]} at ${formatMs(c.pause[longest]!)}`;
    return judged(
      score,
      `${warm}; GC #${c.number[i]} did ${formatMs(work(i))} of GC work where its peers took ${formatMs(best.expected)} (${best.ratio.toFixed(1)}×; info at ${s.infoRatio}×, warning at ${s.warnRatio}×); ${cost}`,
      {
        title,
        evidence: evidenceOf(c, ev),
        explanation:
          `A GC's work grows with what it promotes. Other gen${c.generation[i]} GCs that promoted about ${formatMB(c.promoted[i]!)} took ${formatMs(best.expected)} besides suspension; ${gcList(numbersOf(c, ev))} took far longer. ` +
          'A GC that takes much longer than its work explains usually could not run: its threads lost the CPU to other threads or processes. ' +
          `Together they paused the process ${formatMs(excessMSec)} longer than their work needed, ${formatPercent(100 * excessShare, 0)} of all GC pause time here` +
          (score < 75
            ? `; too little to act on unless it recurs (a warning from a ${formatMs(s.warnPauseMSec!)} pause, or ${s.warnMinCount} or more outliers costing ${formatPercent(100 * s.warnExcessShare!, 0)} of the pause time).`
            : '.'),
        advice:
          "Collect CPU samples machine-wide around such a GC (PerfView /StopOnGCOverMSec with kernel events) and look for other threads or processes running on the GC threads' cores. " +
          // Server GC's own advice only where it applies (a workstation trace was told about heaps and DATAS).
          (facts.gcMode === 'workstation'
            ? "Workstation GC collects on the thread that triggered it, at its normal priority: a busy machine (or a container's CPU limit) delays it."
            : 'Server GC threads run at high priority on their own cores: several Server GC processes on one machine interfere — give each fewer heaps (GCHeapCount, GCHeapAffinitizeMask) or use DATAS.'),
      },
    );
  },
};
