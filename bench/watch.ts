/**
 * Flight-recorder overhead: `npm run bench:watch`.
 *
 * Workload throughput (rounds of gen0 churn per second over 6 s, the workload's own count) with
 * nothing attached, with a watch whose trigger never fires (the steady state: gc-collect session,
 * every GC stored, the raw ring kept), and with a watch capturing every 2 s (a capture = ring
 * snapshot + post-roll + file + import). Runs alternate; medians are compared. Goal (docs/contract.md
 * budgets, issue 17): < 1 % throughput cost for the steady state.
 *
 * Also prints what the ring costs: raw bytes per second of the gc-collect stream and the ring's
 * size at the end of the run, and the GC rate. Wall-clock figures on a shared machine are noisy:
 * the load average is printed with them (OVERHEAD_RUNS=N for more rounds).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WATCH_SETTINGS } from '../src-main/shared/capture.js';
import { Database } from '../src-main/store/db.js';
import { Watcher } from '../src-main/watch/watcher.js';
import { buildWorkload, parseWorkloadOutput, WORKLOAD_DLL } from '../test/workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'bench-watch');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await buildWorkload();

type Mode = 'none' | 'watch' | 'capturing';
interface Run {
  roundsPerSec: number;
  /** Rounds per CPU second of the target (all its threads): what the session costs it, less sensitive to the machine's load. */
  roundsPerCpuSec: number;
  /** CPU time GCScope (this process) spent during the run, per second of run. */
  ownCpuMsPerSec: number;
  gcs: number;
  ringBytes: number;
  streamBytes: number;
  captures: number;
}

let dbN = 0;
async function run(mode: Mode): Promise<Run> {
  const child = spawn('dotnet', [WORKLOAD_DLL, '--scenario', 'churn', '--seconds', '6', '--wait-for-input'], {
    env: { ...process.env, DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  while (parseWorkloadOutput(out).pid === undefined) await new Promise((r) => setTimeout(r, 20));
  const exited = new Promise((r) => child.once('exit', r));
  let watcher: Watcher | undefined;
  let db: Database | undefined;
  let streamBytes = 0;
  if (mode !== 'none') {
    db = await Database.open(join(OUT, `watch-${dbN++}.db`));
    watcher = new Watcher(db, {
      ...DEFAULT_WATCH_SETTINGS,
      ...(mode === 'watch' ? { triggers: ['pause>10s'] } : { triggers: ['gen>=0'], cooldownSec: 2, maxPerHour: 1000, beforeSec: 2, afterSec: 0.5 }),
      pid: child.pid!,
      outDir: join(OUT, 'captures'),
      onBatch: (b) => (streamBytes = b.bytes),
    });
    await watcher.start();
  }
  const cpu0 = process.cpuUsage();
  child.stdin.end('\n');
  await exited;
  const cpu = process.cpuUsage(cpu0);
  let gcs = 0;
  let captures = 0;
  let ringBytes = 0;
  if (watcher !== undefined) {
    const r = await watcher.done();
    gcs = r.lastRecording?.gcCount ?? 0;
    captures = r.captures.length;
    ringBytes = watcher.ringStats?.ringBytes ?? 0;
    await db!.close();
  }
  const c = parseWorkloadOutput(out).counts as unknown as { rounds: number; elapsedMs: number; cpuMs: number };
  return {
    roundsPerSec: (c.rounds / c.elapsedMs) * 1000,
    roundsPerCpuSec: (c.rounds / c.cpuMs) * 1000,
    ownCpuMsPerSec: mode === 'none' ? 0 : (cpu.user + cpu.system) / 1000 / (c.elapsedMs / 1000),
    gcs,
    ringBytes,
    streamBytes,
    captures,
  };
}

const runs: Record<Mode, Run[]> = { none: [], watch: [], capturing: [] };
const loadBefore = loadavg();
for (let i = 0; i < Number(process.env.OVERHEAD_RUNS ?? 4); i++) {
  for (const m of ['none', 'watch', 'capturing'] as const) runs[m].push(await run(m));
}
const loadAfter = loadavg();
const med = (a: number[]): number => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
const base = med(runs.none.map((r) => r.roundsPerSec));
const baseCpu = med(runs.none.map((r) => r.roundsPerCpuSec));
console.log(
  `watch overhead (gen0 churn, 6 s runs, alternating, median of ${runs.none.length}; load average ${loadBefore[0]!.toFixed(2)} before, ${loadAfter[0]!.toFixed(2)} after, 2 CPUs)`,
);
for (const m of ['none', 'watch', 'capturing'] as const) {
  const rs = runs[m];
  const v = med(rs.map((r) => r.roundsPerSec));
  const label = m === 'none' ? 'nothing attached     ' : m === 'watch' ? 'watch, no trigger hit' : 'watch, capture every 2 s';
  console.log(
    `  ${label}: ${v.toFixed(2)} rounds/s  [${rs.map((r) => r.roundsPerSec.toFixed(2)).join(', ')}]${m === 'none' ? '' : `  cost ${(((base - v) / base) * 100).toFixed(2)} %`}`,
  );
  const vc = med(rs.map((r) => r.roundsPerCpuSec));
  console.log(
    `      per CPU second of the target: ${vc.toFixed(2)} rounds  [${rs.map((r) => r.roundsPerCpuSec.toFixed(2)).join(', ')}]${m === 'none' ? '' : `  cost ${(((baseCpu - vc) / baseCpu) * 100).toFixed(2)} %; GCScope itself: ${med(rs.map((r) => r.ownCpuMsPerSec)).toFixed(0)} ms CPU per s`}`,
  );
  if (m !== 'none') {
    const r = rs[rs.length - 1]!;
    console.log(
      `      last run: ${r.gcs} GCs (${(r.gcs / 6).toFixed(0)}/s), stream ${(r.streamBytes / 6 / 1024).toFixed(1)} KB/s, ring ${(r.ringBytes / 1024).toFixed(0)} KB at the end, ${r.captures} captures`,
    );
  }
}
