/**
 * M1 — suspension is too long (docs/diagnosis.md M1; MEM "Debugging a random long GC"). Suspending
 * the threads normally costs well under a millisecond; tens or hundreds of ms is a definitive sign
 * that threads are slow to reach a safe point (a thread in a tight loop, or native code that does
 * not switch to preemptive mode). Also a sign: most of the pause is suspension, consistently.
 *
 * One suspension of 10–100 ms alone is what a busy machine does (issue 39: the thread that has to
 * reach a safe point lost the CPU, and a healthy service failed a CI gate): a warning needs it to
 * recur (warnMinCount GCs suspending warnMSec or more), to be long enough alone (warnAloneMSec),
 * or most of the pause in enough GCs (dominated); otherwise it is information.
 *
 * A foreground GC (an ephemeral GC during a background GC) also waits for the background GC's own
 * thread: it marks in cooperative mode and lets a suspension in only at its own safe points
 * (gc.cpp allow_fgc). When only foreground GCs suspend slowly while the other GCs — blocking GCs
 * and background GCs' starts, which suspend the same application threads — all suspend quickly,
 * no application thread is slow to stop: the background GC's thread was, which on a busy machine
 * means it was waiting for a CPU (issue 39: the loh-alloc-wait workload under load). That is
 * information, said as such, not a warning that blames the application's threads.
 */
import { formatInt, formatMs, formatPercent } from '../../shared/format.js';
import { evidenceOf, GC_TYPE, gcList, numbersOf } from '../gc-set.js';
import { judged, type Rule } from '../rule.js';
import { mapExp100Two } from '../scoring.js';
import { atLeast } from '../stats.js';

