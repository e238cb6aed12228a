/**
 * Sustained live recording in Chromium: `npx tsx bench/live-ui.ts` (LIVE_SECONDS, default 60;
 * LIVE_PAUSE_MS, the workload's sleep between rounds of gen0 churn, default 18, about 100 GCs/s
 * here). The workload is attached from the home screen's Record button and the session view is
 * watched for the whole run:
 * - long tasks in the page while recording (PerformanceObserver 'longtask'; budget: none over
 *   50 ms), leaving out the bench's own forced garbage collections at the memory checkpoints;
 *   those of the page's load and of the view's opening, before the recording, are listed apart;
 * - frames over 50 ms (long-animation-frame), and the GC → mark latency (the workload's --gc-log wall-clock time of each GC
 *   → the pause lane's redraw that first includes it; budget p95 < 250 ms over the runtime's
 *   ~100 ms flush), each per fifth of the run: equal fifths mean the per-batch cost does not grow
 *   with the session;
 * - the page's JS heap after a forced GC at checkpoints, per GC held (linear = constant bytes/GC);
 * - the service's event-loop delay while recording (it runs in this process, as in `gcscope serve`).
 * Diagnostics: LIVE_PROFILE=FILE writes the page's CPU profile (and prints the top functions);
 * LIVE_ALLOC=1 prints what the page allocated over the run, by function (V8's sampling heap
 * profiler, collected objects included: what feeds the page's garbage collections);
 * LIVE_TRACE=1 prints the renderer's timeline (commit, paint, layout, script: wall and CPU time,
 * per fifth of the run, and what the tasks over 50 ms spent their time on); LIVE_CSS adds a style
 * sheet to the page, to see what hiding or changing a part does to those figures; LIVE_FRAMES=1
 * adds every frame's interval per fifth (a probe that has the page make 60 frames a second, so
 * off by default; frames over 50 ms are counted without it); LIVE_TRACE_FILE=FILE keeps the
 * trace's raw events with the page's figures; LIVE_TRACE_FROM=S starts the trace S seconds in
 * (a 10-minute run's late minutes without its whole timeline in memory). The trace lists each
 * task over 50 ms by wall clock with its CPU time: one that used little CPU waited for a core.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { percentile } from '../src-main/gc/rollup.js';
import { ProfilerService } from '../src-main/service/profiler-service.js';
import { startWebServer } from '../src-main/web/server.js';
import { CHROMIUM } from '../test/helpers/browser.js';
import { buildWorkload, MODE_ENV, parseWorkloadOutput, WORKLOAD_DLL } from '../test/workloads/workload.js';

const SECONDS = Number(process.env.LIVE_SECONDS ?? 60);
const PAUSE_MS = Number(process.env.LIVE_PAUSE_MS ?? 18);
const OUT = join(process.cwd(), 'test-output', 'bench-live-ui');
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
await buildWorkload();

const service = await ProfilerService.create({
  dbPath: join(OUT, 'live.db'),
  tracesDir: join(OUT, 'traces'),
  uploadDir: join(OUT, 'up'),
  mode: 'browser',
  version: 'bench',
  workerScript: join(process.cwd(), 'dist', 'import-worker.mjs'),
  recordWorkerScript: join(process.cwd(), 'dist', 'record-worker.mjs'),
  analysisWorkerScript: join(process.cwd(), 'dist', 'analysis-worker.mjs'),
});
const web = await startWebServer({ api: service, events: service.events, rendererDir: join(process.cwd(), 'dist', 'renderer') });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', '--js-flags=--expose-gc'],
});
const page = await browser.newPage({ viewport: { width: 1440, height: 960 }, bypassCSP: process.env.LIVE_CSS !== undefined });

// LIVE_NICE=N runs the workload at that niceness: on a 2-core machine the workload's own churn
// preempts the page, which a machine with a core to spare for the profiled process would not see.
const nice = process.env.LIVE_NICE;
const child = spawn(
  nice ? 'nice' : 'dotnet',
  [
    ...(nice ? ['-n', nice, 'dotnet'] : []),
    WORKLOAD_DLL,
    '--scenario',
    'churn',
    '--seconds',
    String(SECONDS),
    '--pause-ms',
    String(PAUSE_MS),
    '--gc-log',
    '--wait-for-input',
  ],
  {
    env: { ...process.env, ...MODE_ENV.workstation },
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
let wout = '';
child.stdout.on('data', (d: Buffer) => (wout += d.toString()));
while (!wout.includes('GCSCOPE-READY')) await new Promise((r) => setTimeout(r, 20));
await page.goto(`${web.url}#/`);
const row = page.locator(`[data-testid=process-row][data-pid="${child.pid}"]`);
await row.waitFor({ timeout: 20000 });
await row.locator('[data-testid=record-button]').click();
await page.waitForSelector('[data-testid=live-status]', { timeout: 20000 });

// LIVE_CSS: a style sheet added to the page, to try what a CSS change does to the figures.
if (process.env.LIVE_CSS !== undefined) await page.addStyleTag({ content: process.env.LIVE_CSS });
if (process.env.LIVE_EVAL !== undefined) await page.evaluate(process.env.LIVE_EVAL);

// In the page (source text: tsx would wrap named functions in a helper the page lacks).
await page.evaluate(`(() => {
  const b = (window.__bench = { longTasks: [], longFrames: [], frames: [], shown: [], memory: [], gcWindows: [] });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  // Frames that took over 50 ms from their first task to their paint (what a user sees as a
  // stall), observed without asking for any frame.
  // Those frames' make-up is kept too: the scripts that ran in them (what invoked each, for how
  // long) and when rendering began, to tell a slow script from a slow paint or a wait for a core.
  b.frameParts = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) {
      b.longFrames.push([e.startTime, e.duration]);
      b.frameParts.push({ start: e.startTime, duration: e.duration, renderStart: e.renderStart, styleAndLayoutStart: e.styleAndLayoutStart, blocking: e.blockingDuration,
        scripts: e.scripts.map((s) => ({ start: s.startTime, duration: s.duration, invoker: s.invoker, fn: s.sourceFunctionName, at: s.sourceURL ? s.sourceURL.split('/').pop() + ':' + s.sourceCharPosition : '', layout: s.forcedStyleAndLayoutDuration })) });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  // The renderer's own measures (src-renderer/lib/bench.ts): per live batch, and per lanes' redraw.
  window.__gcscopeBench = true;
  // Kept flat (three numbers an entry, NaN for no detail; a time per GC shown), not an array or
  // property per entry: ~100,000 small objects held by the bench in a 10-minute run were the
  // page's own heap to mark at every major collection, in the very figures being measured.
  b.batches = [];
  b.draws = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) (e.name === 'gcscope:batch-applied' ? b.batches : e.name === 'gcscope:lanes-drawn' ? b.draws : []).push(e.startTime, e.duration, e.detail ?? NaN);
    performance.clearMeasures();
  }).observe({ type: 'measure' });
  b.msgs = [];
  b.msgNames = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === 'gcscope:msg') { b.msgs.push(e.startTime); b.msgNames.push(e.detail); }
    performance.clearMarks('gcscope:msg');
  }).observe({ type: 'mark' });
  // LIVE_FRAMES=1: every frame's interval. Off by default: its requestAnimationFrame loop has the
  // page make a frame, and commit it, 60 times a second, which a user's page does not (at ~140
  // GCs/s: ~60 commits a second instead of ~40, and more long tasks than the page alone makes).
  let last = performance.now();
  const tick = (t) => { b.frames.push([t, t - last]); last = t; requestAnimationFrame(tick); };
  if (${JSON.stringify(process.env.LIVE_FRAMES !== undefined)}) requestAnimationFrame(tick);
  // A GC is on the chart when the pause lane has drawn it: the lane sets data-points after each
  // redraw (live sessions are not decimated, so the count is the GCs drawn).
  const el = document.querySelector('[data-testid=chart-pauses]');
  let seen = 0;
  new MutationObserver(() => {
    const n = Number(el.dataset.points || 0);
    if (n <= seen) return;
    const t = Date.now();
    // shown[k - 1]: when the k-th GC was first drawn.
    for (let k = seen + 1; k <= n; k++) b.shown.push(t);
    seen = n;
  }).observe(el, { attributes: true, attributeFilter: ['data-points'] });
  b.checkpoint = () => {
    const t = performance.now();
    window.gc();
    b.gcWindows.push([t, performance.now()]);
    b.memory.push([seen, performance.memory.usedJSHeapSize]);
  };
})()`);

// LIVE_PROFILE=FILE: a CPU profile of the page for the whole run (open it in Chromium's DevTools),
// and its top functions by self time printed below.
const profileTo = process.env.LIVE_PROFILE;
const cdp = profileTo !== undefined ? await page.context().newCDPSession(page) : undefined;
if (cdp !== undefined) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
}

// LIVE_ALLOC=1: the page's allocations by function, garbage included (sampled every 16 KB).
const alloc = process.env.LIVE_ALLOC !== undefined ? await page.context().newCDPSession(page) : undefined;
if (alloc !== undefined) {
  await alloc.send('HeapProfiler.enable');
  await alloc.send('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}

// LIVE_TRACE=1: the renderer's timeline events (style, layout, paint, script) summed by name over
// the run, which says where the time a CPU profile calls "(program)" goes.
const tracing = process.env.LIVE_TRACE !== undefined ? await page.context().newCDPSession(page) : undefined;
const traceEvents: TraceEvent[] = [];
if (tracing !== undefined) {
  tracing.on('Tracing.dataCollected', (d) => void traceEvents.push(...(d.value as unknown as TraceEvent[])));
  // LIVE_TRACE_CATEGORIES adds trace categories (e.g. disabled-by-default-devtools.timeline.invalidationTracking,
  // which names the node and reason of each layout and paint invalidation); LIVE_TRACE_FILE keeps the raw events.
  const extra = process.env.LIVE_TRACE_CATEGORIES;
  const start = (): Promise<unknown> =>
    tracing.send('Tracing.start', {
      categories: `devtools.timeline,disabled-by-default-devtools.timeline${extra ? `,${extra}` : ''}`,
      transferMode: 'ReportEvents',
    });
  // LIVE_TRACE_FROM=S starts the trace S seconds into the recording: a 10-minute run's late
  // minutes (where the long tasks are) without the memory of its whole timeline.
  const from = Number(process.env.LIVE_TRACE_FROM ?? 0);
  if (from > 0) setTimeout(() => void start(), from * 1000);
  else await start();
}

// When each GC reached the service (the recording's batch event) and the page (the batch applied,
// below): the GC → mark latency split into its legs. Keyed like \`shown\`: the session's GC count.
const serviceAt: [number, number][] = [];
let serviceCount = 0;
const serviceSeen = new Set<number>();
service.events.on('live-batch', (p: { gcs: { number: Float64Array } }) => {
  if (p.gcs.number.length === 0) return;
  // GCs, not rows: a GC whose values change later is sent again.
  for (const n of p.gcs.number) serviceSeen.add(n);
  serviceCount = serviceSeen.size;
  serviceAt.push([serviceCount, Date.now()]);
});

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const t0 = Date.now();
child.stdin.write('\n');
const exited = new Promise<void>((r) => child.on('exit', () => r()));
let done = false;
void exited.then(() => (done = true));
while (!done) {
  // Until the workload exits (not the next 10 s mark: the run's length divides it in fifths).
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (!done) await page.evaluate('window.__bench.checkpoint()');
}
const runMs = Date.now() - t0;
// The recording's part only: what follows (ending the trace, fetching the page's figures) runs in
// this process too, and LIVE_TRACE's trace events alone stalled it for up to a second.
loop.disable();
if (tracing !== undefined) {
  const complete = new Promise<void>((r) => tracing.once('Tracing.tracingComplete', () => r()));
  await tracing.send('Tracing.end');
  await complete;
  if (process.env.LIVE_TRACE_FILE)
    writeFileSync(
      process.env.LIVE_TRACE_FILE,
      JSON.stringify({ traceEvents, bench: await page.evaluate('JSON.stringify({ ...window.__bench, origin: performance.timeOrigin })') }),
    );
  printTimeline(traceEvents);
}
if (cdp !== undefined && profileTo !== undefined) {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  writeFileSync(profileTo, JSON.stringify(profile));
  printTopSelfTime(profile);
}

if (alloc !== undefined) {
  const { profile } = (await alloc.send('HeapProfiler.stopSampling')) as unknown as { profile: { head: AllocNode } };
  printTopAllocations(profile.head, runMs);
}

interface Bench {
  longTasks: [number, number][];
  longFrames: [number, number][];
  frames: [number, number][];
  shown: Record<string, number>;
  memory: [number, number][];
  gcWindows: [number, number][];
  batches: [number, number, number | null][];
  draws: [number, number, number | null][];
  msgs: [number, string][];
  frameParts: {
    start: number;
    duration: number;
    renderStart: number;
    styleAndLayoutStart: number;
    blocking: number;
    scripts: { start: number; duration: number; invoker: string; fn: string; at: string; layout: number }[];
  }[];
  origin: number;
}
/** The page's figures as kept there (flat: see the page's script). */
interface FlatBench extends Omit<Bench, 'shown' | 'batches' | 'draws' | 'msgs'> {
  shown: number[];
  batches: (number | null)[];
  draws: (number | null)[];
  msgs: number[];
  msgNames: string[];
}
const triples = (flat: (number | null)[]): [number, number, number | null][] => {
  const out: [number, number, number | null][] = [];
  for (let k = 0; k + 2 < flat.length; k += 3) out.push([flat[k]!, flat[k + 1]!, flat[k + 2] ?? null]);
  return out;
};
const flat = JSON.parse(await page.evaluate('JSON.stringify({ ...window.__bench, origin: performance.timeOrigin })')) as FlatBench;
const b: Bench = {
  ...flat,
  shown: Object.fromEntries(flat.shown.map((t, k) => [k + 1, t])),
  batches: triples(flat.batches),
  draws: triples(flat.draws),
  msgs: flat.msgs.map((t, k) => [t, flat.msgNames[k]!]),
};
// With LIVE_PROFILE, the page's figures go beside the profile (long tasks, frames, the forced
// GCs' times) to line them up with its samples: the forced GCs at the checkpoints are in both.
if (profileTo !== undefined) writeFileSync(`${profileTo}.bench.json`, JSON.stringify(b));
const gcAt = parseWorkloadOutput(wout).gcSeenAt;
const gcs = gcAt.size;
const ownGc = (t: number, d: number): boolean => b.gcWindows.some(([a, z]) => t < z + 5 && t + d > a - 5);
// The budget is for the recording itself: from the workload's start to its exit. The page's
// load (module evaluation, first render) and the recording's view opening come before it and
// are reported apart, as is the session's end.
const at = (t: number): number => b.origin + t - t0;
const recording = (t: number): boolean => at(t) >= 0 && at(t) <= runMs;
const fmt = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : v.toFixed(0));
/** Each entry's time from the workload's start, and its length. */
const times = (list: [number, number][]): string => list.map(([t, d]) => `${(at(t) / 1000).toFixed(1)} s (${fmt(d)} ms)`).join(', ') || 'none';
const allLong = b.longTasks.filter(([t, d]) => !ownGc(t, d));
const longOnes = allLong.filter(([t]) => recording(t));
const tasks = longOnes.map(([, d]) => d);
// What the long tasks were handling: the messages (live batches, answers) that arrived in them.
const handled = new Map<string, number>();
for (const [t, d] of longOnes) {
  const names = new Set(b.msgs.filter(([m]) => m >= t - 1 && m <= t + d).map(([, n]) => n));
  for (const n of names.size > 0 ? names : new Set(['(no message)'])) handled.set(n, (handled.get(n) ?? 0) + 1);
}
console.log(`live in Chromium, ${(runMs / 1000).toFixed(0)} s, ${gcs} GCs (${(gcs / (runMs / 1000)).toFixed(0)} GCs/s, workload --pause-ms ${PAUSE_MS})`);
console.log(
  `  long tasks while recording (budget: none over 50 ms): ${tasks.length}, total ${fmt(tasks.reduce((s, d) => s + d, 0))} ms, longest ${fmt(tasks.length ? Math.max(...tasks) : 0)} ms`,
);

