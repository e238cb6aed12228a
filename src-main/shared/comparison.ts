/**
 * The comparison of two recordings (or two ranges of one) as every consumer sees it: `gcscope
 * compare` (text, JSON, HTML) and the app's comparison view. Built by compare/comparison.ts.
 * Types and one label table (shared with the renderer); arrays are plain numbers so the JSON output is readable.
 */

/** Pauses are compared per stratum, never as one mixed distribution (a change in mix is a count change). */
export type PauseStratum = 'gen0' | 'gen1' | 'gen2' | 'bgc' | 'foreground' | 'induced';

/**
 * higher / lower: a significant change at least as large as the practical threshold;
 * small: a significant change smaller than the threshold (real, but too small to count);
 * same: the interval lies within ± the threshold; inconclusive: neither (no detectable change, but
 * the data cannot rule one out); insufficient: too few GCs for this metric; not-tested: shown for
 * reference only (a maximum is one GC).
 */
export type VerdictKind = 'higher' | 'lower' | 'small' | 'same' | 'inconclusive' | 'insufficient' | 'not-tested';

/**
 * The headline when no change is reported: none detected, only changes below the threshold (not
 * "no change" over rows that show a significant one), or nothing could be tested at all.
 */
export function noChangeHeadline(metrics: readonly { verdict: VerdictKind }[]): string {
  if (metrics.some((m) => m.verdict === 'small')) return 'No change above the practical threshold on any metric';
  const tested = metrics.some((m) => m.verdict !== 'insufficient' && m.verdict !== 'not-tested');
  return tested ? 'No detectable change on any metric' : 'Too few GCs on one side or both to test any metric';
}

/** A verdict in a table cell. */
export const VERDICT_LABELS: Record<VerdictKind, string> = {
  higher: 'higher in B',
  lower: 'lower in B',
  small: 'small change',
  same: 'no change',
  inconclusive: 'no detectable change',
  insufficient: 'insufficient data',
  'not-tested': 'not tested',
};

/**
 * The tables' "Change" column holds two kinds of estimate: for a tested median, the Hodges–Lehmann
 * shift (the median of all pairwise differences B − A, which is not B's median minus A's); for
 * the rest (and a median with too few GCs to test), the ratio B/A. Its header, the marker on the shift rows and the explanation, shared
 * by the text, HTML and app tables.
 */
export const CHANGE_HEADER = 'Change (B vs A)';
export const SHIFT_MARK = 'HL';
export const CHANGE_EXPLAINED =
  `(${SHIFT_MARK}): the Hodges–Lehmann shift of a tested median — the median of all pairwise differences B − A, robust to outliers, and not B's median minus A's. ` +
  'Other rows: the ratio B/A — as × for an increase of 1.5× or more, as a % change otherwise — with its CI and sentence in the same notation. A CI shown as one value has both ends equal at the precision shown (tied values).';

/** A metric's Change cell: the estimate, marked when it is a Hodges–Lehmann shift. */
export function changeCell(m: { changeText: string; interval: { kind: 'ratio' | 'shift' } | null }): string {
  return m.interval?.kind === 'shift' && m.changeText !== '' ? `${m.changeText} (${SHIFT_MARK})` : m.changeText;
}

export type ComparisonUnit = 'ms' | 'MB' | 'MB/s' | '%' | '/GB';

export interface ComparisonMetric {
  /** Stable id for --fail-if and the JSON: 'p99-pause-gen0', 'gcs-per-gb', 'peak-heap'… */
  id: string;
  /** 'gen0 p99 pause', 'GCs per GB allocated'… */
  label: string;
  group: 'pauses' | 'time' | 'counts' | 'heap';
  stratum: PauseStratum | null;
  unit: ComparisonUnit;
  a: number | null;
  b: number | null;
  /** Sample sizes behind a and b (GCs, or time windows). */
  nA: number;
  nB: number;
  /** (b − a)/a × 100; null when a is 0 or missing. */
  changePercent: number | null;
  /**
   * The change with its interval: a ratio B/A (bootstrap, rate ratio) or a shift B − A in the
   * metric's unit (Hodges–Lehmann).
   */
  interval: { kind: 'ratio' | 'shift'; estimate: number; ci: [number, number] | null } | null;
  /** Raw and Benjamini–Hochberg-adjusted p-values, for the metrics tested by a p-value. */
  pValue: number | null;
  pAdjusted: number | null;
  /** How it was tested, in a few words. */
  method: string;
  verdict: VerdictKind;
  /** The plain verdict: "gen0 p99 pause 2.1× higher in B (95 % CI 1.8–2.5)", "no detectable change". */
  text: string;
  /** Higher is worse (pauses, heap, GCs per GB): a 'higher' verdict is a regression; null when neither way is (allocation rate). */
  higherIsWorse: boolean | null;
  /** A reported change read as a regression ('worse'), an improvement ('better') or neither ('change'); null when none is reported. */
  direction: 'worse' | 'better' | 'change' | null;
  /** For tables: a and b with their units, the change ("2.1×", "+12 %", "+0.80 ms") and its interval. */
  aText: string;
  bText: string;
  changeText: string;
  intervalText: string;
}

