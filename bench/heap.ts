/**
 * Heap snapshot analysis on a large generated heap: `npm run bench:heap [-- --customers N]`.
 *
 * The heap is shaped like the leak the reference measured (heap-snapshots.md §5): a static
 * Dictionary<int, Customer> whose Entry[] holds N customers, each with a name string, a byte[],
 * an Order[] of 3 Orders and a link to the previous customer: 7 objects and 7 references per
 * customer, plus a few roots. 1.75 M customers ≈ 12.25 M objects, the scale target.
 *
 * Prints the time of each step (graph build, dominator tree, retained sizes, retained by type,
 * paths to roots, the type table, .gcdump write and read) and the peak RSS. Wall-clock figures
 * only: nothing here asserts a time.
 */
import { availableParallelism, loadavg } from 'node:os';
import { dominatorTree } from '../src-main/heap/dominators.js';
import { leakHeap } from '../test/heap/generated-graphs.js';
import { dominatedChildren, retainedByType, retainedSizes } from '../src-main/heap/retained.js';
import { rootPaths } from '../src-main/heap/paths.js';
import { analyzeHeap } from '../src-main/heap/analysis.js';
import { readGcdump, writeGcdump } from '../src-main/heap/gcdump.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const customers = arg('customers', 300_000);

function time<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const r = f();
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(28)} ${ms.toFixed(0).padStart(7)} ms   rss ${(process.memoryUsage().rss / 1e6).toFixed(0).padStart(5)} MB`);
  return r;
}

console.log(
  `heap bench: ${customers.toLocaleString('en-US')} customers (node ${process.version}, ${process.arch}, ${availableParallelism()} CPUs, load average ${loadavg()[0]!.toFixed(1)})`,
);
const total0 = performance.now();
const g = time('build graph', () => leakHeap(customers));
console.log(`  ${g.nodeCount.toLocaleString('en-US')} nodes, ${g.children.length.toLocaleString('en-US')} edges`);
const d = time('dominator tree (LT)', () => dominatorTree(g));
const r = time('retained sizes', () => retainedSizes(g, d));
const tree = time('dominator children (CSR)', () => dominatedChildren(g, d));
time('retained by type', () => retainedByType(g, d, r, tree));
time('paths to roots', () => rootPaths(g));
const analysisStart = performance.now();
const a = time('analyzeHeap (all of it)', () => analyzeHeap(g));
const analysisMs = performance.now() - analysisStart;
console.log(
  `  biggest: ${a.types[0]!.name} retains ${(a.types[0]!.retainedBytes / 1e6).toFixed(1)} MB; ${a.totals.objects.toLocaleString('en-US')} objects, ${(a.totals.bytes / 1e6).toFixed(0)} MB`,
);
const bytes = time('write .gcdump', () => writeGcdump(g));
console.log(`  .gcdump ${(bytes.length / 1e6).toFixed(0)} MB`);
time('read .gcdump', () => readGcdump(bytes));
console.log(`analysis (dominators, retained, by type, paths, type table): ${(analysisMs / 1000).toFixed(2)} s`);
console.log(`total ${((performance.now() - total0) / 1000).toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
