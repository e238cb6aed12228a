/**
 * Runs the `gcscope` command in this process (main() from the sources), its stdout and stderr
 * captured: for CLI tests that need a trace format registered only in tests (a made-up
 * machine-wide format, test/helpers/machine-toy-format.ts), which the built command cannot load.
 * Everything else about the command is the same code the built one runs.
 */
import { main } from '../../src-main/cli/main.js';
import type { CliResult } from './cli.js';

export async function runCliInProcess(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => ((stdout += typeof s === 'string' ? s : Buffer.from(s).toString()), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => ((stderr += typeof s === 'string' ? s : Buffer.from(s).toString()), true)) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
