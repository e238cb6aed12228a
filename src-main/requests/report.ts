/**
 * The requests report (issue 42): which group of spans counts as "the requests", the attribution
 * of GC pauses to them within a time range, the summary, and the slowest requests. What the CLI
 * prints, the finding reads and compare compares. Pure.
 */
import { attributePauses, slowest, slowestK, summarizeLatency, type AttributedRequest, type GcRequestImpact, type RequestLatencySummary } from './latency.js';
import { HOSTING_PROVIDER, HTTP_CLIENT_PROVIDER, KESTREL_PROVIDER } from './sources.js';
import type { PauseInterval, RequestSpan } from './spans.js';

/** Incoming requests first: Kestrel's (path and method), else Hosting's (the same requests), then outgoing calls. */
const PREFERRED_GROUPS = [`${KESTREL_PROVIDER}/Request`, `${HOSTING_PROVIDER}/Request`, `${HTTP_CLIENT_PROVIDER}/Request`];
/** Spans that are not requests (a connection lives across many). */
const NOT_REQUESTS = new Set([`${KESTREL_PROVIDER}/Connection`, `${KESTREL_PROVIDER}/TlsHandshake`, 'System.Net.Http/Connection']);

/** Span groups with their counts, most spans first. */
export function spanGroups(spans: readonly RequestSpan[]): { group: string; count: number }[] {
  const m = new Map<string, number>();
  for (const s of spans) m.set(s.group, (m.get(s.group) ?? 0) + 1);
  return [...m].map(([group, count]) => ({ group, count })).sort((a, b) => b.count - a.count || a.group.localeCompare(b.group));
}

/** The group that counts as the requests: `asked`, else an explicit source's, else the preferred built-ins, else the largest. */
export function requestGroup(spans: readonly RequestSpan[], explicitLabels: readonly string[] = [], asked?: string): string | null {
  return requestGroupOf(spanGroups(spans), explicitLabels, asked);
}

/** requestGroup from the span groups (a live lane keeps their counts as spans arrive). */
export function requestGroupOf(groups: readonly { group: string; count: number }[], explicitLabels: readonly string[] = [], asked?: string): string | null {
  if (asked !== undefined) return groups.some((g) => g.group === asked) ? asked : null;
  for (const l of explicitLabels) if (groups.some((g) => g.group === l)) return l;
  for (const p of PREFERRED_GROUPS) if (groups.some((g) => g.group === p)) return p;
  return groups.find((g) => !NOT_REQUESTS.has(g.group))?.group ?? null;
}

export interface RequestsReport {
  /** The group reported on; null when the trace has no request spans. */
  group: string | null;
  groups: { group: string; count: number }[];
  range: { fromMSec: number; toMSec: number } | null;
  summary: RequestLatencySummary;
  /** The requests (started in the range), slowest first, at most `top` of them when given. */
  requests: AttributedRequest[];
  /** Every GC with a pause in the range, in time order. */
  gcs: GcRequestImpact[];
  /** The slowest 1 % (at least one), slowest first: the finding's evidence. */
  slowest1Percent: AttributedRequest[];
}

export interface RequestsReportOptions {
  range?: { fromMSec: number; toMSec: number } | null;
  /** Keep the `top` slowest requests in `requests` (all when absent). */
  top?: number;
  group?: string;
  explicitLabels?: readonly string[];
}

/** Spans started in [from, to); pauses overlapping it. */
export function requestsReport(spans: readonly RequestSpan[], pauses: readonly PauseInterval[], o: RequestsReportOptions = {}): RequestsReport {
  const group = requestGroup(spans, o.explicitLabels, o.group);
  const range = o.range ?? null;
  const inRange = (t: number): boolean => range === null || (t >= range.fromMSec && t < range.toMSec);
  const chosen = spans.filter((s) => s.group === group && inRange(s.startMSec));
  const ps = range === null ? pauses : pauses.filter((p) => p.endMSec > range.fromMSec && p.startMSec < range.toMSec);
  const a = attributePauses(chosen, ps);
  return {
    group,
    groups: spanGroups(spans),
    range,
    summary: summarizeLatency(a.requests),
    requests: o.top !== undefined ? slowestK(a.requests, o.top) : slowest(a.requests, 1),
    gcs: a.gcs,
    slowest1Percent: slowest(a.requests, 0.01),
  };
}
