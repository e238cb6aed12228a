/**
 * `gcscope requests FILE|--session ID [--range FROM:TO] [--top N] [--group NAME] [--format text|json]`
 * (issue 42): which requests the GC delayed. Each request's latency and the GC pause time that
 * overlapped it, the latency percentiles with and without that time, the GC's share of the latency
 * of all requests and of the slowest 1 % and 5 %, and the GCs that stopped the most requests.
 */
import { requestsReport, type RequestsReport } from '../requests/report.js';
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import { formatInt, formatMs, formatPercent } from '../shared/format.js';
import { analyzeTraceFile } from '../recording/analyze-file.js';
import { CliError, describeInputError, escapeControl, EXIT_BAD_INPUT, EXIT_OK } from './output.js';
import { parseRange, seconds } from './range.js';

export interface RequestsOptions {
  session?: string;
  db?: string;
  range?: string;
  top?: string;
  group?: string;
  format?: string;
}

async function loadSpans(
  file: string | undefined,
  opts: RequestsOptions,
): Promise<{ spans: RequestSpan[]; pauses: PauseInterval[]; source: string; note: string | null }> {
  if ((file === undefined) === (opts.session === undefined)) throw new CliError('give a trace FILE or --session ID (one of them)', EXIT_BAD_INPUT);
  if (file !== undefined) {
    try {
      // No GC is kept here: the pauses are the consumer's intervals.
      const a = await analyzeTraceFile(file, { window: 8 });
      const c = a.requestSpans!;
      return {
        spans: c.spans,
        pauses: c.pauses,
        source: file,
        note: a.failure !== undefined ? `the trace ends early (${a.failure.message}); what was read is shown` : null,
      };
    } catch (e) {
      throw describeInputError(file, e) ?? e;
    }
  }
  const id = Number(opts.session);
  if (!Number.isInteger(id) || id <= 0) throw new CliError(`--session needs a session id (a positive number), not "${opts.session}"`, EXIT_BAD_INPUT);
  // Loaded only for --session: a trace file never needs sqlite3's binding.
  const [{ openDbForReading }, { getRequestSpans, getPauseIntervals }, { getSession }, { StoreError }, { requireGcSession }] = await Promise.all([
    import('./store-commands.js'),
    import('../store/request-store.js'),
    import('../store/sessions.js'),
    import('../store/db.js'),
    import('../shared/session.js'),
  ]);
  const db = await openDbForReading(opts.db);
  try {
    const s = requireGcSession(await getSession(db, id));
    const [spans, pauses] = await Promise.all([getRequestSpans(db, id), getPauseIntervals(db, id)]);
    return { spans, pauses, source: `session ${id} (${s.name})`, note: s.status === 'recording' ? 'the session is still recording: requests so far' : null };
  } catch (e) {
    if (e instanceof StoreError && e.code === 'not-found') throw new CliError(e.message, EXIT_BAD_INPUT);
    throw e;
  } finally {
    await db.close();
  }
}

/** The JSON the command prints (the issue's contract: count, p99LatencyMSec, gcShareOfSlowest1Percent, requests[]). */
export function requestsJson(r: RequestsReport, source: string, note: string | null): Record<string, unknown> {
  const s = r.summary;
  return {
    source,
    note,
    group: r.group,
    groups: r.groups,
    range: r.range,
    count: s.count,
    pausedCount: s.pausedCount,
    p50LatencyMSec: s.latency.p50,
    p90LatencyMSec: s.latency.p90,
    p95LatencyMSec: s.latency.p95,
    p99LatencyMSec: s.latency.p99,
    p999LatencyMSec: s.latency.p999,
    maxLatencyMSec: s.latency.max,
    latencyWithoutGcMSec: s.latencyWithoutGc,
    gcShareOfAll: s.all.share,
    gcShareOfSlowest1Percent: s.slowest1Percent.share,
    gcShareOfSlowest5Percent: s.slowest5Percent.share,
    slowest1Percent: s.slowest1Percent,
    slowest5Percent: s.slowest5Percent,
    requests: r.requests.map((q) => ({
      startMSec: q.startMSec,
      durationMSec: q.durationMSec,
      gcPauseMSec: q.gcPauseMSec,
      name: q.name,
      gcNumbers: q.gcNumbers,
    })),
    gcs: r.gcs,
  };
}

function share(v: number | null): string {
  return v === null ? 'n/a' : formatPercent(100 * v);
}

