/**
 * Live recording benchmarks: `npm run bench:live`.
 * 1. Latency: the workload (--gc-log) prints the wall-clock time at which it saw each GC finish;
 *    we record it and note when the GC's row is readable in the database (polled from a second
 *    connection every 5 ms) and when its live batch arrives. Prints median and p95. The runtime
 *    itself only flushes its event buffers about every 100 ms; the budget is p95 < 250 ms beyond that.
 * 2. Overhead: workload throughput (rounds of gen0 churn per second over a fixed time) with and
 *    without a gc-collect session attached, alternating runs. Budget: < 1 %.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LiveRecorder } from '../src-main/recording/live-recorder.js';
import { Database } from '../src-main/store/db.js';
import { percentile } from '../src-main/gc/rollup.js';
import { buildWorkload, parseWorkloadOutput, WORKLOAD_DLL } from '../test/workloads/workload.js';

const OUT = join(process.cwd(), 'test-output', 'bench-live');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await buildWorkload();

// ---- latency
{
  const dbPath = join(OUT, 'latency.db');
  const db = await Database.open(dbPath);
  const watcher = await Database.open(dbPath, { readonly: true });
  const batchAt = new Map<number, number>();
  const dbAt = new Map<number, number>();
  let out = '';
  const rec = new LiveRecorder(db, {
    target: {
      launch: {
        command: 'dotnet',
        args: [WORKLOAD_DLL, '--scenario', 'churn,survivors,loh', '--seconds', '8', '--pause-ms', '40', '--gc-log'],
        env: { DOTNET_gcServer: '0' },
      },
    },
    profile: 'gc-collect',
    outDir: OUT,
    onBatch: (b) => {
      const now = Date.now();
      // The first batch with a GC (a GC whose values change later is sent again).
      for (const n of b.gcs.number) if (!batchAt.has(n)) batchAt.set(n, now);
    },
    onTargetOutput: (s, d) => (out += s === 'stdout' ? d.toString() : ''),
  });
  await rec.start();
  let polling = true;
  const poll = (async () => {
    let last = 0;
    while (polling) {
      const r = await watcher.get<{ n: number | null }>('SELECT MAX(number) AS n FROM gcs WHERE session_id = ?', [rec.sessionId]);
      const n = r?.n ?? 0;
      const now = Date.now();
      for (let k = last + 1; k <= n; k++) dbAt.set(k, now);
      last = Math.max(last, n);
      await new Promise((res) => setTimeout(res, 5));
    }
  })();
  await rec.done();
  polling = false;
  await poll;
  const gcAt = parseWorkloadOutput(out).gcSeenAt;
  const lat = (m: Map<number, number>): number[] =>
    [...gcAt]
      .filter(([n]) => m.has(n))
      .map(([n, t]) => m.get(n)! - t)
      .sort((a, b) => a - b);
  const d = lat(dbAt);
  const b = lat(batchAt);
  console.log(`latency over ${gcAt.size} GCs (workload saw the GC end → GCScope)`);
  console.log(`  row readable in the database: median ${percentile(d, 50)} ms, p95 ${percentile(d, 95)} ms (n=${d.length})`);
  console.log(`  live batch delivered:         median ${percentile(b, 50)} ms, p95 ${percentile(b, 95)} ms (n=${b.length})`);
  console.log('  (the runtime flushes its EventPipe buffers about every 100 ms; that delay is included above)');
  await watcher.close();
  await db.close();
}

// ---- overhead
async function throughput(attached: boolean): Promise<number> {
  const args = [WORKLOAD_DLL, '--scenario', 'churn', '--seconds', '6'];
  let out = '';
  if (attached) {
    const db = await Database.open(join(OUT, 'overhead.db'));
    const rec = new LiveRecorder(db, {
      target: { launch: { command: 'dotnet', args, env: { DOTNET_gcServer: '0' } } },
      profile: 'gc-collect',
      outDir: OUT,
      onTargetOutput: (s, d) => (out += s === 'stdout' ? d.toString() : ''),
    });
    await rec.start();
    await rec.done();
    await db.close();
  } else {
    const child = spawn('dotnet', args, { env: { ...process.env, DOTNET_gcServer: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => child.once('exit', r));
  }
  const c = parseWorkloadOutput(out).counts as unknown as { rounds: number; elapsedMs: number };
  return (c.rounds / c.elapsedMs) * 1000;
}
const base: number[] = [];
const with_: number[] = [];
for (let i = 0; i < Number(process.env.OVERHEAD_RUNS ?? 4); i++) {
  base.push(await throughput(false));
  with_.push(await throughput(true));
}
const med = (a: number[]): number => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(`overhead (gen0 churn, 6 s runs, alternating, median of ${base.length})`);
console.log(`  without GCScope: ${med(base).toFixed(2)} rounds/s  [${base.map((x) => x.toFixed(2)).join(', ')}]`);
console.log(`  with gc-collect: ${med(with_).toFixed(2)} rounds/s  [${with_.map((x) => x.toFixed(2)).join(', ')}]`);
console.log(`  throughput cost: ${(((med(base) - med(with_)) / med(base)) * 100).toFixed(2)} %`);
