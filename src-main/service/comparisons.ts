/**
 * The contract's compareSessions: two stored sessions (or ranges of one) → the comparison model
 * (compare/comparison.ts), from the same in-memory columns the session view reads, computed in
 * the analysis worker (analysis-runner.ts).
 */
import { inputFromSession } from '../compare/inputs.js';
import type { Comparison, FindingRef } from '../shared/comparison.js';
import type { CompareTarget } from '../shared/contract.js';
import type { DiagnosisOverrides, Finding } from '../shared/finding.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { ApiFailure } from './errors.js';
import { clampRange, clampSpan, sessionSpan } from './session-span.js';
import type { SessionViews } from './session-views.js';

function rangeOf(t: CompareTarget): { fromMSec: number; toMSec: number } | null {
  if (t.fromMSec === null && t.toMSec === null) return null;
  const r = { fromMSec: t.fromMSec ?? Number.NEGATIVE_INFINITY, toMSec: t.toMSec ?? Number.POSITIVE_INFINITY };
  if (!(r.fromMSec < r.toMSec)) throw new ApiFailure('bad-input', 'The time range to compare ends before it starts.');
  return r;
}

/**
 * A compared range closed for the diagnosis (its windows need finite ends): an open end becomes
 * the side's first GC or the end of its last pause. Null for the whole recording.
 */
export function closeRange(
  columns: Pick<GcColumns, 'time' | 'pause'>,
  range: { fromMSec: number; toMSec: number } | null,
): { fromMSec: number; toMSec: number } | null {
  if (range === null) return null;
  const n = columns.time.length;
  const first = n > 0 ? columns.time[0]! : 0;
  const last = n > 0 ? columns.time[n - 1]! + columns.pause[n - 1]! : 0;
  return { fromMSec: Number.isFinite(range.fromMSec) ? range.fromMSec : first, toMSec: Number.isFinite(range.toMSec) ? range.toMSec : last };
}

/** What the comparison lists of a finding: which rule fired, in its words. */
export function findingRefs(findings: readonly Finding[]): FindingRef[] {
  return findings.map((f) => ({ id: f.id, title: f.title, severity: f.severity }));
}

export async function compareStored(
  views: SessionViews,
  a: CompareTarget,
  b: CompareTarget,
  options: { includeWarmup: boolean },
  overrides: DiagnosisOverrides = {},
): Promise<Comparison> {
  const side = async (t: CompareTarget, label: string) => {
    const s = await views.session(t.sessionId);
    const columns = await views.viewColumns(s);
    // A given end is clamped to the session (issue 40: -1e308 spun the diagnosis); an open one stays open.
    const asked = rangeOf(t);
    const span = clampSpan(sessionSpan(s, columns), s.status === 'recording');
    const inside = (v: number): number => (Number.isFinite(v) ? clampRange(span, v, v).fromMSec : v);
    const range = asked === null ? null : { fromMSec: inside(asked.fromMSec), toMSec: inside(asked.toMSec) };
    // The side's findings are the Findings panel's for the same range (getFindings).
    const closed = closeRange(columns, range);
    const d = await views.getFindings(s.id, closed?.fromMSec ?? null, closed?.toMSec ?? null, overrides);
    return { ...inputFromSession(`${label}: ${s.name}`, s, columns, range), findings: findingRefs(d.findings) };
  };
  // One after the other: the column cache holds a few sessions, and both may be the same one.
  const A = await side(a, 'A');
  const B = await side(b, 'B');
  // The resampling takes seconds for 100,000 GCs a side: in the analysis worker.
  return views.analyses.compare(A, B, { includeWarmup: options.includeWarmup });
}
