/**
 * M7 — high share of time paused in GC, over the worst sliding window (docs/diagnosis.md M7
 * J1: JMC's GcPauseRatio — 60 s windows sliding by 30 s, info at 5 %, warning at 10 %; Maoni: a
 * well-behaved app stays under 5 % while serving load). The explanation says whether many pauses
 * or long ones make it up.
 */
import { formatInt, formatMB, formatMs, formatPercent } from '../../shared/format.js';
import { evidenceOf } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { worstPauseWindow, type PauseInterval } from '../sliding-window.js';

export const highPauseTime: Rule = {
  id: 'high-pause-time',
  name: 'High % of time paused',
  source: 'M7 (Maoni Stephens; JMC GcPauseRatio rule)',
  goal: 'throughput',
  settings: [
    { name: 'windowSec', default: 60, unit: 's', description: 'sliding window length (it slides by half of it); a shorter recording is judged over its span' },
    {
      name: 'minWindowSec',
      default: 1,
      unit: 's',
      description: 'a recording shorter than this is judged over this long (pauses per second), not over its own few milliseconds',
    },
    { name: 'infoPercent', default: 5, unit: '%', description: 'pause share of the worst window for an info finding' },
    { name: 'warnPercent', default: 10, unit: '%', description: 'pause share of the worst window for a warning' },
  ],
  evaluate({ columns: c, rows, s, fromMSec, toMSec, facts, wholeRecording }) {
    const pauses: PauseInterval[] = rows.map((i) => ({ startMSec: c.time[i]!, durationMSec: c.pause[i]! })).sort((a, b) => a.startMSec - b.startMSec);
    if (pauses.length === 0) return judged(0, 'no completed GC');
    // The whole recording ends, for this share, where TraceEvent's does (the last HeapStats): a
    // recording shorter than the window is then judged over exactly the span of the session's
    // "Time paused" tile and `report`, and says the same number (it said 23.3 % beside the tile's
    // 23.59 %, over the time to the trace's last event).
    const lastHs = facts.lastHeapStatsMSec;
    const traceEventEnd = wholeRecording && lastHs !== undefined && lastHs !== null && lastHs > pauses[0]!.startMSec;
    const spanEnd = traceEventEnd ? lastHs : toMSec;
    // A selected range is judged from its own start, as the tiles' "Time paused" over the range
    // is (the same range said 44.73 % from its first GC beside the tile's 43.24 %).
    const spanStart = wholeRecording ? pauses[0]!.startMSec : Math.min(fromMSec, pauses[0]!.startMSec);
    const minWindow = Math.min(s.minWindowSec!, s.windowSec!) * 1000;
    const w = worstPauseWindow(pauses, s.windowSec! * 1000, spanEnd, minWindow, spanStart);
    if (w === undefined) return judged(0, 'no completed GC');
    const pct = 100 * w.ratio;
    const score = mapExp100Two(pct, s.infoPercent!, s.warnPercent!);
    const inWin = rows.filter((i) => c.time[i]! < w.endMSec && c.time[i]! + c.pause[i]! > w.startMSec);
    const winMSec = w.endMSec - w.startMSec;
    const winSec = winMSec / 1000;
    // What the % is over, said in the title (the evidence gives the window's times): the whole
    // span from the first GC, or the worst of the sliding windows.
    const recorded = Math.max(spanEnd, pauses[pauses.length - 1]!.startMSec + pauses[pauses.length - 1]!.durationMSec) - spanStart;
    const whole = w.startMSec === spanStart && recorded <= s.windowSec! * 1000 && recorded >= minWindow;
    // Shorter than the minimum window: judged over that minimum (pauses per second), said as such.
    const padded = recorded < minWindow;
    const over = padded
      ? ` (judged over ${formatMs(winMSec)}: its GCs span only ${formatMs(recorded)})`
      : !whole
        ? ` (worst ${formatMs(winMSec)} window)`
        : traceEventEnd
          ? ` from its first GC to its last (${formatMs(winMSec)})`
          : wholeRecording
            ? ` from its first GC to the end of the recording (${formatMs(winMSec)})`
            : ` over the selected range (${formatMs(winMSec)})`;
    const where = `${padded ? `minimum window ${formatMs(winMSec)}` : !whole ? `worst ${formatMs(winMSec)} window` : traceEventEnd ? `first GC to the last HeapStats, as TraceEvent's GCStats, ${formatMs(winMSec)}` : wholeRecording ? `first GC to the end, ${formatMs(winMSec)}` : `the selected range, ${formatMs(winMSec)}`}, ${formatMs(w.startMSec)} – ${formatMs(w.endMSec)}`;
    const reason = `${where}: paused ${formatPercent(pct, 2)} (info at ${s.infoPercent} %, warning at ${s.warnPercent} %)`;
    const n = inWin.length;
    const mean = n > 0 ? w.pauseMSec / n : 0;
    const ratePerSec = n / Math.max(winSec, 1e-9);
    const manyPauses = mean < 10;
    // Long pauses are the survivors' cost only if enough survives: marking and copying run at
    // roughly a megabyte or more per millisecond, so at 10 ms per MB promoted or worse the time
    // went elsewhere (suspension, threads starved of CPU, pinning). The 478-GC .NET Core 3.0 trace:
    // ~20 ms pauses promoting ~0.12 MB each were blamed on survival beside a finding that they
    // take 3× what GCs promoting as much take.
    let promotedMB = 0;
    for (const i of inWin) if (Number.isFinite(c.promoted[i]!)) promotedMB += c.promoted[i]!;
    const survivalExplains = w.pauseMSec <= 10 * promotedMB;
    return judged(score, reason, {
      title: `GC paused the process ${formatPercent(pct, 2)} of the time${over}`,
      evidence: { ...evidenceOf(c, inWin), startMSec: w.startMSec, endMSec: w.endMSec },
      explanation:
        `In that window ${formatInt(n)} GCs (${ratePerSec.toFixed(1)} per second) paused the process ${formatMs(w.pauseMSec)}, ${formatMs(mean)} each on average: ` +
        (manyPauses
          ? 'the cost is the number of GCs, driven by how much the program allocates.'
          : survivalExplains
            ? 'the pauses themselves are long, driven by how much survives each GC.'
            : `the pauses themselves are long, and not for what survives: ${formatMB(promotedMB / Math.max(n, 1))} promoted per GC on average explains a small part of ${formatMs(mean)}.`) +
        ' A process serving load should stay under 5 %; the time paused is time no request makes progress.',
      advice: manyPauses
        ? 'Allocate less: record gc-verbose to see allocations by type and remove the biggest sources (buffers, strings, LINQ, boxing, collections resized as they grow — give them a capacity). Server GC or DATAS gives a larger gen0 budget and fewer GCs.'
        : survivalExplains
          ? 'Make fewer objects survive: see promotion-spike and growing-live-set; objects referenced from gen2 keep young objects alive. Background GC (System.GC.Concurrent) keeps gen2 work off the pause.'
          : 'Find what else the pauses wait on: suspension (see long-suspension), the GC threads starved of CPU by other threads or processes (record CPU samples machine-wide around a long GC: PerfView /StopOnGCOverMSec with kernel events), pinning.',
    });
  },
};
