/**
 * A GC log, in the spirit of the JVM's `-Xlog:gc`: one line per GC in the order the GCs paused
 * the process, with wall-clock time. Ordering is by pause start, so a background GC comes out
 * where it started (its initial suspension) and the foreground GCs that ran inside it follow in
 * their own order; each carries the pause the analysis computed (TraceEvent's
 * PauseDurationMSec: for a background GC, its blocking parts only), and a background GC also
 * shows its whole concurrent span and how many foreground GCs ran within it. Pure: the CLI
 * prints it, tests compare it with `report --format json`.
 */
import { gcReasonName } from '../shared/gc-enums.js';
import { lowerBound, upperBound } from '../shared/sorted.js';
import type { GcRecord } from '../shared/gc-record.js';
import { GCType } from './trace-gc.js';

export interface GcLogEntry {
  /** ISO 8601 wall-clock time of the pause start; null when the trace has no start time. */
  time: string | null;
  /** Pause start, ms since the trace's start. */
  relativeMSec: number;
  number: number;
  generation: number;
  kind: 'blocking' | 'background' | 'foreground';
  reason: string;
  /** From GlobalHeapHistory; null when the trace lacks it. */
  compacting: boolean | null;
  suspendMSec: number;
  pauseMSec: number;
  /** Background GCs: GCStart → GCEnd, the whole concurrent span. */
  spanMSec: number | null;
  /** Background GCs: foreground GCs that started within its span. */
  foregroundGCs: number | null;
  heapBeforeMB: number | null;
  heapAfterMB: number | null;
  /** Per generation gen0, gen1, gen2, LOH, POH: [before, after] MB (null = not in the trace). */
  generations: [number | null, number | null][];
  complete: boolean;
}

const KINDS = { [GCType.NonConcurrent]: 'blocking', [GCType.Background]: 'background', [GCType.Foreground]: 'foreground' } as const;

/**
 * `hasPoh`: false for a runtime without a pinned object heap (.NET Framework, .NET Core before 5):
 * its POH entry is [null, null] and the text leaves it out (it printed "POH 0.00->0.00").
 */
export function gcLogEntries(gcs: readonly GcRecord[], traceStartUtc: string | null, hasPoh = true): GcLogEntry[] {
  const start = traceStartUtc === null ? Number.NaN : Date.parse(traceStartUtc);
  // The sort keys are read once per GC and the GCs sorted by position: `gcs` may build each
  // record as it is read (a stored session's rows), and a copy of them all to sort held a
  // 39,000-GC session's whole log in records (~200 MB of heap).
  const n = gcs.length;
  const pause = new Float64Array(n);
  const num = new Float64Array(n);
  // Foreground GC start times, sorted: each background GC counts those in its span by binary
  // search (a filter per background GC would be quadratic on long sessions).
  const fg: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = gcs[i]!;
    pause[i] = g.pauseStartRelativeMSec;
    num[i] = g.number;
    if (g.type === GCType.Foreground) fg.push(g.startRelativeMSec);
  }
  // Array.prototype.sort is stable: ties keep the GCs' order, as sorting the records did.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => pause[a]! - pause[b]! || num[a]! - num[b]!);
  const fgStarts = Float64Array.from(fg).sort();
  return order.map((i) => {
    const g = gcs[i]!;
    const kind = KINDS[g.type as GCType] ?? 'blocking';
    const spanEnd = g.durationMSec === null ? null : g.startRelativeMSec + g.durationMSec;
    const foreground = kind !== 'background' || spanEnd === null ? null : upperBound(fgStarts, spanEnd) - lowerBound(fgStarts, g.startRelativeMSec);
    return {
      time: Number.isNaN(start) ? null : new Date(start + g.pauseStartRelativeMSec).toISOString(),
      relativeMSec: g.pauseStartRelativeMSec,
      number: g.number,
      generation: g.generation,
      kind,
      reason: gcReasonName(g.reason),
      // A background GC sweeps by construction (it cannot move objects while the program runs);
      // traces often lack its GlobalHeapHistory mechanisms, but the answer is known.
      compacting: g.compacted ?? (kind === 'background' ? false : null),
      suspendMSec: g.suspendDurationMSec,
      pauseMSec: g.pauseDurationMSec,
      spanMSec: kind === 'background' ? g.durationMSec : null,
      foregroundGCs: foreground,
      heapBeforeMB: g.heapSizeBeforeMB,
      heapAfterMB: g.heapSizeAfterMB,
      generations: g.genSizeBeforeMB.map((b, i) => (i === POH && !hasPoh ? [null, null] : [b, g.genSizeAfterMB[i] ?? null])),
      complete: g.isComplete,
    };
  });
}

const GEN_NAMES = ['gen0', 'gen1', 'gen2', 'LOH', 'POH'];
const POH = 4;
const mb = (v: number | null): string => (v === null ? '?' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const ms = (v: number): string => `${v.toFixed(3)}ms`;

/** One line: `2026-11-22T00:43:03.472Z GC#12 gen2 background AllocSmall non-compacting suspend 0.01ms pause 1.2ms span 30.1ms (2 foreground) heap 60.1->41.2MB [gen0 …]`. */
export function formatGcLogLine(e: GcLogEntry): string {
  const when = e.time ?? `+${e.relativeMSec.toFixed(3)}ms`;
  const parts = [
    when,
    `GC#${e.number}`,
    `gen${e.generation}`,
    e.kind,
    e.reason,
    e.compacting === null ? 'compaction?' : e.compacting ? 'compacting' : 'sweeping',
    `suspend ${ms(e.suspendMSec)}`,
    `pause ${ms(e.pauseMSec)}`,
  ];
  if (e.kind === 'background') parts.push(e.spanMSec === null ? 'span ?' : `span ${ms(e.spanMSec)} (${e.foregroundGCs ?? 0} foreground)`);
  parts.push(`heap ${mb(e.heapBeforeMB)}->${mb(e.heapAfterMB)}MB`);
  parts.push(`[${e.generations.flatMap(([b, a], i) => (b === null && a === null && i === POH ? [] : [`${GEN_NAMES[i]} ${mb(b)}->${mb(a)}`])).join(' ')}]`);
  if (!e.complete) parts.push('INCOMPLETE (the trace ended or lost events before this GC finished)');
  return parts.join(' ');
}
