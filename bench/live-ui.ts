/**
 * Sustained live recording in Chromium: `npx tsx bench/live-ui.ts` (LIVE_SECONDS, default 60;
 * LIVE_PAUSE_MS, the workload's sleep between rounds of gen0 churn, default 18, about 100 GCs/s
 * here). The workload is attached from the home screen's Record button and the session view is
 * watched for the whole run:
 * - long tasks in the page (PerformanceObserver 'longtask'; budget: none over 50 ms), leaving out
 *   the bench's own forced garbage collections at the memory checkpoints;
 * - frame intervals, and the GC → mark latency (the workload's --gc-log wall-clock time of each GC
 *   → the pause lane's redraw that first includes it; budget p95 < 250 ms over the runtime's
 *   ~100 ms flush), each per fifth of the run: equal fifths mean the per-batch cost does not grow
 *   with the session;
 * - the page's JS heap after a forced GC at checkpoints, per GC held (linear = constant bytes/GC);
 * - the service's event-loop delay (it runs in this process, as in `gcscope serve`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { percentile } from '../src-main/gc/rollup.js';
import { ProfilerService } from '../src-main/service/profiler-service.js';
import { startWebServer } from '../src-main/web/server.js';
import { CHROMIUM } from '../test/helpers/browser.js';
import { buildWorkload, parseWorkloadOutput, WORKLOAD_DLL } from '../test/workloads/workload.js';

const SECONDS = Number(process.env.LIVE_SECONDS ?? 60);
const PAUSE_MS = Number(process.env.LIVE_PAUSE_MS ?? 18);
const OUT = join(process.cwd(), 'test-output', 'bench-live-ui');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await buildWorkload();

const service = await ProfilerService.create({ dbPath: join(OUT, 'live.db'), tracesDir: join(OUT, 'traces'), uploadDir: join(OUT, 'up'), mode: 'browser', version: 'bench' });
const web = await startWebServer({ api: service, events: service.events, rendererDir: join(process.cwd(), 'dist', 'renderer') });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', '--js-flags=--expose-gc'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 960 } });

const child = spawn('dotnet', [WORKLOAD_DLL, '--scenario', 'churn', '--seconds', String(SECONDS), '--pause-ms', String(PAUSE_MS), '--gc-log', '--wait-for-input'], {
  env: { ...process.env, DOTNET_gcServer: '0', DOTNET_gcConcurrent: '0' },
  stdio: ['pipe', 'pipe', 'inherit'],
});
let wout = '';
child.stdout.on('data', (d: Buffer) => (wout += d.toString()));
while (!wout.includes('GCSCOPE-READY')) await new Promise((r) => setTimeout(r, 20));
await page.goto(`${web.url}#/`);
const row = page.locator(`[data-testid=process-row][data-pid="${child.pid}"]`);
await row.waitFor({ timeout: 20000 });
await row.locator('[data-testid=record-button]').click();
await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });

// In the page (source text: tsx would wrap named functions in a helper the page lacks).
await page.evaluate(`(() => {
  const b = (window.__bench = { longTasks: [], frames: [], shown: {}, memory: [], gcWindows: [] });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = (t) => { b.frames.push([t, t - last]); last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  // A GC is on the chart when the pause lane has drawn it: the lane sets data-points after each
  // redraw (live sessions are not decimated, so the count is the GCs drawn).
  const el = document.querySelector('[data-testid=chart-pauses]');
  let seen = 0;
  new MutationObserver(() => {
    const n = Number(el.dataset.points || 0);
    if (n <= seen) return;
    const t = Date.now();
    for (let k = seen + 1; k <= n; k++) b.shown[k] = t;
    seen = n;
  }).observe(el, { attributes: true, attributeFilter: ['data-points'] });
  b.checkpoint = () => {
    const t = performance.now();
    window.gc();
    b.gcWindows.push([t, performance.now()]);
    b.memory.push([seen, performance.memory.usedJSHeapSize]);
  };
})()`);

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const t0 = Date.now();
child.stdin.write('\n');
const exited = new Promise<void>((r) => child.on('exit', () => r()));
let done = false;
void exited.then(() => (done = true));
while (!done) {
  await new Promise((r) => setTimeout(r, 10_000));
  if (!done) await page.evaluate('window.__bench.checkpoint()');
}
const runMs = Date.now() - t0;

interface Bench {
  longTasks: [number, number][];
  frames: [number, number][];
  shown: Record<string, number>;
  memory: [number, number][];
  gcWindows: [number, number][];
}
const b = JSON.parse(await page.evaluate('JSON.stringify(window.__bench)')) as Bench;
const gcAt = parseWorkloadOutput(wout).gcSeenAt;
const gcs = gcAt.size;
const ownGc = (t: number, d: number): boolean => b.gcWindows.some(([a, z]) => t < z + 5 && t + d > a - 5);
const tasks = b.longTasks.filter(([t, d]) => !ownGc(t, d)).map(([, d]) => d);
const fmt = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : v.toFixed(0));

console.log(`live in Chromium, ${(runMs / 1000).toFixed(0)} s, ${gcs} GCs (${(gcs / (runMs / 1000)).toFixed(0)} GCs/s, workload --pause-ms ${PAUSE_MS})`);
console.log(`  long tasks (budget: none over 50 ms): ${tasks.length}, total ${fmt(tasks.reduce((s, d) => s + d, 0))} ms, longest ${fmt(tasks.length ? Math.max(...tasks) : 0)} ms`);

// Per fifth of the run: frame interval p95 and GC → mark latency.
const frames = b.frames.slice(1);
const fStart = frames[0]?.[0] ?? 0;
const fEnd = frames[frames.length - 1]?.[0] ?? 1;
const lat: [number, number][] = [];
for (const [n, at] of gcAt) if (b.shown[n] !== undefined) lat.push([at, b.shown[n]! - at]);
const lStart = Math.min(...lat.map(([a]) => a));
const lEnd = Math.max(...lat.map(([a]) => a));
const all = lat.map(([, d]) => d).sort((x, y) => x - y);
console.log(`  GC → mark on the chart: median ${fmt(percentile(all, 50))} ms, p95 ${fmt(percentile(all, 95))} ms, max ${fmt(all[all.length - 1])} ms (n=${all.length} of ${gcs}; includes the runtime's ~100 ms flush)`);
for (let q = 0; q < 5; q++) {
  const fi = frames.filter(([t]) => t >= fStart + ((fEnd - fStart) * q) / 5 && t < fStart + ((fEnd - fStart) * (q + 1)) / 5 && !ownGc(t, 0)).map(([, d]) => d).sort((x, y) => x - y);
  const li = lat.filter(([a]) => a >= lStart + ((lEnd - lStart) * q) / 5 && a <= lStart + ((lEnd - lStart) * (q + 1)) / 5).map(([, d]) => d).sort((x, y) => x - y);
  console.log(`  fifth ${q + 1}: frame interval p50 ${fmt(percentile(fi, 50))} ms, p95 ${fmt(percentile(fi, 95))} ms, max ${fmt(fi[fi.length - 1])} ms; GC → mark p50 ${fmt(percentile(li, 50))} ms, p95 ${fmt(percentile(li, 95))} ms`);
}
console.log(`  page JS heap after a forced GC: ${b.memory.map(([n, m]) => `${n} GCs ${(m / 1e6).toFixed(1)} MB`).join(', ')}`);
if (b.memory.length >= 2) {
  const [n0, m0] = b.memory[0]!;
  const [n1, m1] = b.memory[b.memory.length - 1]!;
  console.log(`  page heap growth: ${n1 > n0 ? ((m1 - m0) / (n1 - n0)).toFixed(0) : 'n/a'} bytes per GC between the first and last checkpoint`);
}

// The recording ends once the service has drained what the runtime sent; the view shows it.
const endAt = Date.now();
const ended = await page.waitForSelector('[data-testid=session-status]', { timeout: 300_000 }).then(
  () => true,
  () => false,
);
loop.disable();
console.log(`  session shown as ended ${ended ? `${((Date.now() - endAt) / 1000).toFixed(1)} s` : 'not within 300 s'} after the workload exited`);
console.log(`  service event-loop delay: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
await browser.close();
await web.close();
await service.close();