export function requestsText(r: RequestsReport, source: string, note: string | null): string {
  const s = r.summary;
  const out: string[] = [`Requests in ${escapeControl(source)}${r.range !== null ? ` (${rangeText(r.range)})` : ''}`];
  if (note !== null) out.push(`note: ${note}`);
  if (r.group === null) {
    out.push(
      'No request spans in this trace. Record with `gcscope record --requests …` (ASP.NET Core requests and HttpClient calls), or name an EventSource: --requests Provider/StartEvent/StopEvent.',
    );
    return out.join('\n') + '\n';
  }
  const others = r.groups.filter((g) => g.group !== r.group);
  out.push(
    `${formatInt(s.count)} requests (${escapeControl(r.group)})${others.length > 0 ? `; also in the trace: ${others.map((g) => `${escapeControl(g.group)} ${formatInt(g.count)}`).join(', ')} (--group NAME)` : ''}`,
  );
  out.push(`${formatInt(s.pausedCount)} of them were paused by a GC at least once`);
  out.push('');
  out.push('latency          p50        p90        p99      p99.9        max');
  const row = (label: string, p: typeof s.latency): string =>
    `${label.padEnd(12)}${[p.p50, p.p90, p.p99, p.p999, p.max].map((v) => formatMs(v).padStart(11)).join('')}`;
  out.push(row('as measured', s.latency));
  out.push(row('without GC', s.latencyWithoutGc));
  out.push('');
  out.push(
    `GC share of latency: all requests ${share(s.all.share)}, slowest 5 % ${share(s.slowest5Percent.share)}, slowest 1 % ${share(s.slowest1Percent.share)} (${formatInt(s.slowest1Percent.count)} requests)`,
  );
  const s1 = s.slowest1Percent.share;
  if (s1 !== null) {
    out.push(
      s1 >= 0.5
        ? `The slowest requests spent most of their time stopped by GC pauses: the GC is why the tail is slow.`
        : s1 >= 0.1
          ? `GC pauses are part of the slowest requests' latency (${share(s1)}); the rest is something else.`
          : `The tail is not the GC's doing: GC pauses are ${share(s1)} of the slowest requests' latency.`,
    );
  }
  out.push('');
  out.push(`slowest requests${r.requests.length < s.count ? ` (top ${r.requests.length})` : ''}:`);
  out.push('   started    latency   GC pause  GCs        request');
  for (const q of r.requests) {
    out.push(
      `${seconds(q.startMSec).padStart(10)} ${formatMs(q.durationMSec).padStart(10)} ${formatMs(q.gcPauseMSec).padStart(10)}  ${(q.gcNumbers.length > 0 ? q.gcNumbers.map((n) => `#${n}`).join(',') : '-').padEnd(10)} ${escapeControl(q.name)}`,
    );
  }
  const hurtful = [...r.gcs]
    .filter((g) => g.requests > 0)
    .sort((a, b) => b.requestDelayMSec - a.requestDelayMSec)
    .slice(0, 5);
  if (hurtful.length > 0) {
    out.push('');
    out.push('GCs that delayed requests the most:');
    for (const g of hurtful) {
      out.push(
        `  GC #${g.gcNumber} ${g.generation >= 0 ? `gen${g.generation}` : ''}${g.type === 1 ? ' background' : ''} at ${seconds(g.pauseStartMSec)}: paused ${formatMs(g.pauseMSec)}, stopped ${formatInt(g.requests)} requests in flight for ${formatMs(g.requestDelayMSec)} in all`,
      );
    }
  }
  return out.join('\n') + '\n';
}

function rangeText(r: { fromMSec: number; toMSec: number }): string {
  return `${Number.isFinite(r.fromMSec) ? seconds(r.fromMSec) : 'start'} to ${Number.isFinite(r.toMSec) ? seconds(r.toMSec) : 'end'}`;
}

export async function runRequests(file: string | undefined, opts: RequestsOptions): Promise<number> {
  const format = opts.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new CliError(`unknown --format ${format}: use text or json`, EXIT_BAD_INPUT);
  const range = parseRange(opts.range, '--range');
  let top: number | undefined;
  if (opts.top !== undefined) {
    top = Number(opts.top);
    if (!Number.isInteger(top) || top < 0) throw new CliError(`--top needs a whole number, not "${opts.top}"`, EXIT_BAD_INPUT);
  } else if (format === 'text') top = 20;
  const { spans, pauses, source, note } = await loadSpans(file, opts);
  if (opts.group !== undefined && !spans.some((s) => s.group === opts.group)) {
    const names = [...new Set(spans.map((s) => s.group))];
    throw new CliError(`--group ${opts.group}: no such spans here${names.length > 0 ? `; the trace has ${names.join(', ')}` : ''}`, EXIT_BAD_INPUT);
  }
  const r = requestsReport(spans, pauses, { range, ...(top !== undefined ? { top } : {}), ...(opts.group !== undefined ? { group: opts.group } : {}) });
  process.stdout.write(format === 'json' ? JSON.stringify(requestsJson(r, source, note), null, 2) + '\n' : requestsText(r, source, note));
  return EXIT_OK;
}
