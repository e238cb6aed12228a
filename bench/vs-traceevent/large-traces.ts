/**
 * The large gc-verbose traces the vs-TraceEvent benchmark reads, recorded from the workload
 * (test/workloads) with the runtime's own EventPipe file output, not committed (test-output/):
 *   large-pin-alloc.nettrace   ≥ 100 MB: the `pin` and `churn` scenarios (pinned handles alive
 *                              across GCs → GC/PinObjectAtGCTime per pinned object per GC, and a
 *                              steady stream of AllocationTicks), workstation concurrent GC;
 *   huge-pin-alloc.nettrace    ≥ 1 GB, the same scenarios, for the memory goal;
 *   dense-churn.nettrace       small and GC-dense (issue 15's third goal: a few MB, ≥ 1,000 GCs):
 *                              the `churn` scenario with a 4 MB gen0 budget (DOTNET_GCgen0size),
 *                              so a GC comes every ~4 MB allocated, ~40 AllocationTicks apart.
 * A trace already there and big enough is reused. Iterations grow until the file is big enough
 * (the workload writes ~0.11 MB of trace per iteration).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildWorkload, OUTPUT_DIR, recordWorkload } from '../../test/workloads/workload.js';

export const LARGE_DIR = join(OUTPUT_DIR, 'vs-traceevent');

export interface LargeTrace {
  path: string;
  minMB: number;
}

export const LARGE: LargeTrace = { path: join(LARGE_DIR, 'large-pin-alloc.nettrace'), minMB: 100 };
export const HUGE: LargeTrace = { path: join(LARGE_DIR, 'huge-pin-alloc.nettrace'), minMB: 1000 };

export const DENSE = { path: join(LARGE_DIR, 'dense-churn.nettrace'), minGCs: 1000 };

const sizeMB = (p: string): number => (existsSync(p) ? statSync(p).size / 1e6 : 0);

/** Records `t` unless a big enough copy exists; returns its path. */
export async function ensureLargeTrace(t: LargeTrace, log: (s: string) => void = console.log): Promise<string> {
  mkdirSync(LARGE_DIR, { recursive: true });
  if (sizeMB(t.path) >= t.minMB) return t.path;
  await buildWorkload();
  let iterations = Math.ceil(t.minMB * 9.5);
  for (;;) {
    log(`recording ${t.path} (scenarios pin,churn, workstation concurrent GC, gc-verbose, ${iterations} iterations)…`);
    const run = await recordWorkload({ mode: 'concurrent', out: t.path, scenario: 'pin,churn', iterations, profile: 'gc-verbose' });
    const mb = sizeMB(t.path);
    log(`  ${mb.toFixed(0)} MB, ${run.counts.gen0} GCs`);
    if (mb >= t.minMB) return t.path;
    iterations = Math.ceil((iterations * t.minMB * 1.1) / Math.max(mb, 1));
  }
}

/**
 * Records the dense trace unless it exists; returns its path. 60 iterations make ~6 MB and
 * ~1,250 GCs here; more are recorded if a runtime collects less often.
 */
export async function ensureDenseTrace(log: (s: string) => void = console.log): Promise<string> {
  mkdirSync(LARGE_DIR, { recursive: true });
  if (existsSync(DENSE.path)) return DENSE.path;
  await buildWorkload();
  for (let iterations = 60; ; iterations *= 2) {
    log(`recording ${DENSE.path} (scenario churn, gen0 budget 4 MB, gc-verbose, ${iterations} iterations)…`);
    const run = await recordWorkload({
      mode: 'concurrent',
      out: DENSE.path,
      scenario: 'churn',
      iterations,
      profile: 'gc-verbose',
      extraEnv: { DOTNET_GCgen0size: '0x400000' },
    });
    log(`  ${sizeMB(DENSE.path).toFixed(1)} MB, ${run.counts.gen0} GCs`);
    if (run.counts.gen0 >= DENSE.minGCs || iterations >= 960) return DENSE.path;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv.includes('--huge') ? [LARGE, HUGE] : [LARGE];
  for (const t of which) console.log(await ensureLargeTrace(t));
}