// When each happened, from the workload's start.
console.log(`  long tasks while recording, at: ${times(longOnes)}`);
console.log(
  `  long tasks before it (page load, the view opening), at: ${times(allLong.filter(([t]) => at(t) < 0))}; after the workload exited: ${times(allLong.filter(([t]) => at(t) > runMs))}`,
);
// Each long task's frame: its scripts (longest first) and its rendering (style, layout, paint and
// the commit, from renderStart to the frame's end).
for (const [t, d] of longOnes) {
  const f = b.frameParts.find((p) => p.start <= t + d && p.start + p.duration >= t);
  if (f === undefined) {
    console.log(`  long task at ${times([[t, d]])}: no long frame holds it`);
    continue;
  }
  const render = f.renderStart > 0 ? f.start + f.duration - f.renderStart : 0;
  const layout = f.styleAndLayoutStart > 0 ? f.start + f.duration - f.styleAndLayoutStart : 0;
  const scripts = [...f.scripts]
    .sort((x, y) => y.duration - x.duration)
    .slice(0, 4)
    .map((s) => `${s.invoker}${s.fn ? ` ${s.fn}` : ''}${s.at ? ` (${s.at})` : ''} ${fmt(s.duration)} ms`);
  console.log(
    `  long task at ${times([[t, d]])}: frame ${fmt(f.duration)} ms, rendering ${fmt(render)} ms (style, layout, paint, commit: ${fmt(layout)} ms); scripts ${scripts.join('; ') || 'none'}`,
  );
}
console.log(
  `  long tasks handling: ${
    [...handled]
      .sort((x, y) => y[1] - x[1])
      .map(([n, c]) => `${n} ×${c}`)
      .join(', ') || 'none'
  }`,
);

