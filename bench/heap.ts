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
import { HeapGraphBuilder, type HeapGraph } from '../src-main/heap/graph.js';
import { dominatedChildren, retainedByType, retainedSizes } from '../src-main/heap/retained.js';
import { rootPaths } from '../src-main/heap/paths.js';
import { analyzeHeap } from '../src-main/heap/analysis.js';
import { readGcdump, writeGcdump } from '../src-main/heap/gcdump.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const customers = arg('customers', 300_000);

function build(n: number): HeapGraph {
  const b = new HeapGraphBuilder(true);
  const t = {
    root: b.type({ fullName: '[.NET Roots]', name: '[.NET Roots]', module: '', root: 'root' }),
    statics: b.type({ fullName: '[static vars]', name: '[static vars]', module: '', root: 'group' }),
    stat: b.type({ fullName: '[static var Cache.Customers]', name: '[static var Cache.Customers]', module: '', root: 'static' }),
    dict: b.type({
      fullName: 'System.Collections.Generic.Dictionary<System.Int32,Customer>',
      name: 'Dictionary<int, Customer>',
      module: 'System.Private.CoreLib.dll',
    }),
    entries: b.type({ fullName: 'Entry<System.Int32,Customer>[]', name: 'Entry<int, Customer>[]', module: 'System.Private.CoreLib.dll' }),
    customer: b.type({ fullName: 'Customer', name: 'Customer', module: 'app.dll' }),
    string: b.type({ fullName: 'System.String', name: 'string', module: 'System.Private.CoreLib.dll' }),
    bytes: b.type({ fullName: 'System.Byte[]', name: 'byte[]', module: 'System.Private.CoreLib.dll' }),
    orders: b.type({ fullName: 'Order[]', name: 'Order[]', module: 'app.dll' }),
    order: b.type({ fullName: 'Order', name: 'Order', module: 'app.dll' }),
  };
  // 0 root, 1 [static vars], 2 static, 3 dict, 4 entries, then 7 nodes per customer.
  const base = 5;
  b.node(t.root, 0);
  b.child(1);
  b.node(t.statics, 0);
  b.child(2);
  b.node(t.stat, 0);
  b.child(3);
  b.node(t.dict, 80, 0x1000);
  b.child(4);
  b.node(t.entries, 24 + 24 * n, 0x2000);
  for (let i = 0; i < n; i++) b.child(base + i * 7);
  let addr = 0x100000;
  for (let i = 0; i < n; i++) {
    const c = base + i * 7;
    b.node(t.customer, 48, (addr += 48));
    b.child(c + 1);
    b.child(c + 2);
    b.child(c + 3);
    if (i > 0) b.child(c - 7);
    b.node(t.string, 40 + (i % 7) * 2, (addr += 56));
    b.node(t.bytes, 124, (addr += 128));
    b.node(t.orders, 48, (addr += 48));
    b.child(c + 4);
    b.child(c + 5);
    b.child(c + 6);
    for (let k = 0; k < 3; k++) b.node(t.order, 40, (addr += 40));
  }
  return b.finish(0, n * 7);
}

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
const g = time('build graph', () => build(customers));
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
