/**
 * GCScope's GC analysis against TraceEvent's, per GC and per rollup, for every golden in
 * test/oracle/golden (see its README for how they were produced). A failure prints the differing
 * cells of that trace.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRollupWithOracle, compareWithOracle } from '../oracle/compare.js';
import { ALL_TRACES, PROBLEM_TRACES, WORKLOAD_TRACES, traceBytes, unzippedName } from '../helpers/fixtures.js';

const GOLDEN = join(import.meta.dirname, '..', 'oracle', 'golden');
const TMP = join(process.cwd(), 'test-output', 'golden-traces');
mkdirSync(TMP, { recursive: true });

const traces = [...ALL_TRACES, ...WORKLOAD_TRACES, ...PROBLEM_TRACES];
const goldens = new Set(readdirSync(GOLDEN));

describe("per-GC numbers and rollups equal TraceEvent's", () => {
  it('has a golden for every fixture trace with GCs (27 traces: 7 real ones, the workload on .NET 8, 9 and 10 in four GC modes, its 8 problem modes on .NET 10)', () => {
    expect(traces.filter((t) => goldens.has(`${unzippedName(t)}.gcs.csv`))).toHaveLength(27);
  });
  for (const name of traces) {
    const base = unzippedName(name);
    if (!goldens.has(`${base}.gcs.csv`)) continue;
    it(base, async () => {
      const file = join(TMP, base);
      writeFileSync(file, traceBytes(name));
      const r = await compareWithOracle(file, join(GOLDEN, `${base}.gcs.csv`));
      const rollupDiffs = await compareRollupWithOracle(file, join(GOLDEN, `${base}.rollup.csv`));
      const report = [...r.diffs, ...rollupDiffs]
        .slice(0, 40)
        .map((d) => `GC ${d.number} ${d.column}: ours ${d.ours}, TraceEvent ${d.theirs}`)
        .join('\n');
      expect(r.ours, 'GC count').toBe(r.theirs);
      expect(report, `differences from TraceEvent for ${base}`).toBe('');
    });
  }
});