{
  const during = b.longFrames.filter(([t, d]) => recording(t) && !ownGc(t, d)).map(([, d]) => d);
  console.log(`  frames over 50 ms while recording (long animation frames): ${during.length}, longest ${fmt(during.length ? Math.max(...during) : 0)} ms`);
}

// Per fifth of the run (page time): frame interval p95 and GC → mark latency.
const frames = b.frames.slice(1);
const fStart = t0 - b.origin;
const fEnd = fStart + runMs;
const lat: [number, number][] = [];
for (const [n, at] of gcAt) if (b.shown[n] !== undefined) lat.push([at, b.shown[n]! - at]);
const lStart = Math.min(...lat.map(([a]) => a));
const lEnd = Math.max(...lat.map(([a]) => a));
const all = lat.map(([, d]) => d).sort((x, y) => x - y);
console.log(
  `  GC → mark on the chart: median ${fmt(percentile(all, 50))} ms, p95 ${fmt(percentile(all, 95))} ms, max ${fmt(all[all.length - 1])} ms (n=${all.length} of ${gcs}; includes the runtime's ~100 ms flush)`,
);
for (let q = 0; q < 5; q++) {
  const fi = frames
    .filter(([t]) => t >= fStart + ((fEnd - fStart) * q) / 5 && t < fStart + ((fEnd - fStart) * (q + 1)) / 5 && !ownGc(t, 0))
    .map(([, d]) => d)
    .sort((x, y) => x - y);
  const li = lat
    .filter(([a]) => a >= lStart + ((lEnd - lStart) * q) / 5 && a <= lStart + ((lEnd - lStart) * (q + 1)) / 5)
    .map(([, d]) => d)
    .sort((x, y) => x - y);
  const fr = frames.length > 0 ? `frame interval p50 ${fmt(percentile(fi, 50))} ms, p95 ${fmt(percentile(fi, 95))} ms, max ${fmt(fi[fi.length - 1])} ms; ` : '';
  console.log(`  fifth ${q + 1}: ${fr}GC → mark p50 ${fmt(percentile(li, 50))} ms, p95 ${fmt(percentile(li, 95))} ms`);
}
// The legs of GC → mark: the workload saw the GC end → the service had it (runtime flush, worker
// decode, batching) → the page had applied it (WebSocket, decode, state) → the pause lane drew it.
{
  const legs: [string, number[]][] = [
    ['workload → service', []],
    ['service → page', []],
    ['page → drawn', []],
    ["service → drawn (GCScope's own part)", []],
  ];
  const pageAt: [number, number][] = b.batches.filter(([, , n]) => n !== null).map(([t, , n]) => [n!, b.origin + t]);
  const firstAt = (list: [number, number][], k: number): number | undefined => {
    let lo = 0;
    let hi = list.length - 1;
    let best: number | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]![0] >= k) {
        best = list[mid]![1];
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return best;
  };
  for (const [n, at] of gcAt) {
    const sv = firstAt(serviceAt, n);
    const pg = firstAt(pageAt, n);
    const dr = b.shown[n];
    if (sv === undefined || pg === undefined || dr === undefined) continue;
    legs[0]![1].push(sv - at);
    legs[1]![1].push(pg - sv);
    legs[2]![1].push(dr - pg);
    legs[3]![1].push(dr - sv);
  }
  console.log(
    `  GC → mark by leg: ${legs
      .map(([name, v]) => {
        v.sort((x, y) => x - y);
        return `${name} p50 ${fmt(percentile(v, 50))} / p95 ${fmt(percentile(v, 95))} ms`;
      })
      .join('; ')}`,
  );
}
// The renderer's cost per live batch and per lanes' redraw, per fifth of the run: flat = the cost
// does not grow with the session.
for (const [name, list] of [
  ['batch applied (state + DOM)', b.batches],
  ['lane drawn (canvas)', b.draws],
] as const) {
  const parts: string[] = [];
  for (let q = 0; q < 5; q++) {
    const d = list
      .filter(([t]) => t >= fStart + ((fEnd - fStart) * q) / 5 && t < fStart + ((fEnd - fStart) * (q + 1)) / 5)
      .map(([, v]) => v)
      .sort((x, y) => x - y);
    parts.push(`p50 ${(percentile(d, 50) ?? 0).toFixed(1)} / p95 ${(percentile(d, 95) ?? 0).toFixed(1)} ms (n=${d.length})`);
  }
  console.log(`  renderer per ${name}, by fifth: ${parts.join('; ')}`);
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
console.log(`  session shown as ended ${ended ? `${((Date.now() - endAt) / 1000).toFixed(1)} s` : 'not within 300 s'} after the workload exited`);
console.log(
  `  service event-loop delay while recording: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`,
);
await browser.close();
await web.close();
await service.close();

interface AllocNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: AllocNode[];
}

