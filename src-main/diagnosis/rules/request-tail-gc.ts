/**
 * GC pauses in the slowest requests (issue 42; Maoni Stephens, .NET Memory Performance Analysis:
 * "for the requests near your P95/P99 latency, what % of their time is in GC pauses? 10 % means
 * 90 % is something else"). The share of the slowest 1 % of requests' latency spent in GC pauses
 * that overlapped them (suspension included; a background GC's concurrent phase is not a pause).
 * An info finding from `infoShare`, a warning at `warnShare`, with those requests and the GCs that
 * paused them as evidence. Below, the explain trace says plainly that the tail is not the GC's
 * doing — also over a window with requests and no GC at all (it runs without GCs in view: a 0 %
 * share is an answer). Needs request spans (record with --requests); without them the rule does
 * not apply.
 */
import { formatInt, formatMs, formatPercent } from '../../shared/format.js';
import { requestsReport } from '../../requests/report.js';
import { gcList } from '../gc-set.js';
import { judged, notApplicable, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';

export const requestTailGc: Rule = {
  id: 'request-tail-gc',
  name: 'GC pauses in the slowest requests',
  source: 'Maoni Stephens, .NET Memory Performance Analysis ("what % of the P95/P99 requests\' time is in GC pauses"); issue 42',
  goal: 'latency',
  // Requests in a window with no GC in it: the answer is plain (GC share 0 %), not "no GC to judge".
  runsWithoutGcs: true,
  settings: [
    { name: 'infoShare', default: 0.2, unit: 'ratio', description: "GC pauses' share of the slowest 1 % of requests' latency for an info finding" },
    { name: 'warnShare', default: 0.5, unit: 'ratio', description: 'the same share for a warning: the GC is most of why the tail is slow' },
    { name: 'minRequests', default: 50, unit: 'requests', description: 'fewer requests in view than this: too few to speak of a tail' },
  ],
  evaluate({ facts, s, fromMSec, toMSec }) {
    const req = facts.requests;
    if (req === undefined || req.spans.length === 0)
      return notApplicable('no request spans in this trace (record with --requests to see which requests the GC delayed)');
    // top 0: the rule reads the summary and the slowest 1 %, not every request sorted.
    const r = requestsReport(req.spans, req.pauses, { range: { fromMSec, toMSec: toMSec + 1e-9 }, top: 0 });
    const n = r.summary.count;
    if (n < s.minRequests!) return notApplicable(`${formatInt(n)} requests in view: too few to judge the slowest 1 % (needs ${formatInt(s.minRequests!)})`);
    const tail = r.slowest1Percent;
    const t = r.summary.slowest1Percent;
    const share = t.share ?? 0;
    const all = r.summary.all.share ?? 0;
    const p99 = r.summary.latency.p99;
    const p99Without = r.summary.latencyWithoutGc.p99;
    const score = mapExp100Two(share, s.infoShare!, s.warnShare!);
    // No GC paused anything in view: said as such, not only as a 0 % share.
    const noGc = r.gcs.length === 0 ? `no GC paused the process while these ${formatInt(n)} requests ran; ` : '';
    const reason =
      noGc +
      `GC pauses are ${formatPercent(100 * share)} of the latency of the slowest 1 % of ${formatInt(n)} requests (${formatInt(t.count)}; info at ${formatPercent(100 * s.infoShare!, 0)}, warning at ${formatPercent(100 * s.warnShare!, 0)}), ${formatPercent(100 * all)} of all requests' latency` +
      (share < s.infoShare! ? `: the tail is not the GC's doing — ${formatPercent(100 * (1 - share), 0)} of the slowest requests' time is something else` : '');
    if (score < 25) return judged(score, reason);
    const gcs = [...new Set(tail.flatMap((q) => q.gcNumbers))].sort((a, b) => a - b);
    const start = Math.min(...tail.map((q) => q.startMSec));
    const end = Math.max(...tail.map((q) => q.startMSec + q.durationMSec));
    const worst = r.gcs.filter((g) => gcs.includes(g.gcNumber)).sort((a, b) => b.pauseMSec - a.pauseMSec)[0];
    return judged(score, reason, {
      title: `GC pauses are ${formatPercent(100 * share, 0)} of the slowest 1 % of requests' latency (p99 ${formatMs(p99)}, ${formatMs(p99Without)} without GC)`,
      evidence: {
        gcs,
        startMSec: start,
        endMSec: end,
        requests: tail
          .slice(0, 20)
          .map((q) => ({ startMSec: q.startMSec, durationMSec: q.durationMSec, gcPauseMSec: q.gcPauseMSec, name: q.name, gcs: q.gcNumbers })),
      },
      explanation:
        `The ${formatInt(t.count)} slowest of ${formatInt(n)} requests spent ${formatMs(t.gcPauseMSec)} of their ${formatMs(t.latencyMSec)} stopped by GC ${gcList(gcs)}` +
        (worst !== undefined
          ? `; the longest, GC #${worst.gcNumber}${worst.generation >= 0 ? ` (gen${worst.generation})` : ''}, paused ${formatMs(worst.pauseMSec)} and stopped ${formatInt(worst.requests)} requests in flight`
          : '') +
        `. Without the GC's pauses the p99 latency would be ${formatMs(p99Without)} instead of ${formatMs(p99)}.`,
      advice:
        'Shorten the pauses that land in requests: look at the GCs listed (gen2 blocking GCs are the longest — concurrent GC, `<ConcurrentGarbageCollection>true`, keeps most gen2 work out of the pause; Server GC spreads the work over cores) and at what survives into gen1/gen2 (`gcscope allocs`). `gcscope requests` lists each slow request with the GC time inside it.',
    });
  },
};
