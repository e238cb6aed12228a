/**
 * Prints one plain closing line, `vitest: N passed, N failed, N skipped`, that CI systems read
 * without knowing vitest's own format — and, before it, the ten slowest test files, because CI
 * has a 20-minute budget and the slow project decides whether it keeps to it.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed outside its tests (an import, a hook) is one failure, even if its tests were skipped.
      failed += m.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    const slowest = testModules
      .map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    // scripts/test.mjs runs the two projects in two processes and prints one summary of both.
    const to = process.env.GCSCOPE_TEST_SUMMARY_FILE;
    if (to !== undefined && to !== '') {
      writeFileSync(to, JSON.stringify({ passed, failed, skipped, slowest }));
      return;
    }
    if (slowest.length > 0) {
      process.stdout.write('\nslowest test files:\n');
      for (const s of slowest) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(7)} s  ${s.file}\n`);
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
