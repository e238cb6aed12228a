/**
 * Import throughput and memory: `npm run bench:import [-- --size-mb 500]`.
 * Records (once, not committed) a large gc-verbose trace from the workload until it is at least
 * --size-mb, then measures in fresh processes, for it and the GC-heavy fixture traces:
 *   decode   reader only (time-ordered events, no analysis)
 *   import   reader → analyzer → SQLite store (a fresh database file)
 * and prints MB/s (best run of several in one fresh process), the ratio import/decode (budget
 * ≥ 1/2) and each process's peak RSS (budget: import under 300 MB whatever the trace size).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../src-main/store/db.js';
import { importTrace } from '../src-main/recording/importer.js';
import { readTraceFile } from '../src-main/recording/trace-file.js';
import { traceBytes, unzippedName } from '../test/helpers/fixtures.js';
import { recordWorkload } from '../test/workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'bench');
mkdirSync(OUT, { recursive: true });
const arg = (n: string, d: string): string => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1]! : d;
};

const child = process.argv.indexOf('--measure');
if (child >= 0) {
  const [mode, path, runs] = [process.argv[child + 1]!, process.argv[child + 2]!, Number(process.argv[child + 3] ?? 1)];
  let best = Infinity;
  let events = 0;
  let gcs = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    if (mode === 'decode') {
      events = (await readTraceFile(path, {})).eventCount;
    } else {
      const dbPath = join(OUT, `bench-${process.pid}.db`);
      rmSync(dbPath, { force: true });
      const db = await Database.open(dbPath);
      const r = await importTrace(db, path, { force: true });
      events = r.eventCount;
      gcs = r.gcCount;
      await db.close();
      rmSync(dbPath, { force: true });
      rmSync(dbPath + '-wal', { force: true });
      rmSync(dbPath + '-shm', { force: true });
    }
    best = Math.min(best, performance.now() - t0);
  }
  process.stdout.write(JSON.stringify({ ms: best, events, gcs, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const large = join(OUT, 'large-gc-verbose.nettrace');
const sizeMB = Number(arg('--size-mb', '500'));
if (!existsSync(large) || statSync(large).size < sizeMB * 1e6) {
  let iterations = 8;
  for (;;) {
    console.log(`recording the workload (concurrent GC, gc-verbose, ${iterations} iterations)…`);
    await recordWorkload({ mode: 'concurrent', out: large, scenario: 'mixed', iterations, profile: 'gc-verbose' });
    const mb = statSync(large).size / 1e6;
    console.log(`  ${mb.toFixed(0)} MB`);
    if (mb >= sizeMB) break;
    iterations = Math.ceil((iterations * sizeMB * 1.1) / mb);
  }
}

const files = [large];
for (const f of ['eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 'workload-datas.nettrace.zip']) {
  const p = join(OUT, unzippedName(f));
  if (!existsSync(p)) writeFileSync(p, traceBytes(f));
  files.push(p);
}
const self = new URL(import.meta.url).pathname;
for (const f of files) {
  const mb = statSync(f).size / 1e6;
  const run = (mode: string): { ms: number; events: number; gcs: number; maxRssMB: number } => {
    // Best of several runs in one fresh process (warm JIT), as bench/decode does.
    const n = mb > 100 ? 2 : 10;
    return JSON.parse(execFileSync(process.execPath, [...process.execArgv, self, '--measure', mode, f, String(n)], { encoding: 'utf8', maxBuffer: 1 << 20 }));
  };
  const d = run('decode');
  const im = run('import');
  console.log(`${f.split('/').pop()} (${mb.toFixed(1)} MB, ${d.events.toLocaleString('en-US')} events, ${im.gcs.toLocaleString('en-US')} GCs)`);
  console.log(`  decode  ${d.ms.toFixed(0).padStart(7)} ms ${(mb / (d.ms / 1000)).toFixed(0).padStart(6)} MB/s  peak RSS ${d.maxRssMB.toFixed(0)} MB`);
  console.log(
    `  import  ${im.ms.toFixed(0).padStart(7)} ms ${(mb / (im.ms / 1000)).toFixed(0).padStart(6)} MB/s  peak RSS ${im.maxRssMB.toFixed(0)} MB  ratio import/decode ${(d.ms / im.ms).toFixed(2)}`,
  );
}
