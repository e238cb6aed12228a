/**
 * `gcscope compare --fail-if COND`: conditions a CI job gates on. A condition names a metric id
 * (the comparison's `id`: p99-pause-gen0, gcs-per-gb, peak-heap…), a direction and a threshold:
 *   "p99-pause-gen0 > +10%"    fails when B is significantly higher (the verdict says so) and
 *                              the estimated change is more than +10 %
 *   "alloc-rate < -20%"        fails when B is significantly lower by more than 20 %
 *   "p50-pause-gen0 > +0.5ms"  a shift in the metric's unit (ms for pauses, MB for heap)
 * A change that is not significant never fails, however large its point estimate: the gate is
 * about regressions the data shows, not about noise. A metric the data cannot test at all (too
 * few GCs or time windows on a side, e.g. a p99 with under 1,000 GCs, or an empty session) leaves the
 * condition undecided, which is not a pass: a broken recording must not turn a gate green.
 */
import type { Comparison, ComparisonMetric } from '../shared/comparison.js';

export interface FailCondition {
  text: string;
  metric: string;
  op: '>' | '<';
  value: number;
  unit: '%' | 'abs';
}

export class FailIfError extends Error {}

const PATTERN = /^\s*([a-z0-9][a-z0-9-]*)\s*([<>])\s*([+-]?\d+(?:\.\d+)?)\s*(%|ms|mb|x|×)?\s*$/i;

export function parseFailIf(text: string, known: readonly string[]): FailCondition {
  const m = PATTERN.exec(text);
  if (m === null)
    throw new FailIfError(`cannot read --fail-if "${text}": write METRIC > +N% (or < -N%, or a shift such as > +0.5ms), e.g. "p99-pause-gen0 > +10%"`);
  const metric = m[1]!.toLowerCase();
  if (!known.includes(metric)) throw new FailIfError(`--fail-if "${text}": no metric "${metric}"; the metrics are ${known.join(', ')}`);
  const unit = (m[4] ?? '%').toLowerCase();
  let value = Number(m[3]);
  // "> 2x" means a ratio of 2, i.e. +100 %.
  if (unit === 'x' || unit === '×') value = (value - 1) * 100;
  return { text: text.trim(), metric, op: m[2] as '>' | '<', value, unit: unit === 'ms' || unit === 'mb' ? 'abs' : '%' };
}

/** The change a condition reads: percent of A, or B − A in the metric's unit (the shift where there is one). */
function changeOf(m: ComparisonMetric, unit: FailCondition['unit']): number | null {
  if (unit === '%') return m.changePercent;
  if (m.interval?.kind === 'shift') return m.interval.estimate;
  return m.a !== null && m.b !== null ? m.b - m.a : null;
}

export interface FailResult {
  condition: FailCondition;
  failed: boolean;
  /** The metric could not be tested on this data (verdict insufficient or not tested). */
  undecided: boolean;
  /** Why it failed or did not. */
  reason: string;
}

export function evaluateFailIf(c: Comparison, cond: FailCondition): FailResult {
  const m = c.metrics.find((x) => x.id === cond.metric)!;
  const change = changeOf(m, cond.unit);
  const wanted = cond.op === '>' ? 'higher' : 'lower';
  const beyond = change !== null && (cond.op === '>' ? change > cond.value : change < cond.value);
  const failed = m.verdict === wanted && beyond;
  const undecided = m.verdict === 'insufficient' || m.verdict === 'not-tested';
  if (undecided) return { condition: cond, failed: false, undecided, reason: `cannot be decided on this data: ${m.text}` };
  const reason = failed
    ? `${m.text}`
    : m.verdict === wanted
      ? `${m.text}, within the limit`
      : m.verdict === 'small'
        ? `below the practical threshold: ${m.text}`
        : `not a significant ${wanted === 'higher' ? 'increase' : 'decrease'}: ${m.text}`;
  return { condition: cond, failed, undecided, reason };
}
