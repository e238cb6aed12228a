/**
 * Diagnosis cost: `npx tsx bench/diagnosis.ts`. Runs every rule (and each rule alone) over a
 * synthetic 100 000-GC session (gen0/gen1/gen2 mix, many GCs long enough for random-long-pause to
 * judge — its worst case) and over the GC-heavy fixture trace, and prints milliseconds (best of
 * five). The Findings panel asks for this at most once a second while recording; `uptime` is
 * printed so a figure taken on a busy machine says so.
 */
import { loadavg } from 'node:os';
import { diagnose } from '../src-main/diagnosis/diagnose.js';
import type { DiagnosisFacts } from '../src-main/diagnosis/rule.js';
import { RULES } from '../src-main/diagnosis/rule-table.js';
import { reportInputFromFile } from '../src-main/recording/report-source.js';
import { columnsFromRecords, type GcColumns } from '../src-main/shared/gc-column-registry.js';
import { TRACES } from '../test/helpers/fixtures.js';
import { gc } from '../test/diagnosis/gc-sequences.js';

const facts = (n: number): DiagnosisFacts => ({
  firstEventMSec: 0,
  lastEventMSec: n * 10,
  hasPerHeapHistory: true,
  gcMode: 'workstation',
  heapCount: 1,
  concurrent: true,
});

function best(f: () => void, runs = 5): number {
  let b = Number.POSITIVE_INFINITY;
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    f();
    b = Math.min(b, performance.now() - t);
  }
  return b;
}

function report(name: string, c: GcColumns, n: number): void {
  console.log(`${name}: all rules ${best(() => diagnose(c, facts(n))).toFixed(1)} ms`);
  for (const r of RULES) console.log(`  ${r.id.padEnd(24)} ${best(() => diagnose(c, facts(n), { rules: [r] }), 3).toFixed(1)} ms`);
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const n = 100_000;
const synthetic = Array.from({ length: n }, (_, i) =>
  gc(i, {
    generation: i % 100 === 99 ? 2 : i % 10 === 9 ? 1 : 0,
    promotedMB: 0.5 + (i % 7) * 0.1,
    pauseDurationMSec: 1 + (i % 13),
    pauseStartRelativeMSec: i * 10,
    genSizeAfterMB: [1, 1, 6 + (i % 50) / 10, 2, 0],
  }),
);
report('synthetic 100,000 GCs', columnsFromRecords(synthetic), n);
const real = await reportInputFromFile(TRACES + 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip');
report(`eventpipe-dotnetcore3.0 (${real.gcs.length} GCs)`, columnsFromRecords(real.gcs), real.gcs.length);
