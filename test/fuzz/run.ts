/**
 * Long fuzzing run: `npm run fuzz -- [--seconds N] [--seed S]`. Prints outcome counts; exits 1 on
 * the first mutation that makes the reader throw anything but a NettraceError, saving it under
 * test-output/fuzz-crash-*.bin.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fuzzOne, mutate, rng } from '../helpers/fuzz.js';
import { ALL_TRACES, traceBytes } from '../helpers/fixtures.js';

const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1] ?? 60) || 60;
const seed = Number(args[args.indexOf('--seed') + 1] ?? 1) || 1;
const rand = rng(seed);
const names = ALL_TRACES.filter((n) => !n.includes('objver2'));
const outcomes = new Map<string, number>();
const end = Date.now() + seconds * 1000;
let runs = 0;
while (Date.now() < end) {
  const name = names[Math.floor(rand() * names.length)]!;
  const { bytes, kind } = mutate(traceBytes(name), rand);
  try {
    const r = fuzzOne(bytes, 1 + Math.floor(rand() * 70000));
    outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
  } catch (e) {
    mkdirSync('test-output', { recursive: true });
    const f = `test-output/fuzz-crash-${seed}-${runs}.bin`;
    writeFileSync(f, bytes);
    console.error(`crash on ${name} (${kind}), saved ${f}:`, e);
    process.exit(1);
  }
  runs++;
}
console.log(`${runs} mutated traces in ${seconds} s, seed ${seed}:`, Object.fromEntries(outcomes));
