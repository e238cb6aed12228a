/**
 * `npm run fuzz -- [--reader nettrace|all] [--count N | --seconds S] [--seed S] [--jobs N]`
 *
 * Layout-aware fuzzing of each trace reader through the real CLI (test/fuzz/README.md). Input i
 * of a run is made from `rng(mix(seed, i))` alone, so (seed, i) names it. Each input goes through
 * one file-reading command (mutators/types.ts DEFAULT_COMMANDS) in a pool of long-lived worker
 * processes (pool.ts), held to the contract (contract.ts: 30 s, 400 MB, exit 0/2, one clean
 * stderr line). Failing inputs are saved to test/fixtures/fuzz-regressions/<reader>/ with a JSON
 * sidecar and replayed by test/hardening/fuzz-regressions.test.ts. Prints the figures (and
 * writes them to test-output/fuzz-<reader>-seed<S>.json); exits 1 if anything failed.
 *
 * Other options: --hang-ms (30000), --rss-mb (400), --save-max N (inputs saved per distinct
 * failure, default 3), --no-save, --recycle N (inputs per worker before it is replaced, 200),
 * --only FAMILY[,FAMILY] (only these mutation families, e.g. gc-payload).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { FIXTURES } from '../helpers/fixtures.js';
import { verdict, type Limits } from './contract.js';
import { inputRand } from './input-rand.js';
import { MUTATORS } from './mutators/index.js';
import { DEFAULT_COMMANDS, pickWeighted, type FuzzCommand, type ReaderMutator, type Seed } from './mutators/types.js';
import { Pool } from './pool.js';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const num = (name: string, dflt: number): number => {
  const v = Number(opt(name));
  return Number.isFinite(v) && opt(name) !== undefined ? v : dflt;
};
const readerArg = opt('--reader') ?? 'nettrace';
const count = opt('--count') !== undefined ? num('--count', 1000) : undefined;
const seconds = count === undefined ? num('--seconds', 60) : Infinity;
const runSeed = num('--seed', 1);
const jobs = Math.max(1, num('--jobs', 1));
const limits: Limits = { hangMs: num('--hang-ms', 30_000), rssBytes: num('--rss-mb', 400) * 1048576 };
const saveMax = args.includes('--no-save') ? 0 : num('--save-max', 3);
const recycle = num('--recycle', 200);
/** `--only a,b`: only these mutation families (e.g. gc-payload,event-varint), to aim a run at one decoder. */
const only = opt('--only')?.split(',');

const readers: ReaderMutator[] = readerArg === 'all' ? Object.values(MUTATORS) : [MUTATORS[readerArg]!];
if (readers.some((r) => r === undefined)) {
  console.error(`unknown reader "${readerArg}"; known: ${Object.keys(MUTATORS).join(', ')}, all`);
  process.exit(2);
}

interface Figures {
  reader: string;
  seed: number;
  inputs: number;
  seconds: number;
  inputsPerSecond: number;
  byExit: Record<string, number>;
  byCommand: Record<string, number>;
  /** Total milliseconds spent per command. */
  msByCommand: Record<string, number>;
  byFormat: Record<string, number>;
  byMutation: Record<string, number>;
  worstMs: { ms: number; input: number; command: string; seed: string; mutation: string };
  peakRss: { mb: number; input: number; command: string; seed: string; mutation: string };
  failures: { kind: string; input: number; command: string; seed: string; mutation: string; detail: string; saved?: string }[];
}