export interface WarmupInfo {
  /** Pause start of the first GC kept (ms since the trace's sync time); null when nothing was excluded. */
  endMSec: number | null;
  /** The same, in seconds since the side's first GC. */
  endSec: number | null;
  excludedGCs: number;
  /** Whether the warm-up GCs were left out of the statistics (the default). */
  excluded: boolean;
  /** How the end was found, or why there is no steady state. */
  note: string;
}

export interface ComparisonSide {
  /** 'A' or 'B' and what it is: "A: session 3 (GcWorkload)". */
  label: string;
  sessionId: number | null;
  source: string | null;
  processName: string | null;
  runtimeVersion: string | null;
  gcMode: string | null;
  concurrent: boolean | null;
  /**
   * The most and fewest heaps any GC in the compared range had (DATAS changes the count: "1–2
   * heaps"); the session's heap count when no GC says; null when unknown.
   */
  heapCount: number | null;
  minHeapCount: number | null;
  cpuCount: number | null;
  /** The time range compared (ms since the trace's sync time; null: an open end); null for the whole recording. */
  range: { fromMSec: number | null; toMSec: number | null } | null;
  /** Completed GCs in the range, and those the statistics use (after warm-up). */
  gcCount: number;
  usedGCs: number;
  warmup: WarmupInfo;
  /** First to last used GC (ms). */
  spanMSec: number;
  allocatedMB: number | null;
}

export interface PauseDistribution {
  stratum: PauseStratum;
  label: string;
  /** Sorted pauses (ms) of the used GCs; at most 2,000 evenly spaced order statistics per side. */
  a: number[];
  b: number[];
  nA: number;
  nB: number;
}

export interface HeapSeries {
  /** Seconds since the side's first GC (the shared relative axis), and heap size after each GC (MB). */
  t: number[];
  heapMB: number[];
  /** End of the warm-up on this axis (s), null when none. */
  warmupEndSec: number | null;
  /** Where this axis's 0 is: the side's first GC (ms since the trace's sync time); null without GCs. */
  firstGcMSec: number | null;
}

export interface FindingRef {
  id: string;
  title: string;
  severity: string;
}

export interface ComparisonFindings {
  /** False when no findings were computed (the diagnosis engine had nothing to say about either side). */
  available: boolean;
  onlyA: FindingRef[];
  onlyB: FindingRef[];
  /** Fired in both: A's finding, with B's title (its numbers) beside it. */
  both: (FindingRef & { titleB: string })[];
}

export interface ComparisonOptions {
  includeWarmup: boolean;
  seed: number;
  resamples: number;
  /** Confidence level of the intervals (0.95). */
  level: number;
  /** Benjamini–Hochberg false discovery rate for the p-value tests. */
  alpha: number;
  /** A change smaller than this share of A (0.05 = 5 %) is not reported as one… */
  relativeThreshold: number;
  /** …nor a pause change under this many ms. */
  pauseThresholdMSec: number;
  /** A quantile q is reported only with n·(1 − q) ≥ this many GCs per side. */
  minTailCount: number;
  /** Windows for % time paused and allocation rate (ms). */
  windowMSec: number;
}

/**
 * The comparison in one line, said first (issue 39): worse, better, mixed (some metrics worse and
 * some better), changed (only metrics that are neither, like the allocation rate), or no change.
 */
export interface OverallVerdict {
  kind: 'worse' | 'better' | 'mixed' | 'changed' | 'no-change';
  text: string;
}

export interface Comparison {
  /** The one-line verdict every rendering leads with. */
  verdict: OverallVerdict;
  a: ComparisonSide;
  b: ComparisonSide;
  /** What differs between the two beyond the change under test (GC mode, runtime, CPUs, heaps): said at the top. */
  differences: string[];
  options: ComparisonOptions;
  metrics: ComparisonMetric[];
  distributions: PauseDistribution[];
  heap: { a: HeapSeries; b: HeapSeries };
  findings: ComparisonFindings;
  /** The method in a few sentences (normalisation, tests, intervals, seed). */
  method: string[];
}
