/**
 * Verdicts: a change is reported only when it is both statistically clear and practically large
 * (BenchmarkDotNet's threshold tests; insights §5.2.4): "higher"/"lower" when significant (an
 * adjusted p below α, or an interval excluding no change) and at least the threshold; "small"
 * when significant but below the threshold (a real change, too small to count: calling it "no
 * change" beside a p of 0.0001 contradicted the row's own numbers); "same" when the whole interval
 * lies within ± the threshold; otherwise "inconclusive". Then the plain words for each.
 */
import { noChangeHeadline, type ComparisonMetric, type ComparisonUnit, type OverallVerdict, type VerdictKind } from '../shared/comparison.js';
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
  if (sig) return 'small';
  // Same: the interval's extremes, as changes from a, all within the margin.
  if (Math.abs((ci[0] - 1) * a) <= m && Math.abs((ci[1] - 1) * a) <= m) return 'same';
  return 'inconclusive';
}

/** The verdict of a shift B − A with its interval (in the metric's unit). */
export function decideShift(a: number, shift: number, ci: [number, number] | null, t: Threshold, significant: boolean): VerdictKind {
  const m = margin(a, t);
  if (significant && Math.abs(shift) >= m) return shift > 0 ? 'higher' : 'lower';
  if (significant) return 'small';
  if (ci !== null && Math.abs(ci[0]) <= m && Math.abs(ci[1]) <= m) return 'same';
  return 'inconclusive';
}

/**
 * A ratio row reads in one notation everywhere — its Change cell, its interval and its sentence:
 * × for an increase of half or more ("2.2×", "1.29–2.33×", "2.2× higher in B"), a % change
 * otherwise ("−60 %", "−78 % to −32 %", "60 % lower in B"). Decreases always read in %: "2.5×
 * lower" beside a "−60 %" cell was the same number in two notations.
 */
function inTimes(r: number): boolean {
  return r >= 1.5;
}

/**
 * |B/A − 1| in %, without a sign: 0 decimals from 10 %, 1 below; a decrease that is not total
 * never rounds to "100": it takes one decimal ("99.6"), and one that would still read "100.0" is
 * floored to "99.9" — more decimals ("100.000 %") looked like precision the data never had.
 */
function pctMagnitude(r: number): string {
  const v = Math.abs((r - 1) * 100);
  const digits = v >= 10 ? 0 : 1;
  if (r > 0 && r < 1 && formatFixed(v, digits) === '100') return formatFixed(v, 1) === '100.0' ? '99.9' : formatFixed(v, 1);
  return formatFixed(v, digits);
}

function pct(r: number): string {
  const m = pctMagnitude(r);
  // A change that rounds to nothing has no direction: "0.0 %", not "−0.0 %".
  if (/^0(\.0+)?$/.test(m)) return `${m} %`;
  return `${r >= 1 ? '+' : '−'}${m} %`;
}

function times(r: number): string {
  return `${formatFixed(r, r >= 10 ? 0 : r >= 2 ? 1 : 2)}×`;
}

/** An interval end in ×: two decimals below 10. */
function timesEnd(v: number): string {
  return formatFixed(v, v >= 10 ? 0 : 2);
}

/** The change as read in a table: "2.1×", "+12 %", "−60 %", "+0.80 ms". */
export function describeChange(m: Pick<ComparisonMetric, 'interval' | 'unit' | 'a' | 'b'>): string {
  const iv = m.interval;
  if (iv === null) {
    if (m.a === null || m.b === null) return '';
    // No ratio to a zero: said in words, never "n/a×" or "+∞ %".
    if (m.a === 0) return m.b > 0 ? 'from none' : '';
    const r = m.b / m.a;
    return inTimes(r) ? times(r) : pct(r);
  }
  if (iv.kind === 'shift') return `${iv.estimate >= 0 ? '+' : '−'}${formatValue(Math.abs(iv.estimate), m.unit)}`;
  return inTimes(iv.estimate) ? times(iv.estimate) : pct(iv.estimate);
}

