/**
 * Heap snapshot cost at the issue's scale (12 M objects): `npm run bench:heap [-- --customers N]`
 * or `npm run bench:heap -- --walk FILE.nettrace`.
 *
 * Generated (default): a heap shaped like the leak the reference measured (heap-snapshots.md §5):
 * a static Dictionary<int, Customer> whose Entry[] holds N customers, each with a name string, a
 * byte[], an Order[] of 3 Orders and a link to the previous customer: 7 objects and 7 references
 * per customer, plus a few roots. 1.75 M customers ≈ 12.25 M objects.
 *
 * --walk: a real heap walk as the runtime sent it (`gcscope snapshot --pid N --trace FILE`),
 * replayed through what `gcscope snapshot` does after the events arrive: the events parsed, the
 * graph built, the analysis, the .gcdump written. Also prints, from the events' own timestamps,
 * how long the runtime took to walk the heap (its induced GC's start to end) — the part of a
 * snapshot GCScope does not control.
 *
 * Each step prints wall-clock and CPU time (this process, all its threads) and the RSS; the
 * machine's load average is printed first: on a shared 2-core machine wall clock follows the
 * load, CPU time much less. Nothing here asserts a time.
 *
 * Figures, 2-core VM shared with other work (load average 11–21 while measuring, so wall clock is
 * 2–4x CPU time), Node 20. "before" is the tree heapscale branched from (772117a), "after" this
 * one; CPU seconds in brackets.
 *
 * --walk, a real walk of the HeapWorkload with 1.75 M customers (563 MB .nettrace, 12,289,988
 * nodes, 14,045,472 edges; the runtime's own walk took 2.8 s by its events' timestamps):
 *
 *   step                         before (load 20.7)     after (load 16.3)
 *   read + parse the events       8.3 s (2.5)            2.9 s (1.6)
 *   build the graph              35.6 s (6.3)            2.5 s (1.1)
 *   analyzeHeap                  15.1 s (2.6)            6.7 s (2.3)
 *   write .gcdump                 9.2 s (1.6)            2.6 s (0.9)
 *   read .gcdump                  6.0 s (2.2)            3.2 s (1.0)
 *   peak RSS                     1,611 MB               1,504 MB
 *
 * --customers 1750000 (generated, 12,250,005 nodes): analyzeHeap 7.0 s (3.2) → 6.0 s (3.1), the
 * same work; write .gcdump 3.0 s (2.1) → 2.6 s (1.0); read .gcdump 5.3 s (3.3) → 2.5 s (1.1);
 * peak RSS 1,585 → 1,477 MB.
 *
 * Since then analyzeHeap leaves paths to roots to their first use (one BFS, ~0.4 s of CPU at this
 * size): --walk analyzeHeap 4.3 s wall (2.7 CPU) at load 11.5 — CPU time too varies ±40% with the
 * machine's load, so compare figures from one sitting.
 *
 * `gcscope snapshot --pid N --json` on the same 12.3 M-object process, before and after
 * alternated (load ~13): before 48.0 / 48.5 s wall, 18.7 / 16.9 s CPU, 1.63 / 1.67 GB peak RSS
 * (build 21.4 / 18.5 s); after 29.1 / 24.6 s wall, 9.6 / 9.1 s CPU, 1.51 GB peak RSS (probe 2.2 s,
 * flush + walk 11.9 / 8.9 s, build 4.3 / 2.8 s, analysis 6.6 / 6.7 s, write 3.3 / 3.1 s).
 * Last, with paths on first use (load 10.1): 14.8 s wall, 8.6 s CPU, 1.46 GB peak RSS: probe
 * 2.2 s, flush + walk 5.9 s (the walk's session start to its GC end 5.3 s), build 1.9 s, analysis
 * 2.5 s, write 1.9 s — 9.7 s from the walk's start to the types table, 11.6 s with the .gcdump.
 */
