/**
 * The contract's compareSessions: two stored sessions (or ranges of one) → the comparison model
 * (compare/comparison.ts), from the same in-memory columns the session view reads.
 */
import { compareSessions } from '../compare/comparison.js';
import { inputFromSession } from '../compare/inputs.js';
import type { Comparison } from '../shared/comparison.js';
import type { CompareTarget } from '../shared/contract.js';
import { ApiFailure } from './errors.js';
import type { SessionViews } from './session-views.js';

function rangeOf(t: CompareTarget): { fromMSec: number; toMSec: number } | null {
  if (t.fromMSec === null && t.toMSec === null) return null;
  const r = { fromMSec: t.fromMSec ?? Number.NEGATIVE_INFINITY, toMSec: t.toMSec ?? Number.POSITIVE_INFINITY };
  if (!(r.fromMSec < r.toMSec)) throw new ApiFailure('bad-input', 'The time range to compare ends before it starts.');
  return r;
}

export async function compareStored(views: SessionViews, a: CompareTarget, b: CompareTarget, options: { includeWarmup: boolean }): Promise<Comparison> {
  const side = async (t: CompareTarget, label: string) => {
    const s = await views.session(t.sessionId);
    return inputFromSession(`${label}: ${s.name}`, s, await views.viewColumns(s), rangeOf(t));
  };
  // One after the other: the column cache holds a few sessions, and both may be the same one.
  const A = await side(a, 'A');
  const B = await side(b, 'B');
  return compareSessions(A, B, { includeWarmup: options.includeWarmup });
}
