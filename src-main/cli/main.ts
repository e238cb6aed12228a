/**
 * The `gcscope` command line. Stable contract (DESIGN.md "The command line"): every command
 * accepts --json; exit 0 on success, 2 on bad input (one line naming the problem and, for
 * files, the byte offset), 1 on any other failure.
 */
import { Command, CommanderError } from 'commander';
import { runEvents } from './events.js';
import { CliError, EXIT_FAILURE } from './output.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command();
  program
    .name('gcscope')
    .description('GCScope — a profiler for the .NET garbage collector')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  let code = 0;
  program
    .command('events')
    .description('print a trace file\'s header and how many events of each kind it holds')
    .argument('<file>', '.nettrace / .netperf file, or a .zip holding one')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { json?: boolean }) => {
      code = await runEvents(file, { json: opts.json === true });
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof CliError) {
      process.stderr.write(`gcscope: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(`gcscope: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT_FAILURE;
  }
}
