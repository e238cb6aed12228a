/**
 * Records fresh .nettrace files from the GC workload with the runtime's own EventPipe output:
 *   npm run record-workload -- [--out DIR] [--runtime net8.0|net9.0|net10.0|all]
 *                              [--mode workstation|concurrent|server|datas|all]
 *                              [--scenario mixed] [--iterations N] [--seconds S] [--profile gc-verbose|gc-collect]
 * Prints one line per trace with the workload's own per-generation collection counts.
 *
 * The problem traces (issue 13: test/fixtures/traces/problem-<mode>.nettrace.zip):
 *   npm run record-workload -- --problems all|MODE[,MODE...] [--fixtures] [--out DIR] [--loaded]
 * records each problem mode (PROBLEM_MODES) on .NET 10 in the default GC mode (workstation,
 * background GC) for PROBLEM_SECONDS, GC keyword at Verbose (gc-verbose), at the highest CPU
 * priority when the machine allows it (highPriorityPrefix). --fixtures also stores each zipped in
 * test/fixtures/traces with the workload's own counts beside it (.counts.json). Each recording's
 * findings are printed; one that lacks its warning, or shows another problem's, is flagged and
 * the command exits 1. --loaded (issue 39) records while other work keeps every core busy
 * (startCpuLoad), at normal priority, for twice PROBLEM_SECONDS (the workload then gets about half
 * the CPU), into problem-<mode>-loaded.nettrace: the findings must be the same on a busy machine.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { TRACES } from '../helpers/fixtures.js';
import {
  recordWorkload,
  highPriorityPrefix,
  type GcMode,
  type ProblemMode,
  type Runtime,
  OUTPUT_DIR,
  EVENTPIPE_CONFIGS,
  RUNTIMES,
  DEFAULT_RUNTIME,
  PROBLEM_GC_MODE,
  PROBLEM_COMPANIONS,
  PROBLEM_FINDING,
  PROBLEM_MODES,
  CAUSE_FINDINGS,
  startCpuLoad,
  PROBLEM_SECONDS,
} from './workload.js';

const args = process.argv.slice(2);
const arg = (n: string): string | undefined => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = arg('--out') ?? join(OUTPUT_DIR, 'traces');
const problemsArg = arg('--problems');
if (problemsArg !== undefined) {
  const problems = (problemsArg === 'all' ? [...PROBLEM_MODES] : problemsArg.split(',')) as ProblemMode[];
  const unknown = problems.filter((p) => !PROBLEM_MODES.includes(p));
  if (unknown.length > 0) throw new Error(`--problems: unknown mode ${unknown.join(', ')}; modes are ${PROBLEM_MODES.join(', ')} or all`);
  const loaded = args.includes('--loaded');
  const prefix = loaded ? [] : await highPriorityPrefix();
  if (!loaded && prefix.length === 0)
    console.log("note: cannot raise the workload's priority here (nice -n -20 needs root); other work on this machine may show up as random long pauses");
  mkdirSync(out, { recursive: true });
  for (const problem of problems) {
    const name = `problem-${problem}${loaded ? '-loaded' : ''}.nettrace`;
    const file = join(out, name);
    const stopLoad = loaded ? startCpuLoad() : undefined;
    let run;
    try {
      // Loaded, the workload gets about half the CPU it asks for: twice as long, it does the work an idle run does.
      const seconds = PROBLEM_SECONDS[problem] * (loaded ? 2 : 1);
      run = await recordWorkload({ mode: PROBLEM_GC_MODE, out: file, profile: 'gc-verbose', scenario: problem, seconds, prefix });
    } finally {
      stopLoad?.();
    }
    let stored = '';
    if (args.includes('--fixtures')) {
      const zip = zipSync({ [name]: new Uint8Array(readFileSync(file)) }, { level: 9 });
      writeFileSync(join(TRACES, `${name}.zip`), zip);
      writeFileSync(join(TRACES, name.replace(/\.nettrace$/, '.counts.json')), JSON.stringify(run.counts, null, 2) + '\n');
      stored = `; stored ${name}.zip (${zip.length.toLocaleString('en-US')} bytes)`;
    }
    console.log(`${file}: gen0 ${run.counts.exactGen0}, gen1 ${run.counts.exactGen1}, gen2 ${run.counts.exactGen2}${stored}`);
    // What the diagnosis makes of it, so a recording that does not show its problem (or shows
    // another one) is seen at once rather than when the acceptance test runs.
    const { findings } = await reportFromFile(file);
    for (const f of findings) console.log(`  ${f.severity.padEnd(7)} ${f.score.toFixed(1).padStart(5)}  ${f.id}: ${f.title}`);
    const warned = findings.filter((f) => f.severity === 'warning').map((f) => f.id);
    const want = PROBLEM_FINDING[problem];
    const expected = want === null ? [] : [want];
    const companions: readonly string[] = PROBLEM_COMPANIONS[problem] ?? [];
    const otherProblems = warned.filter((id) => id !== want && !companions.includes(id) && CAUSE_FINDINGS.includes(id));
    if (!expected.every((id) => warned.includes(id)) || otherProblems.length > 0 || (want === null && warned.length > 0)) {
      console.log(
        `  UNEXPECTED: ${problem} should raise ${want !== null ? `the ${want} warning` : 'no warning'} and no other problem's warning; record it again (test/diagnosis/problem-workloads.test.ts will fail on it)`,
      );
      process.exitCode = 1;
    }
  }
  process.exit();
}
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
    console.log(
      `${file}: gen0 ${run.counts.exactGen0}, gen1 ${run.counts.exactGen1}, gen2 ${run.counts.exactGen2} (GC.CollectionCount(0) = ${run.counts.gen0})`,
    );
  }
}
