/**
 * What recording requests costs (issue 42): `npm run bench:requests`.
 * The ASP.NET Core test app (test/workloads/RequestsApp, default GC: workstation concurrent) under
 * a fixed load from this process — 8 keep-alive connections, 3 of 4 requests /fast and 1 of 4
 * /alloc?kb=64 — measured as the client sees it (requests per second, p50 and p99 latency) in three
 * configurations, each on a fresh app after the same warm-up, alternating rounds:
 *   none      no session attached
 *   gc        `LiveRecorder` with the gc-collect profile (what `gcscope record` does)
 *   requests  gc-collect plus --requests' providers (Kestrel and HttpClient events)
 * Prints each round and the medians; the README states the result. No assertion on time.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LiveRecorder } from '../src-main/recording/live-recorder.js';
import { DEFAULT_REQUEST_SOURCES } from '../src-main/requests/recording.js';
import { getRequestSpans } from '../src-main/store/request-store.js';
import { Database } from '../src-main/store/db.js';
import { buildRequestsApp, sendLoad, startRequestsApp } from '../test/workloads/requests-app.js';

const OUT = join(process.cwd(), 'test-output', 'bench-requests');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await buildRequestsApp();

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REQUESTS = Number(process.env.REQUESTS ?? 20000);
const PATHS = ['/fast', '/fast', '/fast', '/alloc?kb=64'];
type Config = 'none' | 'gc' | 'requests';
const CONFIGS: Config[] = ['none', 'gc', 'requests'];
const results: Record<Config, { rps: number; p50: number; p99: number }[]> = { none: [], gc: [], requests: [] };
const children: ChildProcess[] = [];
const traceKB: Record<Config, number[]> = { none: [], gc: [], requests: [] };

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

let dbN = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const config of CONFIGS) {
    const app = await startRequestsApp({ DOTNET_gcServer: '0', DOTNET_gcConcurrent: '1' }, children);
    await sendLoad(app.url, PATHS, 2000, 8);
    let db: Database | undefined;
    let rec: LiveRecorder | undefined;
    if (config !== 'none') {
      db = await Database.open(join(OUT, `r${dbN++}.db`));
      rec = new LiveRecorder(db, {
        target: { pid: app.pid },
        profile: 'gc-collect',
        outDir: OUT,
        ...(config === 'requests' ? { requests: DEFAULT_REQUEST_SOURCES } : {}),
      });
      await rec.start();
    }
    const r = await sendLoad(app.url, PATHS, REQUESTS, 8);
    let counted = '';
    if (rec !== undefined && db !== undefined) {
      await rec.stop('stopped');
      const done = await rec.done();
      const kb = statSync(done.tracePath).size / 1024;
      traceKB[config].push(kb);
      counted = `, trace ${kb.toFixed(0)} KB`;
      if (config === 'requests')
        counted += `, ${(await getRequestSpans(db, done.sessionId)).filter((s) => s.group.endsWith('Kestrel/Request')).length} requests recorded`;
      await db.close();
    }
    app.child.kill('SIGKILL');
    const sorted = [...r.latencies].sort((a, b) => a - b);
    const row = { rps: (1000 * r.sent) / r.wallMSec, p50: pct(sorted, 0.5), p99: pct(sorted, 0.99) };
    results[config].push(row);
    console.log(
      `round ${round + 1} ${config.padEnd(8)} ${row.rps.toFixed(0).padStart(6)} req/s  p50 ${row.p50.toFixed(2)} ms  p99 ${row.p99.toFixed(2)} ms  (${r.sent} sent${counted})`,
    );
  }
}
console.log('\nmedians over rounds:');
const base = median(results.none.map((x) => x.rps));
for (const c of CONFIGS) {
  const rps = median(results[c].map((x) => x.rps));
  console.log(
    `${c.padEnd(8)} ${rps.toFixed(0).padStart(6)} req/s (${(((rps - base) / base) * 100).toFixed(1)} % vs none)  p50 ${median(results[c].map((x) => x.p50)).toFixed(2)} ms  p99 ${median(results[c].map((x) => x.p99)).toFixed(2)} ms`,
  );
}
const extraKB = median(traceKB.requests) - median(traceKB.gc);
console.log(
  `trace size: gc ${median(traceKB.gc).toFixed(0)} KB, requests ${median(traceKB.requests).toFixed(0)} KB: ${((extraKB * 1024) / REQUESTS).toFixed(0)} bytes per request`,
);
for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
