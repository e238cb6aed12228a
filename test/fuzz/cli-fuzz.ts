/**
 * Fuzzing the command line in-process: a mutated trace (or a mutated zip of one) is written to
 * a file and `main()` of the CLI runs on it, exactly as `gcscope events|report|log|import FILE`
 * would, with stdout and stderr captured. This is where the reader's integer overflow surfaced
 * (a TypeError stack from the CLI), so the whole path is checked, not only the reader:
 * - main() resolves (never throws) with exit 0 or 2 (1 means an internal error on file input);
 * - on exit 2, stderr is exactly one `gcscope: …` line;
 * - stderr never holds a stack trace, an "internal error" or a raw control character.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src-main/cli/main.js';
import { mutate } from '../helpers/fuzz.js';
import { TRACES, traceBytes } from '../helpers/fixtures.js';

export type CliCommand = 'events' | 'report' | 'log' | 'import' | 'heap';

export interface CliFuzzResult {
  code: number;
  stderr: string;
  /** Why this run breaks the CLI's contract; undefined when it does not. */
  problem: string | undefined;
}

/** Runs main() with stdout/stderr captured (restored afterwards, whatever happens). */
export async function runMainCaptured(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; threw?: unknown }> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  let stdout = '';
  let stderr = '';
  process.stdout.write = ((c: string | Uint8Array) => ((stdout += typeof c === 'string' ? c : Buffer.from(c).toString()), true)) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => ((stderr += typeof c === 'string' ? c : Buffer.from(c).toString()), true)) as typeof process.stderr.write;
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } catch (e) {
    return { code: -1, stdout, stderr, threw: e };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

export function contractProblem(code: number, stderr: string, threw?: unknown): string | undefined {
  if (threw !== undefined) return `main() threw: ${(threw as Error)?.stack ?? String(threw)}`;
  if (code !== 0 && code !== 2) return `exit ${code}`;
  if (/\n\s+at |internal error/.test(stderr)) return 'stack trace or internal error on stderr';
  // eslint-disable-next-line no-control-regex -- looking for raw control characters is the point
  if (/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(stderr)) return 'raw control character on stderr';
  const lines = stderr.split('\n').filter((l) => l !== '');
  if (code === 2 && (lines.length !== 1 || !lines[0]!.startsWith('gcscope: '))) return `exit 2 with ${lines.length} stderr lines`;
  return undefined;
}

/** Runs one command on `bytes` written to `file`; `db` is used by import. */
export async function fuzzCliOne(bytes: Uint8Array, cmd: CliCommand, file: string, db: string): Promise<CliFuzzResult> {
  writeFileSync(file, bytes);
  const argv = cmd === 'import' ? ['import', file, '--db', db, '--force'] : [cmd, file];
  const r = await runMainCaptured(argv);
  return { code: r.code, stderr: r.stderr, problem: contractProblem(r.code, r.stderr, r.threw) };
}

/** A mutated input and the file name it is written under: a raw trace, or a zip mutated as a file. */
export function mutatedInput(name: string, rand: () => number, dir: string): { bytes: Uint8Array; file: string; kind: string } {
  if (name.endsWith('.zip') && rand() < 0.3) {
    // The zip file itself, mutated: exercises the unzip path (headers, sizes, compression).
    const { bytes, kind } = mutate(new Uint8Array(readFileSync(join(TRACES, name))), rand);
    return { bytes, file: join(dir, 'fuzz.nettrace.zip'), kind: `zip-${kind}` };
  }
  const { bytes, kind } = mutate(traceBytes(name), rand);
  return { bytes, file: join(dir, 'fuzz.nettrace'), kind };
}

// `heap` on a trace: no heap walk in it (exit 2, one line), or a damaged one.
export const CLI_COMMANDS: readonly CliCommand[] = ['events', 'report', 'log', 'import', 'heap'];