function printTopAllocations(head: AllocNode, ms: number): void {
  const self = new Map<string, number>();
  const walk = (n: AllocNode, parent: string): void => {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    // Native allocations are put on their JS caller.
    const key = f.url === '' && parent !== '' ? `${parent} > ${f.functionName || '(native)'}` : name;
    self.set(key, (self.get(key) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c, f.url === '' ? parent : name);
  };
  walk(head, '');
  const total = [...self.values()].reduce((s, v) => s + v, 0);
  console.log(
    `  page allocations: ${(total / 1e6).toFixed(0)} MB in ${(ms / 1000).toFixed(0)} s (${(total / 1e3 / (ms / 1000)).toFixed(0)} kB/s); top by function:`,
  );
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${(v / 1e6).toFixed(1).padStart(7)} MB  ${k}`);
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  samples: number[];
  timeDeltas: number[];
}

function printTopSelfTime(p: CpuProfile): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((s, v) => s + v, 0);
  console.log(`  page CPU profile: ${(total / 1000).toFixed(1)} s sampled; top self time:`);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${v.toFixed(0).padStart(7)} ms  ${k}`);
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  args?: { data?: { functionName?: string; url?: string; lineNumber?: number; type?: string }; type?: string };
  dur?: number;
  /** CPU time of the event (thread time): wall time minus time the thread was descheduled. */
  tdur?: number;
  tid: number;
  pid: number;
}

