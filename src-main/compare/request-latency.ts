/**
 * Request latency in a comparison (issue 42): A/B's request-latency percentiles and the GC's share
 * of their latency, so an A/B run says whether a GC setting helped the requests, not only the
 * pauses. Beside the GC metrics (comparison.ts), not among them: its verdict is its own.
 *
 * The p99 change gets a percentile interval from a moving-block bootstrap of the requests in
 * time order (bootstrap.ts: requests close in time share their GCs, so they are resampled in
 * blocks), with the same seed as the comparison; the p99 is the type-7 quantile (quantile.ts), as
 * the comparison's pause percentiles are. Pure.
 */
import type { RequestsReport } from '../requests/report.js';
import { bootstrapTwoSample, type BootstrapInterval } from './bootstrap.js';
import { quantileSelect } from './quantile.js';
import { formatMs, formatPercent } from '../shared/format.js';

export interface RequestLatencyRow {
  id: string;
  label: string;
  unit: 'count' | 'ms' | 'share';
  a: number | null;
  b: number | null;
}

export interface RequestLatencyComparison {
  /** Which spans are the requests on each side (null: the side has none). */
  groupA: string | null;
  groupB: string | null;
  rows: RequestLatencyRow[];
  /** 95 % interval of p99(B) − p99(A) and of their ratio; null when a side has too few requests. */
  p99Interval: BootstrapInterval | null;
  /** 'lower' / 'higher': B's p99 is, with 95 % confidence; 'no clear change'; 'not measured': a side has no requests. */
  p99Verdict: 'lower' | 'higher' | 'no clear change' | 'not measured';
  /** One sentence for the text and HTML reports. */
  summary: string;
}

/** Fewer requests than this on a side: no interval (the p99 of 100 requests is one request). */
export const MIN_REQUESTS_FOR_INTERVAL = 100;

function rowsOf(a: RequestsReport | null, b: RequestsReport | null): RequestLatencyRow[] {
  const sa = a?.summary;
  const sb = b?.summary;
  const row = (id: string, label: string, unit: RequestLatencyRow['unit'], f: (s: NonNullable<typeof sa>) => number | null): RequestLatencyRow => ({
    id,
    label,
    unit,
    a: sa !== undefined && sa.count > 0 ? f(sa) : null,
    b: sb !== undefined && sb.count > 0 ? f(sb) : null,
  });
  return [
    row('request-count', 'requests', 'count', (s) => s.count),
    row('request-p50', 'latency p50', 'ms', (s) => s.latency.p50),
    row('request-p90', 'latency p90', 'ms', (s) => s.latency.p90),
    row('request-p99', 'latency p99', 'ms', (s) => s.latency.p99),
    row('request-p999', 'latency p99.9', 'ms', (s) => s.latency.p999),
    row('request-p99-without-gc', 'latency p99 without GC time', 'ms', (s) => s.latencyWithoutGc.p99),
    row('request-gc-share', 'GC share of all requests', 'share', (s) => s.all.share),
    row('request-gc-share-slowest-5', 'GC share of the slowest 5 %', 'share', (s) => s.slowest5Percent.share),
    row('request-gc-share-slowest-1', 'GC share of the slowest 1 %', 'share', (s) => s.slowest1Percent.share),
  ];
}

/** Latencies in start order (what the block bootstrap resamples). */
function latenciesInTimeOrder(r: RequestsReport): Float64Array {
  const xs = [...r.requests].sort((x, y) => x.startMSec - y.startMSec);
  return Float64Array.from(xs, (q) => q.durationMSec);
}

/**
 * `a`, `b`: each side's requests report with every request (no `top`), over the compared range;
 * null when the side has no request spans.
 */
export function compareRequestLatency(
  a: RequestsReport | null,
  b: RequestsReport | null,
  opts: { seed: number; resamples?: number },
): RequestLatencyComparison {
  const rows = rowsOf(a, b);
  const na = a?.summary.count ?? 0;
  const nb = b?.summary.count ?? 0;
  if (na === 0 || nb === 0) {
    return {
      groupA: a?.group ?? null,
      groupB: b?.group ?? null,
      rows,
      p99Interval: null,
      p99Verdict: 'not measured',
      summary:
        na === 0 && nb === 0
          ? 'Neither side has request spans (record with --requests to compare request latency).'
          : `Only ${na > 0 ? 'A' : 'B'} has request spans: request latency is not compared (record both with --requests).`,
    };
  }
  let interval: BootstrapInterval | null = null;
  let verdict: RequestLatencyComparison['p99Verdict'] = 'no clear change';
  if (na >= MIN_REQUESTS_FOR_INTERVAL && nb >= MIN_REQUESTS_FOR_INTERVAL) {
    // Fewer resamples for very large sides: each is an O(n) quantile.
    const resamples = opts.resamples ?? (na + nb > 200_000 ? 400 : 1000);
    interval = bootstrapTwoSample(latenciesInTimeOrder(a!), latenciesInTimeOrder(b!), (x) => quantileSelect(x, 0.99), {
      resamples,
      seed: opts.seed,
      level: 0.95,
    });
    if (interval.difference[1] < 0) verdict = 'lower';
    else if (interval.difference[0] > 0) verdict = 'higher';
  }
  const p99 = rows.find((r) => r.id === 'request-p99')!;
  const share = rows.find((r) => r.id === 'request-gc-share-slowest-1')!;
  const ms = (v: number | null): string => (v === null ? 'n/a' : formatMs(v));
  const pc = (v: number | null): string => (v === null ? 'n/a' : formatPercent(100 * v));
  const change =
    verdict === 'no clear change'
      ? interval === null
        ? `too few requests for an interval (needs ${MIN_REQUESTS_FOR_INTERVAL} a side)`
        : 'no clear change (the 95 % interval of the difference includes 0)'
      : `B's p99 is ${verdict} (95 % interval of the difference ${ms(interval!.difference[0])} to ${ms(interval!.difference[1])})`;
  return {
    groupA: a!.group,
    groupB: b!.group,
    rows,
    p99Interval: interval,
    p99Verdict: verdict,
    summary: `Request latency p99 ${ms(p99.a)} → ${ms(p99.b)}: ${change}. GC share of the slowest 1 %: ${pc(share.a)} → ${pc(share.b)}.`,
  };
}
