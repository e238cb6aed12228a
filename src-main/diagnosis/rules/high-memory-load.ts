/**
 * M14 — high memory load (docs/diagnosis.md M14; MEM "high memory load"). Above the high-memory
 * threshold (90 % of physical memory, or of the container's / hard limit's) the GC becomes
 * aggressive: more full compacting GCs. Info when the load comes within 5 points of it; a warning
 * when it is at or above it for several GCs and full blocking GCs were condemned for memory load.
 */
import { formatInt, formatPercent } from '../../shared/format.js';
import { anyFinite, evidenceOf, isFullBlocking } from '../gc-set.js';
import { judged, notMeasured, type Rule } from '../rule.js';

/** CondemnReasons1 bits high_mem (2) and very_high_mem (3) (gc.h gc_condemn_reason_condition). */
const HIGH_MEM_CONDEMN = (1 << 2) | (1 << 3);
/** Reasons LowMemory (2) and LowMemoryHost (11), LowMemoryHostBlocking (13). */
const LOW_MEMORY_REASONS = new Set([2, 11, 13]);

export const highMemoryLoad: Rule = {
  id: 'high-memory-load',
  name: 'High memory load',
  source: 'M14 (Maoni Stephens, .NET Memory Performance Analysis: high memory load)',
  goal: 'footprint',
  settings: [
    { name: 'highMemPercent', default: 90, unit: '%', description: "the GC's high memory load threshold (GCHighMemPercent; 90 % below 80 GiB)" },
    { name: 'infoMargin', default: 5, unit: 'points', description: 'an info finding when the load comes this close to the threshold' },
    { name: 'minGCs', default: 3, unit: 'GCs', description: 'GCs at or above the threshold needed for a warning' },
  ],
  evaluate({ columns: c, rows, s }) {
    if (!anyFinite(c.memoryLoad, rows)) return notMeasured('the memory load from GCGlobalHeapHistory events (version 2 or later: .NET Core 3.0+)');
    let max = Number.NEGATIVE_INFINITY;
    let maxAt = rows[0]!;
    const near: number[] = [];
    const over: number[] = [];
    for (const i of rows) {
      const m = c.memoryLoad[i]!;
      if (!Number.isFinite(m)) continue;
      if (m > max) {
        max = m;
        maxAt = i;
      }
      if (m >= s.highMemPercent! - s.infoMargin!) near.push(i);
      if (m >= s.highMemPercent!) over.push(i);
    }
    const memFull = rows.filter((i) => isFullBlocking(c, i) && ((c.condemnReasons1[i]! & HIGH_MEM_CONDEMN) !== 0 || LOW_MEMORY_REASONS.has(c.reason[i]!)));
    const warn = over.length >= s.minGCs! && memFull.length > 0;
    const score = warn ? 80 : near.length > 0 ? 50 : 0;
    const reason = `highest memory load ${formatPercent(max, 0)} (threshold ${s.highMemPercent} %); ${formatInt(over.length)} GCs at or above it, ${formatInt(memFull.length)} full blocking GCs condemned for memory load`;
    if (score === 0) return judged(0, reason);
    return judged(score, reason, {
      title: `Memory load reached ${formatPercent(max, 0)} (GC #${formatInt(c.number[maxAt]!)}); the GC's high-memory threshold is ${s.highMemPercent} %`,
      evidence: evidenceOf(c, warn ? [...new Set([...over, ...memFull])].sort((a, b) => a - b) : near),
      explanation:
        "Memory load is the share of the machine's (or the container's, or the hard limit's) memory in use. Near the high-memory threshold the GC turns aggressive: it compacts more and does more full blocking GCs to stay within memory, which costs pause time." +
        (memFull.length > 0 ? ` Here ${formatInt(memFull.length)} full blocking GCs were condemned because of memory load.` : ''),
      advice:
        'Give the process more memory (container limit), or make it use less: see the other footprint findings. GCHeapHardLimit / GCHeapHardLimitPercent bound the heap; GCHighMemPercent changes the threshold (lower for a big process that should react sooner, higher for a small one).',
    });
  },
};
