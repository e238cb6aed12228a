/**
 * Request latency in `compare` (issue 42): the rows each side's requests give, and the p99 verdict
 * from the block bootstrap — higher when B's requests are slower, no clear change for the same
 * requests, not measured when a side has no request spans — and the CLI's JSON and text carry it.
 */
import { describe, expect, it } from 'vitest';
import { compareRequestLatency } from '../../src-main/compare/request-latency.js';
import { requestsReport } from '../../src-main/requests/report.js';
import type { PauseInterval, RequestSpan } from '../../src-main/shared/requests.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n requests 10 ms apart, latency 1–5 ms, every 20th stopped by a `pauseMSec` GC pause. */
function run(n: number, pauseMSec: number, seed: number): { spans: RequestSpan[]; pauses: PauseInterval[] } {
  const r = rng(seed);
  const spans: RequestSpan[] = [];
  const pauses: PauseInterval[] = [];
  for (let i = 0; i < n; i++) {
    const start = i * 10;
    let dur = 1 + 4 * r();
    if (i % 20 === 0) {
      pauses.push({ startMSec: start + 0.5, endMSec: start + 0.5 + pauseMSec, gcNumber: pauses.length + 1, generation: 0, type: 0 });
      dur += pauseMSec;
    }
    spans.push({ startMSec: start, durationMSec: dur, group: 'g', name: '' });
  }
  return { spans, pauses };
}

const report = (x: { spans: RequestSpan[]; pauses: PauseInterval[] }) => requestsReport(x.spans, x.pauses);

describe('request latency in a comparison', () => {
  it('B with 4× longer GC pauses: its p99 is higher, and the GC share of its slowest 1 % rises', () => {
    const c = compareRequestLatency(report(run(2000, 5, 1)), report(run(2000, 20, 2)), { seed: 1 });
    expect(c.p99Verdict).toBe('higher');
    expect(c.p99Interval!.difference[0]).toBeGreaterThan(0);
    const share = c.rows.find((r) => r.id === 'request-gc-share-slowest-1')!;
    expect(share.b!).toBeGreaterThan(share.a!);
    expect(c.rows.find((r) => r.id === 'request-count')).toMatchObject({ a: 2000, b: 2000 });
    expect(c.summary).toMatch(/B's p99 is higher/);
  });

  it('the same kind of run on both sides: no clear change', () => {
    const c = compareRequestLatency(report(run(2000, 5, 3)), report(run(2000, 5, 4)), { seed: 1 });
    expect(c.p99Verdict).toBe('no clear change');
    expect(c.p99Interval!.difference[0]).toBeLessThan(0);
    expect(c.p99Interval!.difference[1]).toBeGreaterThan(0);
  });

  it('a side without request spans: not measured, saying which side has them', () => {
    const c = compareRequestLatency(report(run(200, 5, 5)), null, { seed: 1 });
    expect(c.p99Verdict).toBe('not measured');
    expect(c.summary).toMatch(/Only A has request spans/);
  });

  it('gcscope compare prints the requests section and puts it in its JSON', async () => {
    const file = TRACES + 'aspnet-requests.nettrace';
    const j = await runCli(['compare', file, file, '--format', 'json']);
    expect(j.code, j.stderr).toBe(0);
    const rq = (JSON.parse(j.stdout) as { requests: { rows: { id: string; a: number; b: number }[]; p99Verdict: string } }).requests;
    expect(rq.rows.find((r) => r.id === 'request-count')).toMatchObject({ a: 41, b: 41 });
    // 41 requests a side: too few for an interval.
    expect(rq.p99Verdict).toBe('no clear change');
    const t = await runCli(['compare', file, file]);
    expect(t.stdout).toMatch(/Requests \(which requests the GC delayed\)/);
    expect(t.stdout).toMatch(/GC share of the slowest 1 %/);
  });
});
