/**
 * Verdicts: a change is reported only when it is both statistically clear and practically large
 * (BenchmarkDotNet's threshold tests; insights §5.2.4): "higher"/"lower" when significant (an
 * adjusted p below α, or an interval excluding no change) and at least the threshold; "same"
 * when the whole interval lies within ± the threshold; otherwise "inconclusive". Then the plain
 * words for each.
 */
import type { ComparisonMetric, ComparisonUnit, VerdictKind } from '../shared/comparison.js';
import { formatFixed, formatMB, formatMs, formatPercent, formatRate } from '../shared/format.js';

export interface Threshold {
  /** Share of A (0.05). */
  relative: number;
  /** Smallest absolute change that counts, in the metric's unit (0.1 ms for pauses, else 0). */
  absolute: number;
}

/** A value with its unit, for reading. */
export function formatValue(v: number | null, unit: ComparisonUnit): string {
  if (v === null || !Number.isFinite(v)) return 'n/a';
  switch (unit) {
    case 'ms':
      return formatMs(v);
    case 'MB':
      return formatMB(v);
    case 'MB/s':
      return formatRate(v);
    case '%':
      return formatPercent(v, 2);
    case '/GB':
      return `${formatFixed(v, v >= 100 ? 0 : 1)} /GB`;
  }
}

/** The smallest change that counts, around a: max(relative·|a|, absolute). */
function margin(a: number, t: Threshold): number {
  return Math.max(t.relative * Math.abs(a), t.absolute);
}

/**
 * The verdict of a ratio B/A with its interval: significant when the interval excludes 1 (or,
 * with a p-value, when the adjusted p is below α).
 */
export function decideRatio(a: number, b: number, ci: [number, number] | null, t: Threshold, significant: boolean | null): VerdictKind {
  if (ci === null) return 'inconclusive';
  const sig = significant ?? (ci[0] > 1 || ci[1] < 1);
  const m = margin(a, t);
  if (sig && Math.abs(b - a) >= m) return b > a ? 'higher' : 'lower';
  // Same: the interval's extremes, as changes from a, all within the margin.
  if (Math.abs((ci[0] - 1) * a) <= m && Math.abs((ci[1] - 1) * a) <= m) return 'same';
  return 'inconclusive';
}

/** The verdict of a shift B − A with its interval (in the metric's unit). */
export function decideShift(a: number, shift: number, ci: [number, number] | null, t: Threshold, significant: boolean): VerdictKind {
  const m = margin(a, t);
  if (significant && Math.abs(shift) >= m) return shift > 0 ? 'higher' : 'lower';
  if (ci !== null && Math.abs(ci[0]) <= m && Math.abs(ci[1]) <= m) return 'same';
  return 'inconclusive';
}

function pct(r: number): string {
  const v = (r - 1) * 100;
  return `${v >= 0 ? '+' : '−'}${formatFixed(Math.abs(v), Math.abs(v) >= 10 ? 0 : 1)} %`;
}

function times(r: number): string {
  return `${formatFixed(r, r >= 10 ? 0 : r >= 2 ? 1 : 2)}×`;
}

/** The change as read in a table: "2.1×", "+12 %", "+0.80 ms". */
export function describeChange(m: Pick<ComparisonMetric, 'interval' | 'unit' | 'a' | 'b'>): string {
  const iv = m.interval;
  if (iv === null) return m.a !== null && m.b !== null && m.a !== 0 ? pct(m.b / m.a) : '';
  if (iv.kind === 'shift') return `${iv.estimate >= 0 ? '+' : '−'}${formatValue(Math.abs(iv.estimate), m.unit)}`;
  return iv.estimate >= 1.5 ? times(iv.estimate) : pct(iv.estimate);
}

/**
 * The interval as read in a table: "1.8–2.5×", "+5 % to +20 %", "+0.60 to +1.00 ms". A
 * zero-width interval (both ends equal as shown — tied values, e.g. the same heap size after
 * every GC) is its one value: "+2.00 ms", not "+2.00 ms to +2.00 ms".
 */