function printTimeline(events: TraceEvent[]): void {
  // The page's main thread: the one that ran the most FunctionCall time.
  const byThread = new Map<string, number>();
  for (const e of events)
    if (e.name === 'FunctionCall' && e.dur !== undefined) byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
  const main = [...byThread.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sum = new Map<string, [number, number]>();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== main || e.ph !== 'X' || e.dur === undefined) continue;
    const s = sum.get(e.name) ?? [0, 0];
    s[0] += e.dur / 1000;
    s[1]++;
    sum.set(e.name, s);
  }
  // Inside the tasks over 50 ms: what they spent their time on (inclusive, so nested names overlap).
  const mainX = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  // Leaving out the bench's own forced collections at the memory checkpoints (V8 names them
  // 'testing'), as the long-task figures do: at 100,000 GCs each takes 20-30 ms.
  const forced = mainX.filter((e) => e.name === 'MajorGC' && e.args?.type === 'testing');
  const long = mainX.filter((e) => e.name === 'RunTask' && e.dur! > 50_000 && !forced.some((g) => g.ts >= e.ts && g.ts < e.ts + e.dur!));
  const inLong = new Map<string, number>();
  let j = 0;
  for (const t of long) {
    while (j < mainX.length && mainX[j]!.ts < t.ts) j++;
    for (let k = j; k < mainX.length && mainX[k]!.ts < t.ts + t.dur!; k++) {
      const e = mainX[k]!;
      if (e === t || e.name === 'RunTask') continue;
      const d = e.args?.data;
      const name =
        e.name === 'FunctionCall' && d?.functionName !== undefined
          ? `FunctionCall ${d.functionName || '(anon)'} ${(d.url ?? '').split('/').pop()}:${d.lineNumber}`
          : e.name === 'EventDispatch'
            ? `EventDispatch ${d?.type}`
            : e.name;
      inLong.set(name, (inLong.get(name) ?? 0) + e.dur! / 1000);
    }
  }
  // Tasks by CPU time (thread time), which a busy machine does not inflate the way it does wall time.
  const cpu = mainX
    .filter((e) => e.name === 'RunTask' && e.tdur !== undefined)
    .map((e) => e.tdur! / 1000)
    .sort((x, y) => x - y);
  console.log(
    `  renderer tasks by CPU time: ${cpu.length}, over 50 ms: ${cpu.filter((d) => d > 50).length}, over 16 ms: ${cpu.filter((d) => d > 16).length}, p99 ${(percentile(cpu, 99) ?? 0).toFixed(1)} ms, max ${(cpu[cpu.length - 1] ?? 0).toFixed(1)} ms, total ${(cpu.reduce((a, d) => a + d, 0) / 1000).toFixed(1)} s`,
  );
  // A task long by wall clock but not by CPU time waited for a core (the workload, the service
  // and the browser's other processes share the machine's).
  const waited = long.filter((e) => e.tdur !== undefined && e.tdur < 50_000).length;
  console.log(
    `  inside the ${long.length} renderer tasks over 50 ms by wall clock (${waited} of them under 50 ms of CPU), bench's forced GCs left out (inclusive ms):`,
  );
  for (const [k, ms] of [...inLong.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${ms.toFixed(0).padStart(7)} ms  ${k}`);
  // Each of them: wall and CPU time, and its longest direct parts.
  for (const t of long) {
    const inside = mainX.filter((e) => e !== t && e.name !== 'RunTask' && e.ts >= t.ts && e.ts < t.ts + t.dur!);
    const parts = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
    const top = parts
      .sort((a, b) => b.dur! - a.dur!)
      .slice(0, 4)
      .map(
        (e) =>
          `${e.name === 'FunctionCall' ? `FunctionCall ${e.args?.data?.functionName || '(anon)'}` : e.name}${e.name === 'MajorGC' || e.name === 'MinorGC' ? ` ${e.args?.type ?? ''}` : ''} ${(e.dur! / 1000).toFixed(0)} ms`,
      );
    console.log(
      `    task at ${((t.ts - (mainX[0]?.ts ?? 0)) / 1e6).toFixed(1)} s of the trace: ${(t.dur! / 1000).toFixed(0)} ms wall, ${((t.tdur ?? 0) / 1000).toFixed(0)} ms CPU: ${top.join('; ') || 'nothing traced inside'}`,
    );
  }
  // Rendering cost per fifth of the run: a cost that grows with the session shows here.
  const t0 = mainX[0]?.ts ?? 0;
  const t1 = mainX[mainX.length - 1]?.ts ?? 1;
  for (const name of ['Commit', 'Paint', 'Layout', 'FunctionCall']) {
    const parts: string[] = [];
    for (let q = 0; q < 5; q++) {
      const es = mainX.filter((e) => e.name === name && e.ts >= t0 + ((t1 - t0) * q) / 5 && e.ts < t0 + ((t1 - t0) * (q + 1)) / 5);
      const avg = (f: (e: TraceEvent) => number): string => (es.reduce((a, e) => a + f(e), 0) / 1000 / Math.max(1, es.length)).toFixed(1);
      parts.push(`${es.length} × ${avg((e) => e.dur!)} (cpu ${avg((e) => e.tdur ?? 0)}) ms`);
    }
    console.log(`  ${name} per fifth: ${parts.join(', ')}`);
  }
  console.log('  renderer main-thread timeline (inclusive ms, count):');
  for (const [k, [ms, n]] of [...sum.entries()].sort((a, b) => b[1][0] - a[1][0]).slice(0, 20))
    console.log(`    ${ms.toFixed(0).padStart(7)} ms ${String(n).padStart(7)}  ${k}`);
}
