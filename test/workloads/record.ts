/**
 * Records fresh .nettrace files from the GC workload with the runtime's own EventPipe output:
 *   npm run record-workload -- [--out DIR] [--runtime net8.0|net9.0|net10.0|all]
 *                              [--mode workstation|concurrent|server|datas|all]
 *                              [--scenario mixed] [--iterations N] [--seconds S] [--profile gc-verbose|gc-collect]
 * Prints one line per trace with the workload's own per-generation collection counts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { recordWorkload, type GcMode, type Runtime, OUTPUT_DIR, EVENTPIPE_CONFIGS, RUNTIMES, DEFAULT_RUNTIME } from './workload.js';

const args = process.argv.slice(2);
const arg = (n: string): string | undefined => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = arg('--out') ?? join(OUTPUT_DIR, 'traces');
const modeArg = arg('--mode') ?? 'all';
const modes: GcMode[] = modeArg === 'all' ? ['workstation', 'concurrent', 'server', 'datas'] : [modeArg as GcMode];
const runtimeArg = arg('--runtime') ?? DEFAULT_RUNTIME;
const runtimes: readonly Runtime[] = runtimeArg === 'all' ? RUNTIMES : [runtimeArg as Runtime];
if (!runtimes.every((r) => RUNTIMES.includes(r))) throw new Error(`--runtime must be one of ${RUNTIMES.join(', ')} or all`);
const profile = (arg('--profile') ?? 'gc-verbose') as keyof typeof EVENTPIPE_CONFIGS;
mkdirSync(out, { recursive: true });
for (const runtime of runtimes) {
  for (const mode of modes) {
    const file = join(out, `workload-${runtime}-${mode}-${profile}.nettrace`);
    const seconds = arg('--seconds');
    const run = await recordWorkload({
      mode,
      runtime,
      out: file,
      profile,
      scenario: arg('--scenario') ?? 'mixed',
      iterations: Number(arg('--iterations') ?? 2),
      ...(seconds !== undefined ? { seconds: Number(seconds) } : {}),
    });
    console.log(`${file}: gen0 ${run.counts.exactGen0}, gen1 ${run.counts.exactGen1}, gen2 ${run.counts.exactGen2} (GC.CollectionCount(0) = ${run.counts.gen0})`);
  }
}