import { availableParallelism, loadavg } from 'node:os';
import { dominatorTree } from '../src-main/heap/dominators.js';
import { leakHeap } from '../test/heap/generated-graphs.js';
import { dominatedChildren, retainedByType, retainedSizes } from '../src-main/heap/retained.js';
import { rootPaths } from '../src-main/heap/paths.js';
import { analyzeHeap } from '../src-main/heap/analysis.js';
import { readGcdump, writeGcdump } from '../src-main/heap/gcdump.js';
import { HeapWalkConsumer } from '../src-main/heap/heap-walk.js';
import type { HeapGraph } from '../src-main/heap/graph.js';
import { openTraceReader } from '../src-main/recording/trace-formats.js';
import { pumpTraceFile } from '../src-main/recording/trace-file.js';
import { RUNTIME } from '../src-main/clr/gc-events.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const customers = Number(arg('customers') ?? 300_000);
const walkFile = arg('walk');

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function line(label: string, ms: number, cpu: number): void {
  console.log(
    `${label.padEnd(30)} ${ms.toFixed(0).padStart(7)} ms  cpu ${cpu.toFixed(0).padStart(7)} ms   rss ${(process.memoryUsage().rss / 1e6).toFixed(0).padStart(5)} MB`,
  );
}

function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const c0 = cpuMs();
  const r = f();
  line(label, performance.now() - t0, cpuMs() - c0);
  return r;
}

async function replayWalk(file: string): Promise<HeapGraph> {
  const walk = new HeapWalkConsumer();
  let inEvents = 0;
  let gcStart = 0;
  let gcEnd = 0;
  let lastBulk = 0;
  let ticksPerMs = 1e4;
  const reader = openTraceReader(
    {
      onTrace: (t) => {
        ticksPerMs = t.qpcFrequency / 1000;
        walk.onTrace(t);
      },
      onEvent: (e) => {
        const t0 = performance.now();
        const wasStarted = walk.started;
        const wasComplete = walk.complete;
        walk.onEvent(e);
        inEvents += performance.now() - t0;
        if (e.metadata.provider !== RUNTIME) return;
        if (!wasStarted && walk.started) gcStart = e.timestamp;
        if (!wasComplete && walk.complete) gcEnd = e.timestamp;
        if (walk.started && !walk.complete && (e.metadata.eventId === 18 || e.metadata.eventId === 19)) lastBulk = e.timestamp;
      },
    },
    { reuseRecords: true },
  );
  const t0 = performance.now();
  const c0 = cpuMs();
  await pumpTraceFile(file, reader);
  line('read the .nettrace + parse', performance.now() - t0, cpuMs() - c0);
  console.log(`  of which in HeapWalkConsumer.onEvent: ${inEvents.toFixed(0)} ms`);
  if (gcEnd > gcStart)
    console.log(
      `  the runtime's walk (its GC start → end, from the events' timestamps): ${((gcEnd - gcStart) / ticksPerMs).toFixed(0)} ms (its last BulkNode/BulkEdge event at ${((lastBulk - gcStart) / ticksPerMs).toFixed(0)} ms)`,
    );
  return time('build the graph', () => walk.build(reader.droppedEvents).graph);
}

console.log(
  `heap bench: ${walkFile ?? `${customers.toLocaleString('en-US')} customers`} (node ${process.version}, ${process.arch}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)})`,
);
const total0 = performance.now();
const g = walkFile !== undefined ? await replayWalk(walkFile) : time('build graph', () => leakHeap(customers));
console.log(`  ${g.nodeCount.toLocaleString('en-US')} nodes, ${g.children.length.toLocaleString('en-US')} edges`);
if (walkFile === undefined) {
  const d = time('dominator tree (LT)', () => dominatorTree(g));
  const r = time('retained sizes', () => retainedSizes(g, d));
  const tree = time('dominator children (CSR)', () => dominatedChildren(g, d));
  time('retained by type', () => retainedByType(g, d, r, tree));
  time('paths to roots', () => rootPaths(g));
}
const analysisStart = performance.now();
const a = time('analyzeHeap (all of it)', () => analyzeHeap(g));
const analysisMs = performance.now() - analysisStart;
console.log(
  `  biggest: ${a.types[0]!.name} retains ${(a.types[0]!.retainedBytes / 1e6).toFixed(1)} MB; ${a.totals.objects.toLocaleString('en-US')} objects, ${(a.totals.bytes / 1e6).toFixed(0)} MB`,
);
const bytes = time('write .gcdump', () => writeGcdump(g));
console.log(`  .gcdump ${(bytes.length / 1e6).toFixed(0)} MB`);
time('read .gcdump', () => readGcdump(bytes));
console.log(
  `analysis (dominators, retained sizes, retained by type, the types table; paths to roots are made on first use): ${(analysisMs / 1000).toFixed(2)} s`,
);
console.log(`total ${((performance.now() - total0) / 1000).toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