/**
 * The interval as read in a table, in its row's notation: "1.29–2.33×", "+5 % to +20 %",
 * "+0.60 to +1.00 ms". A zero-width interval (both ends equal as shown — tied values, e.g. the
 * same heap size after every GC) is its one value: "+2.00 ms", not "+2.00 ms to +2.00 ms".
 */
export function describeInterval(m: Pick<ComparisonMetric, 'interval' | 'unit'>): string {
  const iv = m.interval;
  if (iv === null || iv.ci === null) return '';
  const [lo, hi] = iv.ci;
  if (iv.kind === 'shift') {
    const s = (v: number): string => `${v >= 0 ? '+' : '−'}${formatValue(Math.abs(v), m.unit)}`;
    return s(lo) === s(hi) ? s(lo) : `${s(lo)} to ${s(hi)}`;
  }
  if (inTimes(iv.estimate)) {
    if (!Number.isFinite(hi)) return `${timesEnd(lo)}× or more`;
    return timesEnd(lo) === timesEnd(hi) ? `${timesEnd(lo)}×` : `${timesEnd(lo)}–${timesEnd(hi)}×`;
  }
  if (!Number.isFinite(hi)) return `${pct(lo)} or more`;
  return pct(lo) === pct(hi) ? pct(lo) : `${pct(lo)} to ${pct(hi)}`;
}

/** The plain verdict sentence, in the notation of the row's Change and CI cells. */
export function verdictText(
  m: Pick<ComparisonMetric, 'label' | 'interval' | 'unit' | 'a' | 'b' | 'verdict'> & { pAdjusted?: number | null },
  t: Threshold,
  levelPercent: number,
  insufficientWhy?: string,
): string {
  const within = t.absolute > 0 ? `±${formatFixed(t.relative * 100, 0)} % or ${formatValue(t.absolute, m.unit)}` : `±${formatFixed(t.relative * 100, 0)} %`;
  const ci = `${levelPercent} % CI ${describeInterval(m)}`;
  switch (m.verdict) {
    case 'insufficient':
      return `insufficient data${insufficientWhy !== undefined ? `: ${insufficientWhy}` : ''}`;
    case 'not-tested':
      return `${m.label}: ${formatValue(m.a, m.unit)} in A, ${formatValue(m.b, m.unit)} in B (one GC each: not tested)`;
    case 'same':
      return `no change (${ci}, within ${within})`;
    case 'small': {
      // Significant, below the threshold: which way and by how much, and why it is not reported as a change.
      const iv = m.interval;
      const below = `below the ${within} that counts`;
      if (iv === null) return `${m.label}: a small change, ${below}`;
      const up = iv.kind === 'shift' ? iv.estimate > 0 : iv.estimate > 1;
      if (iv.kind === 'shift') {
        const word = up ? (m.unit === 'ms' ? 'longer' : 'higher') : m.unit === 'ms' ? 'shorter' : 'lower';
        return `${m.label} ${formatValue(Math.abs(iv.estimate), m.unit)} ${word} in B: a small change, ${below} (${ci})`;
      }
      return `${m.label} ${pctMagnitude(iv.estimate)} % ${up ? 'higher' : 'lower'} in B: a small change, ${below} (${ci})`;
    }
    case 'inconclusive':
      return m.interval?.ci != null ? `no detectable change (${ci}; a change of ${within} cannot be ruled out)` : 'no detectable change';
    case 'higher':
    case 'lower': {
      const iv = m.interval;
      // None in A and some in B (a count tested by its exact rate test): there is no ratio to state.
      if (iv === null)
        return `${m.label} up from none in A to ${formatValue(m.b, m.unit)} in B (${m.pAdjusted != null ? `adjusted p ${formatFixed(m.pAdjusted, 4)}; ` : ''}no ratio to zero)`;
      if (iv.kind === 'shift') {
        const word = m.verdict === 'higher' ? (m.unit === 'ms' ? 'longer' : 'higher') : m.unit === 'ms' ? 'shorter' : 'lower';
        return `${m.label} ${formatValue(Math.abs(iv.estimate), m.unit)} ${word} in B (${ci})`;
      }
      const r = iv.estimate;
      // None at all in B is said as such, not as a ratio ("n/a× lower" when it was 1 / 0).
      if (r === 0) return `${m.label} down to none in B, from ${formatValue(m.a, m.unit)} in A (${ci})`;
      if (inTimes(r)) return `${m.label} ${times(r)} ${m.verdict} in B (${ci})`;
      return `${m.label} ${pctMagnitude(r)} % ${m.verdict} in B (${ci})`;
    }
  }
}

