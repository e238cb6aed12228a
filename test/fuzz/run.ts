/**
 * Long fuzzing run: `npm run fuzz -- [--seconds N] [--seed S]`. Each input is a mutated real
 * trace: most go through the reader and GC decoders directly (fuzzOne: only typed decode errors,
 * TraceDecodeError, may escape), one in four through the CLI's main() in-process (cli-fuzz.ts: exit 0/2, one clean
 * stderr line). Runs to the end, saving every failing input under test-output/fuzz-failures/,
 * and prints the inputs tried and the failures; exits 1 if there were any.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fuzzOne, mutate, rng } from '../helpers/fuzz.js';
import { ALL_TRACES, traceBytes } from '../helpers/fixtures.js';
import { CLI_COMMANDS, fuzzCliOne, mutatedInput } from './cli-fuzz.js';
import { readFileSync } from 'node:fs';
import { readGcdump } from '../../src-main/heap/gcdump.js';
import { analyzeHeap } from '../../src-main/heap/analysis.js';
import { HeapDecodeError } from '../../src-main/heap/errors.js';
import { FIXTURES } from '../helpers/fixtures.js';

// Heap snapshots (.gcdump, issue 38): mutated real files through the reader and the analysis;
// only a HeapDecodeError may escape.
const GCDUMPS = ['heapview-sample-monovm.gcdump', 'perfview-test1-jscript.gcdump', 'workload-3000.gcdump'].map((f) => ({
  name: f,
  bytes: new Uint8Array(readFileSync(join(FIXTURES, 'heap', f))),
}));

const args = process.argv.slice(2);
const arg = (name: string, dflt: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || dflt : dflt);
const seconds = arg('--seconds', 60);
const seed = arg('--seed', 1);
const rand = rng(seed);
const names = ALL_TRACES.filter((n) => !n.includes('objver2'));
const outcomes = new Map<string, number>();
const dir = mkdtempSync(join(tmpdir(), 'gcscope-fuzz-'));
const db = join(dir, 'fuzz.db');
const failDir = join('test-output', 'fuzz-failures');
const end = Date.now() + seconds * 1000;
let runs = 0;
let cliRuns = 0;
let failures = 0;

function fail(what: string, bytes: Uint8Array, detail: string): void {
  failures++;
  mkdirSync(failDir, { recursive: true });
  const f = join(failDir, `seed${seed}-run${runs}-${what}.bin`);
  writeFileSync(f, bytes);
  console.error(`FAILURE ${what}, input saved as ${f}: ${detail.split('\n').slice(0, 6).join('\n')}`);
}

while (Date.now() < end) {
  const name = names[Math.floor(rand() * names.length)]!;
  if (rand() < 0.15) {
    const g = GCDUMPS[Math.floor(rand() * GCDUMPS.length)]!;
    const { bytes, kind } = mutate(g.bytes, rand);
    try {
      analyzeHeap(readGcdump(bytes).graph);
      outcomes.set('gcdump opened', (outcomes.get('gcdump opened') ?? 0) + 1);
    } catch (e) {
      if (e instanceof HeapDecodeError) outcomes.set(`gcdump ${e.code}`, (outcomes.get(`gcdump ${e.code}`) ?? 0) + 1);
      else fail(`gcdump-${g.name}-${kind}`, bytes, (e as Error)?.stack ?? String(e));
    }
  } else if (rand() < 0.25) {
    const cmd = CLI_COMMANDS[Math.floor(rand() * CLI_COMMANDS.length)]!;
    const input = mutatedInput(name, rand, dir);
    const r = await fuzzCliOne(input.bytes, cmd, input.file, db);
    outcomes.set(`cli ${cmd} exit ${r.code}`, (outcomes.get(`cli ${cmd} exit ${r.code}`) ?? 0) + 1);
    if (r.problem !== undefined) fail(`${cmd}-${name}-${input.kind}`, input.bytes, `${r.problem}\n${r.stderr}`);
    cliRuns++;
  } else {
    const { bytes, kind } = mutate(traceBytes(name), rand);
    try {
      const r = fuzzOne(bytes, 1 + Math.floor(rand() * 70000));
      outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
      if (r.outcome === 'malformed') fail(`reader-${name}-${kind}`, bytes, 'the reader hit an unexpected failure (NettraceError "malformed")');
    } catch (e) {
      fail(`reader-${name}-${kind}`, bytes, (e as Error)?.stack ?? String(e));
    }
  }
  runs++;
}
rmSync(dir, { recursive: true, force: true });
console.log(`${runs} inputs tried in ${seconds} s (seed ${seed}; ${cliRuns} through the CLI's main()), ${failures} failures:`, Object.fromEntries(outcomes));
process.exit(failures > 0 ? 1 : 0);