export const longSuspension: Rule = {
  id: 'long-suspension',
  name: 'Long suspension',
  source: 'M1 (Maoni Stephens, .NET Memory Performance Analysis: suspension)',
  goal: 'latency',
  settings: [
    { name: 'infoMSec', default: 1, unit: 'ms', description: 'longest suspension that makes an info finding' },
    { name: 'warnMSec', default: 10, unit: 'ms', description: 'longest suspension that makes a warning, when warnMinCount GCs suspend this long' },
    { name: 'warnMinCount', default: 2, unit: 'GCs', description: 'GCs suspending warnMSec or more needed for a warning (one alone is information)' },
    { name: 'warnAloneMSec', default: 100, unit: 'ms', description: 'one suspension this long is a warning by itself: a pause users notice' },
    { name: 'dominatedShare', default: 0.5, unit: 'ratio', description: 'suspension / pause at or above which a GC is suspension-dominated' },
    { name: 'dominatedMinPauseMSec', default: 1, unit: 'ms', description: 'pauses shorter than this never count as suspension-dominated' },
    {
      name: 'dominatedMinCount',
      default: 3,
      unit: 'GCs',
      description: 'suspension-dominated GCs needed for a warning (and at least dominatedMinFraction of all GCs)',
    },
    { name: 'dominatedMinFraction', default: 0.2, unit: 'ratio', description: 'share of GCs that must be suspension-dominated for a warning' },
    {
      name: 'othersMinCount',
      default: 3,
      unit: 'GCs',
      description:
        "GCs other than foreground GCs that must all suspend in under infoMSec for slow foreground suspensions alone to be the background GC thread's doing (information)",
    },
  ],
  evaluate({ columns: c, rows, s }) {
    if (rows.length === 0) return judged(0, 'no completed GC');
    let worst = rows[0]!;
    const slow: number[] = [];
    const dominated: number[] = [];
    for (const i of rows) {
      const susp = c.suspend[i]!;
      if (susp > c.suspend[worst]!) worst = i;
      if (susp >= s.infoMSec!) slow.push(i);
      const pause = c.pause[i]!;
      if (atLeast(pause, s.dominatedMinPauseMSec!) && atLeast(susp / pause, s.dominatedShare!)) dominated.push(i);
    }
    const maxSusp = c.suspend[worst]!;
    let score = mapExp100Two(maxSusp, s.infoMSec!, s.warnMSec!);
    let long = 0;
    for (const i of slow) if (atLeast(c.suspend[i]!, s.warnMSec!)) long++;
    // Once is the machine's doing unless it is very long: information.
    if (long < s.warnMinCount! && !atLeast(maxSusp, s.warnAloneMSec!)) score = Math.min(score, 74.9);
    const needed = Math.max(s.dominatedMinCount!, s.dominatedMinFraction! * rows.length);
    const isDominated = dominated.length >= needed;
    if (isDominated) score = Math.max(score, 75);
    // Slow only where the background GC's thread had to let the suspension in: information.
    const others = rows.filter((i) => c.type[i] !== GC_TYPE.Foreground);
    const bgcThreadOnly =
      slow.length > 0 &&
      slow.every((i) => c.type[i] === GC_TYPE.Foreground) &&
      others.length >= s.othersMinCount! &&
      others.every((i) => c.suspend[i]! < s.infoMSec!);
    if (bgcThreadOnly) {
      const othersMax = others.reduce((a, i) => Math.max(a, c.suspend[i]!), 0);
      const reason =
        `longest suspension ${formatMs(maxSusp)} (GC #${c.number[worst]}), but only in foreground GCs: ${formatInt(slow.length)} of them ≥ ${formatMs(s.infoMSec!)}, ` +
        `while the ${formatInt(others.length)} other GCs all suspended in under ${formatMs(s.infoMSec!)} (longest ${formatMs(othersMax)}): information`;
      return judged(Math.min(score, 74.9), reason, {
        title: `Foreground GCs waited up to ${formatMs(maxSusp)} for the background GC's thread to let them suspend (GC #${c.number[worst]}); the other ${formatInt(others.length)} GCs suspended in under ${formatMs(s.infoMSec!)}`,
        evidence: evidenceOf(c, slow),
        explanation:
          `${gcList(numbersOf(c, slow))} ran during a background GC and took up to ${formatMs(maxSusp)} to suspend, while every other GC — which stops the same application threads — took at most ${formatMs(othersMax)}. ` +
          "A foreground GC also waits for the background GC's own thread, which marks in cooperative mode and lets a suspension in only at its own safe points: that thread was late, not an application thread. " +
          'On a machine whose cores are busy with other work it is waiting for a CPU.',
        advice:
          'Nothing to fix in the application for this. If it recurs on a machine that is not overloaded, record CPU samples around a slow foreground GC to see what the background GC thread was doing; fewer background GCs (see the gen2 findings) also mean fewer foreground GCs that wait for one.',
      });
    }
    const reason = `longest suspension ${formatMs(maxSusp)} (GC #${c.number[worst]}; info at ${formatMs(s.infoMSec!)}, warning at ${formatMs(s.warnMSec!)} in ${s.warnMinCount}+ GCs or ${formatMs(s.warnAloneMSec!)} once); ${formatInt(long)} GCs suspended ≥ ${formatMs(s.warnMSec!)}; ${formatInt(dominated.length)} of ${formatInt(rows.length)} GCs suspension-dominated (warning at ${Math.ceil(needed)})`;
    // The GCs the title counts: the suspension-dominated ones when that is what it says (the
    // evidence once listed the 13 slow ones under a title of 12 dominated ones).
    const ev = isDominated ? dominated : slow.length > 0 ? slow : [worst];
    const suspTotal = ev.reduce((a, i) => a + c.suspend[i]!, 0);
    const pauseTotal = ev.reduce((a, i) => a + c.pause[i]!, 0);
    return judged(score, reason, {
      title: isDominated
        ? `Suspension is most of the pause in ${formatInt(dominated.length)} GCs (longest ${formatMs(maxSusp)}, GC #${c.number[worst]})`
        : `Suspending threads took up to ${formatMs(maxSusp)} (GC #${c.number[worst]}); ${ev.length === 1 ? '1 GC' : `${formatInt(ev.length)} GCs`} over ${formatMs(s.infoMSec!)}`,
      evidence: evidenceOf(c, ev),
      explanation:
        `Before a GC can start, every thread running managed code must reach a safe point. That normally takes well under a millisecond; here ${gcList(numbersOf(c, ev))} spent ${formatMs(suspTotal)} suspending (${formatPercent(pauseTotal > 0 ? (100 * suspTotal) / pauseTotal : null, 0)} of their pause). ` +
        'This is not GC work: some thread was slow to stop — a long loop without a safe point, or native code called without switching to preemptive mode.',
      advice:
        'Find the thread that delays suspension: record CPU samples (and context switches if you can) around a long suspension — PerfView /StopOnGCSuspendOverMSec:200 with kernel events, or dotnet-trace with the CPU sampling profile while it happens. ' +
        'Look for P/Invokes marked SuppressGCTransition or native code that runs long on a managed thread, and tight loops in hot code. For a background GC, check which of its two suspensions is long.',
    });
  },
};
