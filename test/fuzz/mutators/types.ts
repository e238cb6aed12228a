/**
 * What a reader's fuzz mutator provides (one module per reader under test/fuzz/mutators/, listed
 * in index.ts). The harness (run.ts, pool.ts) is format-neutral: it picks a seed, asks the
 * mutator for a mutant, writes it to a file named with the seed's extension and runs a CLI
 * command on it in a worker process, holding the result to the CLI's contract.
 */

/** A seeded random source in [0, 1) (test/helpers/fuzz.ts rng). */
export type Rand = () => number;

/** A well-formed input the mutations start from: a real trace from test/fixtures, or one derived from them. */
export interface Seed {
  /** Stable name: the fixture's file name, or a derived seed's name (e.g. "v6-from:workload-net10-hardlimit"). */
  name: string;
  /** The seed's bytes (unzipped). */
  bytes: Uint8Array;
  /** File extension the CLI sees the input under, with the dot: ".nettrace", ".netperf", ".etl". */
  ext: string;
  /** Relative chance of being picked (big seeds are slow per input: give them less). */
  weight: number;
  /** Format label for the figures: "NetPerf V3", "NetTrace V5", … */
  format: string;
}

export interface Mutant {
  bytes: Uint8Array;
  /** What was done, precise enough to read in a failure report: "event-varint tsDelta=2^64-1 (len 10) in EventBlock #3 event 17". */
  mutation: string;
  /** Extension to write the input under (usually the seed's; ".nettrace.zip" when the mutant was zipped). */
  ext: string;
}

/** A CLI command that reads one trace file; FILE, BASE (the unmutated seed) and DB are filled in by the harness. */
export interface FuzzCommand {
  name: string;
  argv: string[];
  weight: number;
  /** Exit codes that are part of this command's contract besides 0 and 2 (diagnose: 3 = a warning finding). */
  extraExits?: number[];
}

export interface ReaderMutator {
  /** `--reader` name. */
  reader: string;
  /** Loaded once per process (parse-heavy work may be cached by the module). */
  seeds(): Seed[];
  /**
   * One mutant of `seed`; deterministic for a given rand state. `only` (from `--only`) restricts
   * it to these mutation families (the first word of each part of Mutant.mutation).
   */
  mutate(seed: Seed, rand: Rand, only?: readonly string[]): Mutant;
  /** The commands this reader's inputs go through (defaults to DEFAULT_COMMANDS). */
  commands?: FuzzCommand[];
}

/**
 * The file-reading commands, weighted towards the cheap ones. `report` and `allocs` decode call
 * stacks (stack blocks); `import` goes through the store; `compare` reads the mutant as A and the
 * unmutated seed as B.
 */
export const DEFAULT_COMMANDS: FuzzCommand[] = [
  { name: 'events', argv: ['events', 'FILE'], weight: 25 },
  { name: 'log', argv: ['log', 'FILE'], weight: 20 },
  { name: 'report', argv: ['report', 'FILE', '--format', 'json'], weight: 15 },
  { name: 'diagnose', argv: ['diagnose', 'FILE'], weight: 12, extraExits: [3] },
  { name: 'allocs', argv: ['allocs', 'FILE', '--by', 'stack'], weight: 10 },
  { name: 'import', argv: ['import', 'FILE', '--db', 'DB', '--force'], weight: 12 },
  { name: 'compare', argv: ['compare', 'FILE', 'BASE'], weight: 6 },
];

/** Picks by weight. */
export function pickWeighted<T extends { weight: number }>(items: readonly T[], rand: Rand): T {
  const total = items.reduce((s, x) => s + x.weight, 0);
  let r = rand() * total;
  for (const x of items) {
    r -= x.weight;
    if (r < 0) return x;
  }
  return items[items.length - 1]!;
}

export function pick<T>(items: readonly T[], rand: Rand): T {
  return items[Math.floor(rand() * items.length)]!;
}
