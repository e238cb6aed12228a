/**
 * The contract's compareSessions: two stored sessions (or ranges of one) → the comparison model
 * (compare/comparison.ts), from the same in-memory columns the session view reads.
 */
import { compareSessions } from '../compare/comparison.js';
import { inputFromSession } from '../compare/inputs.js';
import { diagnose } from '../diagnosis/diagnose.js';
import type { DiagnosisFacts } from '../diagnosis/rule.js';
import type { Comparison, FindingRef } from '../shared/comparison.js';
import type { CompareTarget } from '../shared/contract.js';
import type { DiagnosisOverrides } from '../shared/finding.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import { diagnosisFacts } from '../diagnosis/facts.js';
import { ApiFailure } from './errors.js';
import type { SessionViews } from './session-views.js';

function rangeOf(t: CompareTarget): { fromMSec: number; toMSec: number } | null {
  if (t.fromMSec === null && t.toMSec === null) return null;
  const r = { fromMSec: t.fromMSec ?? Number.NEGATIVE_INFINITY, toMSec: t.toMSec ?? Number.POSITIVE_INFINITY };
  if (!(r.fromMSec < r.toMSec)) throw new ApiFailure('bad-input', 'The time range to compare ends before it starts.');
  return r;
}

/**
 * One side's findings (the diagnosis engine over the side's range), reduced to what the comparison
 * lists: which rules fired. A range with an open end is closed at the side's first or last GC.
 */
export function sideFindings(columns: GcColumns, facts: DiagnosisFacts, range: { fromMSec: number; toMSec: number } | null, overrides: DiagnosisOverrides = {}): FindingRef[] {
  let r: { fromMSec: number; toMSec: number } | undefined;
  if (range !== null) {
    const n = columns.time.length;
    const first = n > 0 ? columns.time[0]! : 0;
    const last = n > 0 ? columns.time[n - 1]! + columns.pause[n - 1]! : 0;
    r = { fromMSec: Number.isFinite(range.fromMSec) ? range.fromMSec : first, toMSec: Number.isFinite(range.toMSec) ? range.toMSec : last };
  }
  return diagnose(columns, facts, { overrides, ...(r !== undefined ? { range: r } : {}) }).findings.map((f) => ({ id: f.id, title: f.title, severity: f.severity }));
}

export async function compareStored(views: SessionViews, a: CompareTarget, b: CompareTarget, options: { includeWarmup: boolean }, overrides: DiagnosisOverrides = {}): Promise<Comparison> {
  const side = async (t: CompareTarget, label: string) => {
    const s = await views.session(t.sessionId);
    const columns = await views.viewColumns(s);
    const range = rangeOf(t);
    return { ...inputFromSession(`${label}: ${s.name}`, s, columns, range), findings: sideFindings(columns, diagnosisFacts(s), range, overrides) };
  };
  // One after the other: the column cache holds a few sessions, and both may be the same one.
  const A = await side(a, 'A');
  const B = await side(b, 'B');
  return compareSessions(A, B, { includeWarmup: options.includeWarmup });
}