export function describeInterval(m: Pick<ComparisonMetric, 'interval' | 'unit'>): string {
  const iv = m.interval;
  if (iv === null || iv.ci === null) return '';
  const [lo, hi] = iv.ci;
  if (iv.kind === 'shift') {
    const s = (v: number): string => `${v >= 0 ? '+' : '−'}${formatValue(Math.abs(v), m.unit)}`;
    return s(lo) === s(hi) ? s(lo) : `${s(lo)} to ${s(hi)}`;
  }
  if (!Number.isFinite(hi)) return `${pct(lo)} or more`;
  if (lo >= 1.5) return times(lo) === times(hi) ? times(lo) : `${formatFixed(lo, lo >= 10 ? 0 : 1)}–${times(hi)}`;
  return pct(lo) === pct(hi) ? pct(lo) : `${pct(lo)} to ${pct(hi)}`;
}

/** The plain verdict sentence. */
export function verdictText(m: Pick<ComparisonMetric, 'label' | 'interval' | 'unit' | 'a' | 'b' | 'verdict'>, t: Threshold, levelPercent: number, insufficientWhy?: string): string {
  const within = t.absolute > 0 ? `±${formatFixed(t.relative * 100, 0)} % or ${formatValue(t.absolute, m.unit)}` : `±${formatFixed(t.relative * 100, 0)} %`;
  const ci = `${levelPercent} % CI ${describeInterval(m)}`;
  switch (m.verdict) {
    case 'insufficient':
      return `insufficient data${insufficientWhy !== undefined ? `: ${insufficientWhy}` : ''}`;
    case 'not-tested':
      return `${m.label}: ${formatValue(m.a, m.unit)} in A, ${formatValue(m.b, m.unit)} in B (one GC each: not tested)`;
    case 'same':
      return `no detectable change (${ci}, within ${within})`;
    case 'inconclusive':
      return m.interval?.ci != null ? `no detectable change (${ci}; a change of ${within} cannot be ruled out)` : 'no detectable change';
    case 'higher':
    case 'lower': {
      const iv = m.interval!;
      if (iv.kind === 'shift') {
        const word = m.verdict === 'higher' ? (m.unit === 'ms' ? 'longer' : 'higher') : m.unit === 'ms' ? 'shorter' : 'lower';
        return `${m.label} ${formatValue(Math.abs(iv.estimate), m.unit)} ${word} in B (${ci})`;
      }
      const r = iv.estimate;
      // A headline in × gets its interval in × too ("2.2× higher (95 % CI 1.29–3.71×)").
      const c = iv.ci;
      const two = (v: number): string => formatFixed(v, v >= 10 ? 0 : 2);
      if (m.verdict === 'higher') {
        if (r < 1.5) return `${m.label} ${formatFixed((r - 1) * 100, 0)} % higher in B (${ci})`;
        return `${m.label} ${times(r)} higher in B (${levelPercent} % CI ${c === null ? '' : Number.isFinite(c[1]) ? `${two(c[0])}–${two(c[1])}×` : `${two(c[0])}× or more`})`;
      }
      if (r > 0.5) return `${m.label} ${formatFixed((1 - r) * 100, 0)} % lower in B (${ci})`;
      return `${m.label} ${times(1 / r)} lower in B (${levelPercent} % CI ${c === null || c[0] <= 0 ? describeInterval(m) : `${two(1 / c[1])}–${two(1 / c[0])}× lower`})`;
    }
  }
}

/** Whether a verdict is a regression ('worse'), an improvement ('better'), a change neither way ('change') or none (null). */
export function direction(m: Pick<ComparisonMetric, 'verdict' | 'higherIsWorse'>): 'worse' | 'better' | 'change' | null {
  if (m.verdict !== 'higher' && m.verdict !== 'lower') return null;
  if (m.higherIsWorse === null) return 'change';
  return m.higherIsWorse === (m.verdict === 'higher') ? 'worse' : 'better';
}
