/**
 * Regenerates the golden files in test/oracle/golden/ from TraceEvent itself:
 *   npm run oracle:goldens [-- --skip-record] [-- --runtime net8.0,net9.0,net10.0]
 * 1. Records fresh traces from the workload on each runtime (default: all three) in four GC modes
 *    (workstation non-concurrent, workstation with background GCs, Server GC, DATAS) and stores
 *    them zipped as fixtures (test/fixtures/traces/workload[-net8|-net9]-*.nettrace.zip, see
 *    workloadTraceName) — the goldens are only valid with them.
 * 2. Builds test/oracle/GcOracle (TraceEvent from NuGet) and runs it over every fixture trace
 *    with GCs, writing <trace>.gcs.csv (one row per GC) and <trace>.rollup.csv.
 * 3. For the call-stack traces (STACK_ORACLE_TRACES), TraceLog's resolved stacks and TraceEvent's
 *    AllocationTick sums: <trace>.stacks.jsonl and <trace>.alloc-types.csv.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { ALL_TRACES, PROBLEM_TRACES, STACK_ORACLE_TRACES, TRACES, WORKLOAD_TRACES, traceBytes, unzippedName, workloadTraceName } from '../helpers/fixtures.js';
import { recordWorkload, OUTPUT_DIR, RUNTIMES, type GcMode, type Runtime } from '../workloads/workload.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const GOLDEN = join(HERE, 'golden');
const MODES: GcMode[] = ['workstation', 'concurrent', 'server', 'datas'];
const runtimeArg = process.argv.indexOf('--runtime');
const runtimes = (runtimeArg >= 0 ? process.argv[runtimeArg + 1]!.split(',') : [...RUNTIMES]) as Runtime[];
if (!runtimes.every((r) => RUNTIMES.includes(r))) throw new Error(`--runtime takes a comma-separated list of ${RUNTIMES.join(', ')}`);

mkdirSync(GOLDEN, { recursive: true });
const tmp = join(OUTPUT_DIR, 'oracle');
mkdirSync(tmp, { recursive: true });

if (!process.argv.includes('--skip-record')) {
  for (const runtime of runtimes) {
    for (const mode of MODES) {
      const name = unzippedName(workloadTraceName(runtime, mode));
      const raw = join(tmp, name);
      const run = await recordWorkload({ mode, runtime, out: raw, scenario: 'mixed', iterations: 1 });
      const zip = zipSync({ [name]: new Uint8Array(readFileSync(raw)) }, { level: 9 });
      writeFileSync(join(TRACES, `${name}.zip`), zip);
      writeFileSync(join(TRACES, name.replace(/\.nettrace$/, '.counts.json')), JSON.stringify(run.counts, null, 2) + '\n');
      console.log(`recorded ${runtime} ${mode}: ${run.counts.gen0} GCs, ${(zip.length / 1e6).toFixed(2)} MB zipped`);
    }
  }
}

const bin = join(tmp, 'bin');
execFileSync('dotnet', ['build', join(HERE, 'GcOracle'), '-c', 'Release', '-o', bin, '--nologo', '-v', 'q'], { stdio: 'inherit' });
for (const name of [...ALL_TRACES, ...WORKLOAD_TRACES, ...PROBLEM_TRACES]) {
  if (name.includes('objver2')) continue; // refused by TraceEvent and by us
  const file = join(tmp, unzippedName(name));
  writeFileSync(file, traceBytes(name));
  const gcs = execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (gcs.trim().split('\n').length <= 1) continue; // no GCs: nothing to compare
  writeFileSync(join(GOLDEN, `${unzippedName(name)}.gcs.csv`), gcs);
  writeFileSync(join(GOLDEN, `${unzippedName(name)}.rollup.csv`), execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file, '--rollup'], { encoding: 'utf8' }));
  // LOH allocation waits (TraceGC.LOHWaitThreads): only for traces that have any.
  const waits = execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file, '--loh-waits'], { encoding: 'utf8' });
  if (waits.trim().split('\n').length > 1) writeFileSync(join(GOLDEN, `${unzippedName(name)}.loh-waits.csv`), waits);
  console.log(`golden: ${name} (${gcs.trim().split('\n').length - 1} GCs)`);
}
for (const name of STACK_ORACLE_TRACES) {
  const file = join(tmp, unzippedName(name));
  writeFileSync(file, traceBytes(name));
  writeFileSync(
    join(GOLDEN, `${unzippedName(name)}.stacks.jsonl`),
    execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file, '--stacks'], { encoding: 'utf8', maxBuffer: 64 << 20 }),
  );
  writeFileSync(
    join(GOLDEN, `${unzippedName(name)}.alloc-types.csv`),
    execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file, '--alloc-types'], { encoding: 'utf8' }),
  );
  console.log(`stacks golden: ${name}`);
}
