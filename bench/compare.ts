/**
 * How long a comparison of two large sessions takes (the app computes it on request):
 *   npx tsx bench/compare.ts [GCs per side, default 100000]
 * Two synthetic sessions of gen0/gen1/gen2 GCs with lognormal pauses, 20 ms apart; prints the
 * time of compareSessions (2,000 bootstrap resamples per interval) and the machine's load.
 */
import { loadavg } from 'node:os';
import { mulberry32 } from '../src-main/compare/bootstrap.js';
import { compareSessions, type CompareColumns } from '../src-main/compare/comparison.js';

const n = Number(process.argv[2] ?? 100_000);

function session(seed: number, scale: number): CompareColumns {
  const r = mulberry32(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const f = (g: (k: number) => number): Float64Array => Float64Array.from({ length: n }, (_, k) => g(k));
  const gen = f((k) => (k % 50 === 0 ? 2 : k % 10 === 0 ? 1 : 0));
  return {
    complete: f(() => 1),
    time: f((k) => k * 20),
    number: f((k) => k + 1),
    generation: gen,
    type: f(() => 0),
    reason: f(() => 0),
    pause: f((k) => scale * (1 + gen[k]!) * Math.exp(0.5 * normal())),
    allocated: f(() => 8),
    heapAfter: f(() => 40 + 5 * r()),
    heapPeak: f(() => 60 + 5 * r()),
    gen2: f(() => 20),
    loh: f(() => 2),
    heapCount: f(() => 1),
  };
}

const a = { label: 'A', columns: session(1, 1) };
const b = { label: 'B', columns: session(2, 1.1) };
const t0 = performance.now();
const c = compareSessions(a, b);
const ms = performance.now() - t0;
console.log(
  `compareSessions, ${n.toLocaleString('en-US')} GCs per side: ${ms.toFixed(0)} ms (${c.metrics.length} metrics); load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
