/**
 * Issue 39's acceptance matrix on real recordings: every problem mode of the workload
 * (test/workloads PROBLEM_MODES — induced GCs, LOH churn, a slow leak over 30 s and a fast one over
 * 8 s, a start-up fill that levels off, pinning, mid-life crisis, slow suspension, LOH waits,
 * healthy) recorded on .NET 10 on an idle machine and again while other work kept both cores busy
 * (test/fixtures/PROVENANCE.md). On each:
 *
 * - the mode's finding (PROBLEM_FINDING) is a warning;
 * - no finding that blames another cause (CAUSE_FINDINGS) is a warning, except a companion the
 *   mode cannot help causing (PROBLEM_COMPANIONS) and, on a loaded machine, random-long-pause —
 *   there the machine really did take the GC's CPU — which must rank below the mode's finding;
 * - healthy and start-up fill raise no warning at all, and `gcscope diagnose` exits 0 on them.
 *
 * problem-workloads.test.ts checks the idle traces' numbers in full; this checks the verdicts.
 */
import { describe, expect, it } from 'vitest';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import type { Finding } from '../../src-main/shared/finding.js';
import { runCli } from '../helpers/cli.js';
import { problemMatrixTraceName, TRACES } from '../helpers/fixtures.js';
import { CAUSE_FINDINGS, PROBLEM_COMPANIONS, PROBLEM_FINDING, PROBLEM_MODES } from '../workloads/workload.js';

const describeAll = (fs: readonly Finding[]): string => fs.map((f) => `${f.severity} ${f.score} ${f.id}: ${f.title}`).join('\n');

describe('every problem workload, idle and under load, raises its own finding and blames no other cause', () => {
  for (const loaded of [false, true]) {
    for (const mode of PROBLEM_MODES) {
      const want = PROBLEM_FINDING[mode];
      it(`${mode}, ${loaded ? 'recorded while other work loaded both cores' : 'recorded on an idle machine'}: ${want === null ? 'no warning' : `a ${want} warning`} and no wrong cause`, async () => {
        const { findings } = await reportFromFile(TRACES + problemMatrixTraceName(mode, loaded));
        const warnings = findings.filter((f) => f.severity === 'warning');
        const text = describeAll(findings);
        if (want === null) {
          expect(warnings, text).toEqual([]);
          return;
        }
        const own = warnings.findIndex((f) => f.id === want);
        expect(own, text).toBeGreaterThanOrEqual(0);
        const companions: readonly string[] = PROBLEM_COMPANIONS[mode] ?? [];
        const wrong = warnings.filter((f) => f.id !== want && !companions.includes(f.id) && CAUSE_FINDINGS.includes(f.id));
        const allowed = (f: Finding): boolean => loaded && f.id === 'random-long-pause' && warnings.indexOf(f) > own;
        expect(
          wrong.filter((f) => !allowed(f)).map((f) => f.id),
          text,
        ).toEqual([]);
      });
    }
  }
});

describe('gcscope diagnose passes a CI gate on healthy runs, whether the machine was idle or busy', () => {
  for (const mode of ['healthy', 'startup-fill'] as const) {
    for (const loaded of [false, true]) {
      it(`exits 0 on ${mode}${loaded ? ' recorded under load' : ''}`, async () => {
        const res = await runCli(['diagnose', TRACES + problemMatrixTraceName(mode, loaded)], { timeoutMs: 120_000 });
        expect(res.code, res.stdout + res.stderr).toBe(0);
      });
    }
  }
  it('exits 3 on the fast leak recorded under load: 8 s of a live set that never levels off', async () => {
    const res = await runCli(['diagnose', TRACES + problemMatrixTraceName('leak-fast', true)], { timeoutMs: 120_000 });
    expect(res.code, res.stdout + res.stderr).toBe(3);
    expect(res.stdout).toContain('[growing-live-set]');
  });
});
