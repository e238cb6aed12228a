/**
 * GCScope against TraceEvent, whole processes: `npm run bench:vs-traceevent [-- options]`.
 *
 * For each input file and each kind of work, runs the two tools alternately (GCScope first in
 * odd pairs, TraceEvent first in even ones, so a busy machine's drift hits both alike) and
 * prints each pair's wall times and peak RSS, then the median ratio GCScope/TraceEvent:
 *   events  `gcscope events FILE`           vs  EventPipeEventSource dispatching every event (GcOracle --events)
 *   report  `gcscope report FILE --format json`  vs  TraceEvent's GC analysis (GcOracle: NeedLoadedDotNetRuntimes + Stats)
 *   import  `gcscope import FILE --db NEW`  vs  the same TraceEvent GC analysis (TraceEvent has no store)
 * Times include each runtime's startup (node + the bundled CLI; dotnet + the oracle). Peak RSS is
 * GNU time's maximum resident set size of the process.
 *
 * Inputs: the committed fixture traces that have GCs (the oracle's golden set), a small GC-dense
 * trace (~6 MB, ≥ 1,000 GCs) and a ≥ 100 MB and a ≥ 1 GB gc-verbose trace recorded from the
 * workload (large-traces.ts; not committed).
 *
 * Options: --runs N (pairs per large file, default 5), --fixture-runs N (default 3),
 * --huge-runs N (default 1), --modes events,report,import, --inputs fixtures,dense,large,huge
 * (default: all; dense has --runs pairs),
 * --no-build (use dist/ and the oracle build as they are), --file PATH (only this file).
 * Results also go to test-output/vs-traceevent/results-*.json.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { traceBytes } from '../../test/helpers/fixtures.js';
import { ensureDenseTrace, ensureLargeTrace, HUGE, LARGE, LARGE_DIR } from './large-traces.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ORACLE_SRC = join(ROOT, 'test', 'oracle', 'GcOracle');
const ORACLE_BIN = join(LARGE_DIR, 'oracle-bin');
const GOLDEN = join(ROOT, 'test', 'oracle', 'golden');
const FIXTURE_DIR = join(LARGE_DIR, 'fixtures');
const GCSCOPE = join(ROOT, 'bin', 'gcscope.mjs');

const args = process.argv.slice(2);
const arg = (n: string, d: string): string => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1]! : d;
};
const MODES = arg('--modes', 'events,report,import').split(',') as Mode[];
const INPUTS = arg('--inputs', 'fixtures,dense,large,huge').split(',');
const RUNS = {
  dense: Number(arg('--runs', '5')),
  large: Number(arg('--runs', '5')),
  fixtures: Number(arg('--fixture-runs', '3')),
  huge: Number(arg('--huge-runs', '1')),
};

type Mode = 'events' | 'report' | 'import';
type Tool = 'gcscope' | 'traceevent';

interface Run {
  ms: number;
  rssMB: number;
}

interface PairResult {
  file: string;
  sizeMB: number;
  mode: Mode;
  pairs: { gcscope: Run; traceevent: Run }[];
  medianRatio: number;
  medianMs: Record<Tool, number>;
  peakRssMB: Record<Tool, number>;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const uptime = (): string => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`;
  }
};

/** Runs one command under GNU time; wall time from our own clock (ms resolution), peak RSS from time's %M. */
function measure(cmd: string, cmdArgs: string[]): Run {
  const rssFile = join(LARGE_DIR, `rss-${process.pid}.txt`);
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', rssFile, cmd, ...cmdArgs], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const rssText = existsSync(rssFile) ? readFileSync(rssFile, 'utf8') : '';
  rmSync(rssFile, { force: true });
  // GNU time writes "Command exited with non-zero status N" before the figures when it fails.
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status}): ${r.stderr.toString().slice(-2000)}\n${rssText}`);
  const kb = Number(rssText.trim().split('\n').pop());
  return { ms, rssMB: kb / 1024 };
}

function runTool(tool: Tool, mode: Mode, file: string): Run {
  if (tool === 'traceevent') {
    const oracle = join(ORACLE_BIN, 'GcOracle.dll');
    return measure('dotnet', mode === 'events' ? [oracle, file, '--events'] : [oracle, file]);
  }
  if (mode === 'events') return measure(process.execPath, [GCSCOPE, 'events', file]);
  if (mode === 'report') return measure(process.execPath, [GCSCOPE, 'report', file, '--format', 'json']);
  const dir = mkdtempSync(join(LARGE_DIR, 'import-'));
  try {
    return measure(process.execPath, [GCSCOPE, 'import', file, '--db', join(dir, 'bench.db'), '--force']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function comparePairs(file: string, mode: Mode, runs: number): PairResult {
  const pairs: PairResult['pairs'] = [];
  const sizeMB = statSync(file).size / 1e6;
  for (let i = 0; i < runs; i++) {
    const order: Tool[] = i % 2 === 0 ? ['gcscope', 'traceevent'] : ['traceevent', 'gcscope'];
    const got = {} as Record<Tool, Run>;
    for (const tool of order) got[tool] = runTool(tool, mode, file);
    pairs.push(got);
    const g = got.gcscope;
    const t = got.traceevent;
    console.log(
      `    ${mode.padEnd(6)} pair ${i + 1}: gcscope ${g.ms.toFixed(0).padStart(6)} ms ${g.rssMB.toFixed(0).padStart(5)} MB | traceevent ${t.ms.toFixed(0).padStart(6)} ms ${t.rssMB.toFixed(0).padStart(5)} MB | ratio ${(g.ms / t.ms).toFixed(2)}`,
    );
  }
  const res: PairResult = {
    file: basename(file),
    sizeMB,
    mode,
    pairs,
    medianRatio: median(pairs.map((p) => p.gcscope.ms / p.traceevent.ms)),
    medianMs: { gcscope: median(pairs.map((p) => p.gcscope.ms)), traceevent: median(pairs.map((p) => p.traceevent.ms)) },
    peakRssMB: { gcscope: Math.max(...pairs.map((p) => p.gcscope.rssMB)), traceevent: Math.max(...pairs.map((p) => p.traceevent.rssMB)) },
  };
  console.log(
    `    ${mode.padEnd(6)} median: gcscope ${res.medianMs.gcscope.toFixed(0)} ms, traceevent ${res.medianMs.traceevent.toFixed(0)} ms, median ratio ${res.medianRatio.toFixed(2)}; peak RSS gcscope ${res.peakRssMB.gcscope.toFixed(0)} MB, traceevent ${res.peakRssMB.traceevent.toFixed(0)} MB`,
  );
  return res;
}

/** The committed traces the oracle has goldens for (every fixture with GCs), unzipped once. */
function fixtureFiles(): string[] {
  mkdirSync(FIXTURE_DIR, { recursive: true });
  const names = readdirSync(GOLDEN)
    .filter((f) => f.endsWith('.gcs.csv'))
    .map((f) => f.slice(0, -'.gcs.csv'.length))
    .sort();
  const zipped = new Set(readdirSync(join(ROOT, 'test', 'fixtures', 'traces')));
  return names.map((n) => {
    const out = join(FIXTURE_DIR, n);
    if (!existsSync(out)) writeFileSync(out, traceBytes(zipped.has(`${n}.zip`) ? `${n}.zip` : n));
    return out;
  });
}

mkdirSync(LARGE_DIR, { recursive: true });
if (!args.includes('--no-build')) {
  console.log('building dist/ (the bundled CLI) and the TraceEvent oracle…');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--no-renderer'], { stdio: 'inherit' });
  execFileSync('dotnet', ['build', ORACLE_SRC, '-c', 'Release', '-o', ORACLE_BIN, '--nologo', '-v', 'q'], { stdio: 'inherit' });
}
const only = arg('--file', '');
const groups: { name: 'fixtures' | 'dense' | 'large' | 'huge'; files: string[] }[] = [];
if (only !== '') groups.push({ name: statSync(only).size > 5e8 ? 'huge' : 'large', files: [only] });
else {
  if (INPUTS.includes('fixtures')) groups.push({ name: 'fixtures', files: fixtureFiles() });
  if (INPUTS.includes('dense')) groups.push({ name: 'dense', files: [await ensureDenseTrace()] });
  if (INPUTS.includes('large')) groups.push({ name: 'large', files: [await ensureLargeTrace(LARGE)] });
  if (INPUTS.includes('huge')) groups.push({ name: 'huge', files: [await ensureLargeTrace(HUGE)] });
}

const startLoad = uptime();
console.log(`machine: ${startLoad}`);
console.log(`node ${process.version}; ${execFileSync('dotnet', ['--version'], { encoding: 'utf8' }).trim()} SDK; TraceEvent 4.0.0`);
const results: PairResult[] = [];
for (const g of groups) {
  console.log(`\n== ${g.name} (${RUNS[g.name]} pair${RUNS[g.name] === 1 ? '' : 's'} each)`);
  for (const f of g.files) {
    console.log(`  ${basename(f)} (${(statSync(f).size / 1e6).toFixed(1)} MB)`);
    for (const m of MODES) results.push(comparePairs(f, m, RUNS[g.name]));
  }
  if (g.name === 'fixtures' && g.files.length > 1) {
    for (const m of MODES) {
      const rs = results.filter((r) => r.mode === m && g.files.some((f) => basename(f) === r.file));
      console.log(
        `  all fixtures, ${m}: median of the per-file median ratios ${median(rs.map((r) => r.medianRatio)).toFixed(2)} (range ${Math.min(...rs.map((r) => r.medianRatio)).toFixed(2)}–${Math.max(...rs.map((r) => r.medianRatio)).toFixed(2)})`,
      );
    }
  }
}
const endLoad = uptime();
console.log(`\nmachine at the end: ${endLoad}`);
console.log('\nsummary (median ratio GCScope/TraceEvent; < 1 is faster; peak RSS GCScope vs TraceEvent):');
for (const r of results) {
  console.log(
    `  ${r.file.padEnd(48)} ${r.mode.padEnd(6)} ${r.medianRatio.toFixed(2).padStart(5)}   ${r.medianMs.gcscope.toFixed(0).padStart(6)} vs ${r.medianMs.traceevent.toFixed(0).padStart(6)} ms   ${r.peakRssMB.gcscope.toFixed(0).padStart(5)} vs ${r.peakRssMB.traceevent.toFixed(0).padStart(5)} MB`,
  );
}
const out = join(LARGE_DIR, `results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ startLoad, endLoad, node: process.version, results }, null, 2));
console.log(`\nresults: ${out}`);
