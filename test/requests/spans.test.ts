/**
 * Request spans read from a real ASP.NET Core trace (test/fixtures/traces/aspnet-requests.nettrace,
 * PROVENANCE.md): 20 × /alloc, 20 × /fast and 1 × /sleep sent one after another, each on its own
 * connection, recorded with Kestrel, Hosting and the TPL activity-id flow on. Kestrel's stops are
 * paired by payload (their ActivityId is often missing), Hosting's by ActivityId (their payload is
 * empty), and the GC pause intervals agree with the GC analysis's pauses.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { requestsReport } from '../../src-main/requests/report.js';
import { RequestSpanCollector } from '../../src-main/requests/spans.js';
import { parseRequestSpec } from '../../src-main/requests/sources.js';
import { requestProviders } from '../../src-main/requests/recording.js';
import { TRACES } from '../helpers/fixtures.js';

const FILE = TRACES + 'aspnet-requests.nettrace';

describe('request spans from a real ASP.NET Core trace', () => {
  it('counts the 41 requests sent, by Kestrel and by Hosting alike, with their method and path, and no stop left unpaired', async () => {
    const a = await analyzeTraceFile(FILE);
    const c = a.requestSpans!;
    expect(c).toBeInstanceOf(RequestSpanCollector);
    const kestrel = c.spans.filter((s) => s.group === 'Microsoft-AspNetCore-Server-Kestrel/Request');
    const hosting = c.spans.filter((s) => s.group === 'Microsoft.AspNetCore.Hosting/Request');
    expect(kestrel).toHaveLength(41);
    expect(hosting).toHaveLength(41);
    const names = (xs: typeof kestrel): Record<string, number> => xs.reduce<Record<string, number>>((m, s) => ((m[s.name] = (m[s.name] ?? 0) + 1), m), {});
    expect(names(kestrel)).toEqual({ 'GET /alloc': 20, 'GET /fast': 20, 'GET /sleep': 1 });
    expect(names(hosting)).toEqual({ 'GET /alloc': 20, 'GET /fast': 20, 'GET /sleep': 1 });
    // Every request's stop found its start; what stays open is the host's own HostStart (no stop before the trace ended).
    expect(c.openCount('Microsoft-AspNetCore-Server-Kestrel/Request')).toBe(0);
    expect(c.openCount('Microsoft.AspNetCore.Hosting/Request')).toBe(0);
    expect(c.openCount('Microsoft-AspNetCore-Server-Kestrel/Connection')).toBe(0);
    expect(c.openCount()).toBe(1);
    // Paired entries leave the indexes: what is held is the open HostStart (by activity id and thread), not the 163 spans seen.
    expect(c.indexed).toBe(2);
    // The handler awaited 30 ms: Kestrel saw at least that.
    const sleep = kestrel.find((s) => s.name === 'GET /sleep')!;
    expect(sleep.durationMSec).toBeGreaterThanOrEqual(30);
    // Each Hosting span lies within a few ms of its Kestrel one (the same request).
    const byStart = [...kestrel].sort((x, y) => x.startMSec - y.startMSec);
    const hostingByStart = [...hosting].sort((x, y) => x.startMSec - y.startMSec);
    byStart.forEach((k, i) => expect(Math.abs(k.startMSec - hostingByStart[i]!.startMSec)).toBeLessThan(15));
  });

  it('every blocking GC is one pause interval with the GC analysis pause: same start, same length', async () => {
    const byNumber = new Map<number, { number: number; start: number; pause: number }>();
    // onGC comes again when a GC's values change: the last call has its final pause.
    const a = await analyzeTraceFile(FILE, {
      onGC: (g) => byNumber.set(g.number, { number: g.number, start: g.pauseStartRelativeMSec, pause: g.pauseDurationMSec }),
    });
    const gcs = [...byNumber.values()];
    const pauses = a.requestSpans!.pauses;
    expect(gcs.length).toBeGreaterThan(0);
    expect(pauses).toHaveLength(gcs.length);
    for (const g of gcs) {
      const p = pauses.find((x) => x.gcNumber === g.number)!;
      expect(p.startMSec).toBeCloseTo(g.start, 6);
      expect(p.endMSec - p.startMSec).toBeCloseTo(g.pause, 6);
    }
  });

  it('the report picks the Kestrel requests and finds the GC pause inside the one /alloc request it stopped', async () => {
    const a = await analyzeTraceFile(FILE);
    const r = requestsReport(a.requestSpans!.spans, a.requestSpans!.pauses);
    expect(r.group).toBe('Microsoft-AspNetCore-Server-Kestrel/Request');
    expect(r.summary.count).toBe(41);
    const paused = r.requests.filter((q) => q.gcPauseMSec > 0);
    expect(paused.map((q) => q.name)).toEqual(['GET /alloc']);
    expect(paused[0]!.gcNumbers).toEqual([1]);
    const gc1 = r.gcs.find((g) => g.gcNumber === 1)!;
    expect(gc1.requests).toBe(1);
    expect(gc1.requestDelayMSec).toBeCloseTo(paused[0]!.gcPauseMSec, 9);
    // A range that leaves out the first 4 s leaves out the requests started before it.
    const later = requestsReport(a.requestSpans!.spans, a.requestSpans!.pauses, { range: { fromMSec: 4000, toMSec: Infinity } });
    expect(later.summary.count).toBe(r.requests.filter((q) => q.startMSec >= 4000).length);
    expect(later.summary.count).toBeLessThan(41);
  });
});

describe('request sources a user names', () => {
  it('Provider/Start/Stop names any EventSource; a bare name is an Activity source; anything else is refused with the syntax', () => {
    expect(parseRequestSpec('MyCompany-Orders/OrderStart/OrderStop')).toMatchObject({
      provider: 'MyCompany-Orders',
      start: 'OrderStart',
      stop: 'OrderStop',
      kind: 'custom',
      // The name the opcode convention gives the same events.
      label: 'MyCompany-Orders/Order',
    });
    expect(parseRequestSpec('P/Begin/End')).toMatchObject({ label: 'P/Begin-End' });
    expect(parseRequestSpec('P/12/13')).toMatchObject({ label: 'P/12-13', start: '12', stop: '13' });
    expect(parseRequestSpec('Microsoft.AspNetCore')).toMatchObject({ kind: 'activity', activitySource: 'Microsoft.AspNetCore' });
    expect(parseRequestSpec('a/b')).toMatch(/Provider\/StartEvent\/StopEvent/);
    expect(parseRequestSpec('a//c')).toMatch(/Provider\/StartEvent\/StopEvent/);
  });

  it('a recording asks each provider once, Activity sources through DiagnosticSource, and activity-id flow for sources that pair by it', () => {
    const ps = requestProviders([
      parseRequestSpec('Orders/OrderStart/OrderStop'),
      parseRequestSpec('Orders/PayStart/PayStop'),
      parseRequestSpec('My.Source'),
    ] as never);
    expect(ps.map((p) => p.name)).toEqual(['Orders', 'Microsoft-Diagnostics-DiagnosticSource', 'System.Threading.Tasks.TplEventSource']);
    expect(ps[1]!.arguments).toBe('FilterAndPayloadSpecs=[AS]My.Source');
  });
});
