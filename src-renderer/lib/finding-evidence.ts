/**
 * A finding card's evidence line: its GCs and its time window, on the GC table's clock (seconds
 * since the trace started, the table's "Start s" and the lanes' x axis) with the table's
 * precision — a single-GC finding's start reads exactly as that GC's Start cell. The diagnosis
 * gives times in ms since the trace's sync time (what `gcscope diagnose` prints "into the trace"),
 * the same origin (t0 = 0: session-view.svelte.ts).
 * Pure.
 */
import { formatCount, formatFixed } from '../../src-main/shared/format.js';
import { isGcEntryFrame } from '../../src-main/shared/allocations.js';
import type { Finding } from '../../src-main/shared/finding.js';
import { TABLE_COLUMN_DEFS } from '../../src-main/shared/gc-column-registry.js';

/** The GC table's Start column decimals (the registry's). */
const START_DIGITS = TABLE_COLUMN_DEFS.find((c) => c.format === 'seconds')?.digits ?? 3;

/** A time (ms since the trace's sync time) as the GC table's Start column shows it, with its unit: "26.834 s". */
export function sessionSeconds(ms: number, t0: number): string {
  return `${formatFixed((ms - t0) / 1000, START_DIGITS)} s`;
}

export function findingEvidenceText(f: Pick<Finding, 'evidence'>, t0: number): string {
  const parts: string[] = [];
  const n = f.evidence.gcs.length;
  if (n > 0) parts.push(n <= 4 ? `GC ${f.evidence.gcs.map((g) => `#${g}`).join(', ')}` : formatCount(n, 'GC'));
  const { startMSec: from, endMSec: to } = f.evidence;
  if (from !== null && to !== null) parts.push(`${sessionSeconds(from, t0)} – ${sessionSeconds(to, t0)}`);
  return parts.join(' · ');
}

/**
 * What a finding card names for each of its stacks (innermost frame first): the first frame
 * outside System.GC (the caller of GC.Collect, the allocating method). Two stacks with that frame
 * in common are told apart by the first frame further out where they differ ("Program.Bgc() ←
 * Program.Run(…)"): the induced-GCs card listed "Caller Program.Bgc() (14 of 16)" and "Caller
 * Program.Bgc() (2 of 16)", which read as one caller twice.
 */
export function stackLabels(stacks: readonly (readonly string[])[]): string[] {
  const at = stacks.map((frames) =>
    Math.max(
      0,
      frames.findIndex((x) => !isGcEntryFrame(x)),
    ),
  );
  const label = stacks.map((frames, k) => frames[at[k]!] ?? '');
  return stacks.map((frames, k) => {
    const twins = stacks.map((_, j) => j).filter((j) => j !== k && label[j] === label[k]);
    if (twins.length === 0) return label[k]!;
    // Walk outwards from the shared frame until this stack differs from every twin.
    for (let d = 1; at[k]! + d < frames.length; d++) {
      const mine = frames[at[k]! + d]!;
      if (twins.every((j) => stacks[j]![at[j]! + d] !== mine)) return `${label[k]} ← ${mine}`;
    }
    return label[k]!;
  });
}
