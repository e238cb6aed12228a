/**
 * Records fresh .nettrace files from the GC workload with the runtime's own EventPipe output:
 *   npm run record-workload -- [--out DIR] [--mode workstation|concurrent|server|datas|all]
 *                              [--scenario mixed] [--iterations N] [--seconds S] [--profile gc-verbose|gc-collect]
 * Prints one line per trace with the workload's own per-generation collection counts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { recordWorkload, type GcMode, OUTPUT_DIR, EVENTPIPE_CONFIGS } from './workload.js';

const args = process.argv.slice(2);
const arg = (n: string): string | undefined => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = arg('--out') ?? join(OUTPUT_DIR, 'traces');
const modeArg = arg('--mode') ?? 'all';
const modes: GcMode[] = modeArg === 'all' ? ['workstation', 'concurrent', 'server', 'datas'] : [modeArg as GcMode];
const profile = (arg('--profile') ?? 'gc-verbose') as keyof typeof EVENTPIPE_CONFIGS;
mkdirSync(out, { recursive: true });
for (const mode of modes) {
  const file = join(out, `workload-${mode}-${profile}.nettrace`);
  const seconds = arg('--seconds');
  const run = await recordWorkload({
    mode,
    out: file,
    profile,
    scenario: arg('--scenario') ?? 'mixed',
    iterations: Number(arg('--iterations') ?? 2),
    ...(seconds !== undefined ? { seconds: Number(seconds) } : {}),
  });
  console.log(`${file}: gen0 ${run.counts.exactGen0}, gen1 ${run.counts.exactGen1}, gen2 ${run.counts.exactGen2} (GC.CollectionCount(0) = ${run.counts.gen0})`);
}
