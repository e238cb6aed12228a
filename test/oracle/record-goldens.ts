/**
 * Regenerates the golden files in test/oracle/golden/ from TraceEvent itself:
 *   npm run oracle:goldens [-- --skip-record]
 * 1. Records fresh traces from the workload in four GC modes (workstation non-concurrent,
 *    workstation with background GCs, Server GC, DATAS) and stores them zipped as fixtures
 *    (test/fixtures/traces/workload-*.nettrace.zip) — the goldens are only valid with them.
 * 2. Builds test/oracle/GcOracle (TraceEvent from NuGet) and runs it over every fixture trace
 *    with GCs, writing <trace>.gcs.csv (one row per GC) and <trace>.rollup.csv.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { ALL_TRACES, TRACES, traceBytes, unzippedName } from '../helpers/fixtures.js';
import { recordWorkload, OUTPUT_DIR, type GcMode } from '../workloads/workload.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const GOLDEN = join(HERE, 'golden');
const MODES: GcMode[] = ['workstation', 'concurrent', 'server', 'datas'];
export const WORKLOAD_TRACES = MODES.map((m) => `workload-${m}.nettrace.zip`);

mkdirSync(GOLDEN, { recursive: true });
const tmp = join(OUTPUT_DIR, 'oracle');
mkdirSync(tmp, { recursive: true });

if (!process.argv.includes('--skip-record')) {
  for (const mode of MODES) {
    const raw = join(tmp, `workload-${mode}.nettrace`);
    const run = await recordWorkload({ mode, out: raw, scenario: 'mixed', iterations: 1 });
    const zip = zipSync({ [`workload-${mode}.nettrace`]: new Uint8Array(readFileSync(raw)) }, { level: 9 });
    writeFileSync(join(TRACES, `workload-${mode}.nettrace.zip`), zip);
    writeFileSync(join(TRACES, `workload-${mode}.counts.json`), JSON.stringify(run.counts, null, 2) + '\n');
    console.log(`recorded ${mode}: ${run.counts.gen0} GCs, ${(zip.length / 1e6).toFixed(2)} MB zipped`);
  }
}

const bin = join(tmp, 'bin');
execFileSync('dotnet', ['build', join(HERE, 'GcOracle'), '-c', 'Release', '-o', bin, '--nologo', '-v', 'q'], { stdio: 'inherit' });
for (const name of [...ALL_TRACES, ...WORKLOAD_TRACES]) {
  if (name.includes('objver2')) continue; // refused by TraceEvent and by us
  const file = join(tmp, unzippedName(name));
  writeFileSync(file, traceBytes(name));
  const gcs = execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (gcs.trim().split('\n').length <= 1) continue; // no GCs: nothing to compare
  writeFileSync(join(GOLDEN, `${unzippedName(name)}.gcs.csv`), gcs);
  writeFileSync(join(GOLDEN, `${unzippedName(name)}.rollup.csv`), execFileSync('dotnet', [join(bin, 'GcOracle.dll'), file, '--rollup'], { encoding: 'utf8' }));
  console.log(`golden: ${name} (${gcs.trim().split('\n').length - 1} GCs)`);
}