/** Whether a verdict is a regression ('worse'), an improvement ('better'), a change neither way ('change') or none (null). */
export function direction(m: Pick<ComparisonMetric, 'verdict' | 'higherIsWorse'>): 'worse' | 'better' | 'change' | null {
  if (m.verdict !== 'higher' && m.verdict !== 'lower') return null;
  if (m.higherIsWorse === null) return 'change';
  return m.higherIsWorse === (m.verdict === 'higher') ? 'worse' : 'better';
}

/**
 * One outlier must not make a change (issue 39: the two halves of one healthy run read "% time
 * paused 43 % lower" because of a single 12 ms GC). For a statistic decided by bootstrap, the
 * one value that pulls it most — the largest on the side whose statistic is larger — is left out
 * and the statistic taken again: when the change without it is below the threshold or turns
 * around, the change was that one value's, and the verdict is no detectable change. Returns the
 * sentence saying so, or null when the change holds without it.
 */
export function oneValueDrivesChange(
  m: Pick<ComparisonMetric, 'label' | 'unit' | 'a' | 'b' | 'verdict'>,
  xa: readonly number[],
  xb: readonly number[],
  stat: (x: Float64Array) => number,
  t: Threshold,
  item: string,
): string | null {
  if ((m.verdict !== 'higher' && m.verdict !== 'lower') || m.a === null || m.b === null) return null;
  const fromA = m.a > m.b;
  const side = fromA ? xa : xb;
  if (side.length < 3) return null;
  let k = 0;
  for (let i = 1; i < side.length; i++) if (side[i]! > side[k]!) k = i;
  const rest = Float64Array.from(side.filter((_, i) => i !== k));
  const a = fromA ? stat(rest) : m.a;
  const b = fromA ? m.b : stat(rest);
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0) return null;
  const holds = Math.abs(b - a) >= margin(a, t) && b > a === (m.verdict === 'higher');
  if (holds) return null;
  const r = b / a;
  return `${m.label}: ${formatValue(m.a, m.unit)} in A, ${formatValue(m.b, m.unit)} in B, but only because of one ${item} in ${fromA ? 'A' : 'B'} (${formatValue(side[k]!, m.unit)}); without it ${pct(r)}, not a change`;
}

/** A metric's change in a few words, for the verdict line: "gen0 p90 pause +30 %". */
function shortChange(m: ComparisonMetric): string {
  return `${m.label} ${m.changeText || describeChange(m)}`;
}

/** The one-line verdict (OverallVerdict): from the metrics' directions, after every verdict is decided. */
export function overallVerdict(metrics: readonly ComparisonMetric[]): OverallVerdict {
  const worse = metrics.filter((m) => m.direction === 'worse');
  const better = metrics.filter((m) => m.direction === 'better');
  const changed = metrics.filter((m) => m.direction === 'change');
  const list = (ms: ComparisonMetric[]): string => ms.map(shortChange).join(', ');
  if (worse.length > 0 && better.length > 0) return { kind: 'mixed', text: `Mixed: B is worse on ${list(worse)}, and better on ${list(better)}` };
  if (worse.length > 0) return { kind: 'worse', text: `B is worse: ${list(worse)}${changed.length > 0 ? ` (also changed: ${list(changed)})` : ''}` };
  if (better.length > 0) return { kind: 'better', text: `B is better: ${list(better)}${changed.length > 0 ? ` (also changed: ${list(changed)})` : ''}` };
  if (changed.length > 0) return { kind: 'changed', text: `Neither worse nor better, but changed: ${list(changed)}` };
  return { kind: 'no-change', text: noChangeHeadline(metrics) };
}