async function fuzzReader(m: ReaderMutator): Promise<Figures> {
  const t0 = performance.now();
  const seeds = m.seeds();
  const commands: FuzzCommand[] = m.commands ?? DEFAULT_COMMANDS;
  const dir = mkdtempSync(join(tmpdir(), `gcscope-fuzz-${m.reader}-`));
  const baseFile = new Map<Seed, string>();
  seeds.forEach((s, k) => {
    const f = join(dir, `seed${k}${s.ext}`);
    writeFileSync(f, s.bytes);
    baseFile.set(s, f);
  });
  const saveDir = join(FIXTURES, 'fuzz-regressions', m.reader);
  const savedPerKey = new Map<string, number>();
  const pool = new Pool({ jobs, hangMs: limits.hangMs, killRssBytes: Math.max(limits.rssBytes * 3, 1.5 * 1024 ** 3), recycleEvery: recycle });
  const f: Figures = {
    reader: m.reader,
    seed: runSeed,
    inputs: 0,
    seconds: 0,
    inputsPerSecond: 0,
    byExit: {},
    byCommand: {},
    msByCommand: {},
    byFormat: {},
    byMutation: {},
    worstMs: { ms: 0, input: -1, command: '', seed: '', mutation: '' },
    peakRss: { mb: 0, input: -1, command: '', seed: '', mutation: '' },
    failures: [],
  };
  const inc = (o: Record<string, number>, k: string): void => void (o[k] = (o[k] ?? 0) + 1);
  const end = Date.now() + seconds * 1000;
  let next = 0;
  let lastReport = Date.now();

  const lane = async (slot: number): Promise<void> => {
    const sdir = join(dir, `lane${slot}`);
    mkdirSync(sdir);
    for (;;) {
      if (count !== undefined ? next >= count : Date.now() >= end) return;
      const i = next++;
      const rand = inputRand(runSeed, i);
      const seed = pickWeighted(seeds, rand);
      let mutant: ReturnType<ReaderMutator['mutate']>;
      try {
        mutant = m.mutate(seed, rand, only);
      } catch (e) {
        // A bug in the mutator is not a finding about the reader: counted and reported, the run goes on.
        inc(f.byExit, 'mutator-error');
        console.error(`mutator error on input ${i} (${seed.name}): ${(e as Error)?.stack ?? String(e)}`);
        continue;
      }
      const cmd = pickWeighted(commands, rand);
      const file = join(sdir, `input${mutant.ext}`);
      writeFileSync(file, mutant.bytes);
      const db = join(sdir, 'fuzz.db');
      for (const x of ['', '-wal', '-shm']) rmSync(db + x, { force: true });
      const argv = cmd.argv.map((a) => (a === 'FILE' ? file : a === 'BASE' ? baseFile.get(seed)! : a === 'DB' ? db : a));
      const r = await pool.run(argv);
      f.inputs++;
      inc(f.byExit, r.killed ?? String(r.code));
      inc(f.byCommand, cmd.name);
      f.msByCommand[cmd.name] = Math.round((f.msByCommand[cmd.name] ?? 0) + r.ms);
      inc(f.byFormat, seed.format);
      for (const part of mutant.mutation.split('; ')) inc(f.byMutation, part.split(':')[0]!);
      if (r.ms > f.worstMs.ms) f.worstMs = { ms: Math.round(r.ms), input: i, command: cmd.name, seed: seed.name, mutation: mutant.mutation };
      if (r.peakRss / 1048576 > f.peakRss.mb)
        f.peakRss = { mb: Math.round(r.peakRss / 1048576), input: i, command: cmd.name, seed: seed.name, mutation: mutant.mutation };
      const v = verdict(r, cmd.extraExits ?? [], limits);
      if (v !== undefined) {
        const failure: Figures['failures'][number] = {
          kind: v.kind,
          input: i,
          command: cmd.name,
          seed: seed.name,
          mutation: mutant.mutation,
          detail: v.detail,
        };
        // One saved input per distinct symptom is enough to fix it; digits vary between instances.
        const key = `${v.kind} ${cmd.name} ${v.detail.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 120)}`;
        const n = savedPerKey.get(key) ?? 0;
        if (n < saveMax) {
          savedPerKey.set(key, n + 1);
          mkdirSync(saveDir, { recursive: true });
          const stem = `${v.kind}-${cmd.name}-seed${runSeed}-input${i}`;
          const big = mutant.bytes.length > 256 * 1024;
          const inputName = `${stem}${mutant.ext}${big ? '.gz' : ''}`;
          writeFileSync(join(saveDir, inputName), big ? gzipSync(mutant.bytes) : mutant.bytes);
          const sidecar = {
            reader: m.reader,
            input: inputName,
            ext: mutant.ext,
            argv: cmd.argv,
            extraExits: cmd.extraExits ?? [],
            seedTrace: seed.name,
            format: seed.format,
            runSeed,
            inputIndex: i,
            mutation: mutant.mutation,
            failure: {
              kind: v.kind,
              detail: v.detail,
              code: r.code,
              ms: Math.round(r.ms),
              peakRssMb: Math.round(r.peakRss / 1048576),
              stderr: r.stderr.slice(0, 2000),
            },
            found: new Date().toISOString().slice(0, 10),
          };
          writeFileSync(join(saveDir, `${stem}.json`), `${JSON.stringify(sidecar, null, 2)}\n`);
          failure.saved = join('test/fixtures/fuzz-regressions', m.reader, inputName);
        }
        f.failures.push(failure);
        console.error(
          `FAILURE ${v.kind} (input ${i}, ${cmd.name}, ${seed.name}: ${mutant.mutation})${failure.saved ? ` saved as ${failure.saved}` : ''}\n  ${v.detail.split('\n').join('\n  ')}`,
        );
      }
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now();
        const s = (performance.now() - t0) / 1000;
        console.log(
          `[${m.reader}] ${f.inputs} inputs in ${s.toFixed(0)} s (${(f.inputs / s).toFixed(1)}/s), ${f.failures.length} failures, worst ${f.worstMs.ms} ms, peak RSS ${f.peakRss.mb} MB, outcomes ${JSON.stringify(f.byExit)}`,
        );
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: jobs }, (_, k) => lane(k)));
  } finally {
    pool.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  f.seconds = Math.round((performance.now() - t0) / 1000);
  f.inputsPerSecond = Math.round((f.inputs / ((performance.now() - t0) / 1000)) * 10) / 10;
  return f;
}

let failed = false;
for (const m of readers) {
  const f = await fuzzReader(m);
  failed ||= f.failures.length > 0;
  mkdirSync('test-output', { recursive: true });
  const out = join('test-output', `fuzz-${m.reader}-seed${runSeed}.json`);
  writeFileSync(out, `${JSON.stringify(f, null, 2)}\n`);
  console.log(
    `\n${m.reader}: ${f.inputs} inputs in ${f.seconds} s (${f.inputsPerSecond}/s, seed ${runSeed}, ${jobs} job${jobs > 1 ? 's' : ''}); ${f.failures.length} failures`,
  );
  console.log(`  outcomes: ${JSON.stringify(f.byExit)}`);
  console.log(`  commands: ${JSON.stringify(f.byCommand)}; ms per command: ${JSON.stringify(f.msByCommand)}`);
  console.log(`  formats:  ${JSON.stringify(f.byFormat)}`);
  console.log(`  mutations: ${JSON.stringify(f.byMutation)}`);
  console.log(`  worst time: ${f.worstMs.ms} ms (input ${f.worstMs.input}, ${f.worstMs.command} on ${f.worstMs.seed}: ${f.worstMs.mutation})`);
  console.log(`  peak RSS:   ${f.peakRss.mb} MB (input ${f.peakRss.input}, ${f.peakRss.command} on ${f.peakRss.seed}: ${f.peakRss.mutation})`);
  console.log(`  figures in ${out}`);
}
process.exit(failed ? 1 : 0);
