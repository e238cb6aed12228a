/**
 * Findings carry who caused them (issue 14), when the source has call stacks and AllocationTick
 * samples: induced-gcs names the top calling stacks of its GCs' GC/Triggered events (the callers
 * of GC.Collect), loh-triggered-gen2 the large types and the stacks allocating them, and
 * growing-live-set the types allocated most — labelled a hint, since what is allocated is not
 * what stays alive. Rules stay as they are (diagnosis/ judges numbers); this adds evidence.
 */
import { typeListText, type WhoCausedIt } from '../shared/allocations.js';
import type { Finding, PinnedTypeCount } from '../shared/finding.js';
import { formatCount, formatInt, formatMB } from '../shared/format.js';

const TOP = 3;

function mb(bytes: number): string {
  return formatMB(bytes / 1e6);
}

/** Bytes in B, KB or MB. */
function size(bytes: number): string {
  return bytes >= 1e6 ? mb(bytes) : bytes >= 1000 ? `${formatInt(Math.round(bytes / 1000))} KB` : `${formatInt(bytes)} B`;
}

/**
 * pinning-fragmentation's "who is pinned" (issue 39): the types PinObjectAtGCTime named in its
 * GCs, each with the most objects of it pinned in one GC and in how many of the GCs it was pinned.
 */
export function pinnedEvidence(gcs: readonly number[], pinned: ReadonlyMap<number, readonly PinnedTypeCount[]>): NonNullable<Finding['evidence']['pinned']> {
  const by = new Map<string, { typeName: string; maxObjects: number; bytes: number; gcs: number }>();
  for (const n of gcs) {
    for (const t of pinned.get(n) ?? []) {
      const e = by.get(t.typeName);
      if (e === undefined) by.set(t.typeName, { typeName: t.typeName, maxObjects: t.objects, bytes: t.bytes, gcs: 1 });
      else {
        e.gcs++;
        if (t.objects > e.maxObjects) {
          e.maxObjects = t.objects;
          e.bytes = t.bytes;
        }
      }
    }
  }
  return [...by.values()].sort((a, b) => b.maxObjects - a.maxObjects || b.gcs - a.gcs).slice(0, 5);
}

/** "System.Byte[] (up to 1,057 objects, 144 KB, in 36 of 36 GCs)". */
export function pinnedText(p: NonNullable<Finding['evidence']['pinned']>, ofGcs: number): string {
  return p
    .map(
      (t) =>
        `${t.typeName || '(no type name)'} (up to ${formatCount(t.maxObjects, 'object')} in one GC, ${size(t.bytes)}; in ${formatInt(t.gcs)} of ${formatInt(ofGcs)} GCs)`,
    )
    .join(', ');
}

/** The findings with stack and type evidence added where the rule's question is "who?". */
export function withStackEvidence(
  findings: readonly Finding[],
  who: WhoCausedIt | undefined,
  pinned?: ReadonlyMap<number, readonly PinnedTypeCount[]>,
): Finding[] {
  if (who === undefined && pinned === undefined) return [...findings];
  return findings.map((f) => {
    if (f.id === 'pinning-fragmentation' && pinned !== undefined) {
      const p = pinnedEvidence(f.evidence.gcs, pinned);
      if (p.length === 0) return f;
      return {
        ...f,
        evidence: { ...f.evidence, pinned: p },
        explanation: `${f.explanation} Pinned here (PinObjectAtGCTime): ${pinnedText(p, f.evidence.gcs.length)}.`,
        advice: f.advice.replace(
          'Record with the GCHandle keyword to see who pins.',
          'The trace names the pinned types above but not the code that pins them (PinObjectAtGCTime carries no stack): record with the GCHandle keyword (0x2) and call stacks, and `gcscope allocs FILE` lists the stacks that create the pinning handles.',
        ),
      };
    }
    if (who === undefined) return f;
    switch (f.id) {
      case 'induced-gcs': {
        // By caller of GC.Collect (the trigger's first frame outside System.GC), each shown with its most
        // frequent whole stack: the JIT inlining a frame at tier-up made "Program.Bgc() (14 of
        // 16)" and "Program.Bgc() (2 of 16)" two callers.
        const gcs = new Set(f.evidence.gcs);
        const by = new Map<string, { n: number; stacks: Map<string, { frames: string[]; n: number }> }>();
        let total = 0;
        for (const t of who.triggers) {
          if (!gcs.has(t.gcNumber) || t.frames.length === 0) continue;
          total++;
          const caller = t.caller ?? t.frames[0]!;
          let g = by.get(caller);
          if (g === undefined) by.set(caller, (g = { n: 0, stacks: new Map() }));
          g.n++;
          const key = t.frames.join('\n');
          const e = g.stacks.get(key);
          if (e === undefined) g.stacks.set(key, { frames: t.frames, n: 1 });
          else e.n++;
        }
        if (total === 0) return f;
        const stacks = [...by.values()]
          .sort((a, b) => b.n - a.n)
          .slice(0, TOP)
          .map((g) => ({ frames: [...g.stacks.values()].sort((a, b) => b.n - a.n)[0]!.frames, weight: `${g.n} of ${total} induced GCs` }));
        return { ...f, evidence: { ...f.evidence, stacks } };
      }
      case 'loh-triggered-gen2': {
        const types = who.allocations.byType.filter((t) => t.kind === 'large').slice(0, TOP);
        const large = types.reduce((s, t) => s + t.sampledBytes, 0);
        const stacks = who.largeObjectStacks
          .slice(0, TOP)
          .map((s) => ({ frames: s.frames, weight: `${mb(s.sampledBytes)} of large objects (${formatCount(s.ticks, 'sample')})` }));
        if (types.length === 0 && stacks.length === 0) return f;
        return {
          ...f,
          evidence: {
            ...f.evidence,
            types: types.map(({ typeName, kind, sampledBytes }) => ({ typeName, kind, sampledBytes, share: large > 0 ? sampledBytes / large : 0 })),
            stacks,
          },
        };
      }
      case 'growing-live-set': {
        const types = who.allocations.byType.slice(0, 5);
        if (types.length === 0) return f;
        return {
          ...f,
          evidence: {
            ...f.evidence,
            types: types.map(({ typeName, kind, sampledBytes, share }) => ({ typeName, kind, sampledBytes, share })),
            hint: 'A hint, not proof: these are the types allocated most (AllocationTick samples); what stays alive is not measured by a trace (a heap snapshot shows it).',
          },
        };
      }
      default:
        return f;
    }
  });
}

/** Text lines for a finding's stack and type evidence (gcscope diagnose / report text). */
export function stackEvidenceLines(f: Finding, indent: string): string[] {
  const out: string[] = [];
  const e = f.evidence;
  if (e.types !== undefined && e.types.length > 0) {
    out.push(`${indent}types${e.hint !== undefined ? ' (hint)' : ''}: ${typeListText(e.types, mb)}`);
  }
  for (const s of e.stacks ?? []) {
    out.push(`${indent}stack (${s.weight}):`);
    for (const fr of s.frames.slice(0, 8)) out.push(`${indent}  ${fr}`);
  }
  if (e.hint !== undefined) out.push(`${indent}${e.hint}`);
  if (e.pinned !== undefined && e.pinned.length > 0) out.push(`${indent}pinned: ${pinnedText(e.pinned, e.gcs.length)}`);
  return out;
}
