/**
 * `gcscope log`: one line per GC in the order the GCs paused the process. Checked against the
 * analysis itself (`report --format json`) on real traces with background GCs, including the
 * Server GC workload whose background GC #13 has foreground GC #14 running inside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GcLogEntry } from '../../src-main/gc/gc-log.js';
import type { GcReport } from '../../src-main/report/model.js';
import { TRACES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';

async function logAndReport(trace: string): Promise<{ log: GcLogEntry[]; text: string[]; report: GcReport }> {
  const [json, text, report] = await Promise.all([
    runCli(['log', TRACES + trace, '--json']),
    runCli(['log', TRACES + trace]),
    runCli(['report', TRACES + trace, '--format', 'json']),
  ]);
  expect(json.code, json.stderr).toBe(0);
  expect(text.code, text.stderr).toBe(0);
  return {
    log: json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as GcLogEntry),
    text: text.stdout.trim().split('\n'),
    report: JSON.parse(report.stdout) as GcReport,
  };
}

describe('gcscope log', () => {
  for (const trace of ['workload-server.nettrace.zip', 'workload-concurrent.nettrace.zip', 'workload-datas.nettrace.zip']) {
    it(`${trace}: every GC once, in pause order, with the analysis' pauses, kinds and heap sizes`, async () => {
      const { log, text, report } = await logAndReport(trace);
      expect(log.length).toBe(report.gcs.length);
      expect(text.length).toBe(report.gcs.length);
      for (let i = 1; i < log.length; i++) expect(log[i]!.relativeMSec, `line ${i + 1}`).toBeGreaterThanOrEqual(log[i - 1]!.relativeMSec);
      const byNumber = new Map(report.gcs.map((g) => [g.number, g]));
      for (const [i, e] of log.entries()) {
        const g = byNumber.get(e.number)!;
        expect(e.pauseMSec).toBe(g.pauseDurationMSec);
        expect(e.suspendMSec).toBe(g.suspendDurationMSec);
        expect(e.kind).toBe(['blocking', 'background', 'foreground'][g.type]);
        expect(e.heapAfterMB).toBe(g.heapSizeAfterMB);
        expect(text[i]).toContain(`GC#${g.number} gen${g.generation} ${e.kind} `);
        expect(text[i]).toContain(`pause ${g.pauseDurationMSec.toFixed(3)}ms`);
        // Wall clock = the trace's start time + the pause start.
        expect(Date.parse(e.time!)).toBe(Math.floor(Date.parse(report.trace.startTimeUtc!) + g.pauseStartRelativeMSec));
      }
    });
  }

  it('puts a foreground GC after the background GC it ran inside, and counts it there', async () => {
    const { log, text } = await logAndReport('workload-server.nettrace.zip');
    const bgc = log.findIndex((e) => e.number === 13);
    const fg = log.findIndex((e) => e.number === 14);
    expect(log[bgc]!.kind).toBe('background');
    expect(log[fg]!.kind).toBe('foreground');
    expect(fg).toBe(bgc + 1);
    expect(log[bgc]!.foregroundGCs).toBe(1);
    expect(log[fg]!.relativeMSec).toBeLessThan(log[bgc]!.relativeMSec + log[bgc]!.spanMSec!);
    // The background GC's pause is its blocking parts, far shorter than its concurrent span.
    expect(log[bgc]!.pauseMSec).toBeLessThan(log[bgc]!.spanMSec!);
    expect(text[bgc]).toMatch(/background .* sweeping .* span [\d.]+ms \(1 foreground\)/);
  });

  it('reads a stored session too (same lines as the file), and refuses to guess without a file or session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gcscope-log-'));
    try {
      const db = join(dir, 'log.db');
      const imp = await runCli(['import', TRACES + 'workload-server.nettrace.zip', '--db', db, '--json']);
      expect(imp.code, imp.stderr).toBe(0);
      const id = String((JSON.parse(imp.stdout) as { sessionId: number }).sessionId);
      const fromSession = await runCli(['log', '--session', id, '--db', db]);
      const fromFile = await runCli(['log', TRACES + 'workload-server.nettrace.zip']);
      expect(fromSession.code, fromSession.stderr).toBe(0);
      expect(fromSession.stdout).toBe(fromFile.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const none = await runCli(['log']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/FILE or --session/);
  });
});
