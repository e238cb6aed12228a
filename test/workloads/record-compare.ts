/**
 * Records the traces behind test/compare's real-run tests (`gcscope compare` on the workload):
 *   npx tsx test/workloads/record-compare.ts [--out DIR]
 * Each is the .NET 10 workload with the runtime's own EventPipe file output at gc-collect level
 * (GC keyword, Informational), 15 seconds long:
 *   compare-ws-1, compare-ws-2   workstation (non-concurrent) GC, churn + survivors, twice: the same run recorded twice
 *   compare-server               the same run under Server GC (2 heaps)
 *   compare-alloc-1x             workstation, churn then 600 ms idle per round
 *   compare-alloc-3x             workstation, three churns each followed by 200 ms idle per round:
 *                                about 3× the allocation of compare-alloc-1x in the same time
 * Only existing workload flags are used (--scenario, --seconds, --pause-ms).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT_DIR, recordWorkload, type GcMode } from './workload.js';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = outIndex >= 0 ? args[outIndex + 1]! : join(OUTPUT_DIR, 'compare-traces');
mkdirSync(out, { recursive: true });

export const COMPARE_RUNS: { name: string; mode: GcMode; scenario: string; pauseMs?: number }[] = [
  { name: 'compare-ws-1', mode: 'workstation', scenario: 'churn,survivors' },
  { name: 'compare-ws-2', mode: 'workstation', scenario: 'churn,survivors' },
  { name: 'compare-server', mode: 'server', scenario: 'churn,survivors' },
  { name: 'compare-alloc-1x', mode: 'workstation', scenario: 'churn', pauseMs: 600 },
  { name: 'compare-alloc-3x', mode: 'workstation', scenario: 'churn,churn,churn', pauseMs: 200 },
];

for (const r of COMPARE_RUNS) {
  const file = join(out, `${r.name}.nettrace`);
  const run = await recordWorkload({
    mode: r.mode,
    out: file,
    profile: 'gc-collect',
    scenario: r.scenario,
    seconds: 15,
    ...(r.pauseMs !== undefined ? { extraArgs: ['--pause-ms', String(r.pauseMs)] } : {}),
  });
  console.log(`${file}: gen0 ${run.counts.exactGen0}, gen1 ${run.counts.exactGen1}, gen2 ${run.counts.exactGen2}`);
}
