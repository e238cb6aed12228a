/**
 * The `gcscope` command line. Stable contract (docs/contract.md "The command line"): every command
 * accepts --json; exit 0 on success, 2 on bad input (one line naming the problem and, for
 * files, the byte offset), 1 on any other failure.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import type { runCompare } from './compare-command.js';
import type { DiagnoseOptions } from './diagnose.js';
import type { AllocsOptions } from './allocs.js';
import type { RequestsOptions } from './requests-command.js';
import type { WatchCliOptions } from './watch-command.js';
import type { HeapOptions, SnapshotOptions } from './heap-commands.js';
import { TraceDecodeError } from '../trace/errors.js';
import { TraceFileError } from '../recording/trace-file.js';
import type { StoreError } from '../store/db.js';
import { CliError, escapeControl, EXIT_BAD_INPUT, EXIT_FAILURE, flushNotes } from './output.js';
import { collectBeforeExit } from './exit-settle.js';
import { setRerunArgs } from '../diagnostics/rerun.js';

// Each command's module is loaded when that command runs (the bundle is split per command):
// `events` and `report FILE` never load sqlite3's native binding, the web server or zod, which
// were most of the CLI's startup time.
const events = () => import('./events.js');
const live = () => import('./live-commands.js');
const serve = () => import('./serve.js');
const store = () => import('./store-commands.js');
const diagnose = () => import('./diagnose.js');
const compare = () => import('./compare-command.js');
const allocs = () => import('./allocs.js');
const requestsCommand = () => import('./requests-command.js');
const watch = () => import('./watch-command.js');
const heap = () => import('./heap-commands.js');

let stdoutGuarded = false;

export async function main(argv: string[]): Promise<number> {
  // `gcscope report … | head`: a reader that goes away is not an error worth a stack trace.
  if (!stdoutGuarded) {
    stdoutGuarded = true;
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
      throw e;
    });
  }
  const program = new Command();
  program
    .name('gcscope')
    .description('GCScope — a profiler for the .NET garbage collector')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  let code = 0;
  program
    .command('events')
    .description("print a trace file's header and how many events of each kind it holds")
    .argument('<file>', '.nettrace, .netperf or .etl file, or a .zip holding one (.etl.zip)')
    .option('--entry <name>', 'a zip holding several traces: the one to read, by its name in the zip')
    .option('--json', 'machine-readable output')
    .option('--format <format>', 'text (default) or json')
    .action(async (file: string, opts: { json?: boolean; format?: string; entry?: string }) => {
      code = await (await events()).runEvents(file, { json: opts.json === true || opts.format === 'json', format: opts.format, entry: opts.entry });
    });

  program
    .command('ps')
    .description('list the .NET processes you can attach to')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      code = await (await live()).runPs(opts);
    });

  program
    .command('record')
    .description('attach to a .NET process (or start one) and record its GCs live')
    .argument('[command...]', 'after --: a command to start paused and record from its first GC')
    .option('--pid <pid>', 'attach to this running process')
    .option('--duration <time>', 'stop after this long (30s, 2m, 1h); a process started by this command is then stopped too')
    .option(
      '--profile <profile>',
      'gc-collect (default, lowest overhead), gc-verbose (adds allocation by type and call stacks: who triggered each GC, who allocates; pinning detail) gc-survival (adds bytes survived/moved per GC; large events, longer pauses) or gc-requests (gc-collect plus ASP.NET Core and HttpClient request events, as --requests)',
    )
    .option(
      '--requests [source...]',
      'also record requests, to see which ones the GC delayed (`gcscope requests`): alone, ASP.NET Core (Kestrel) requests and HttpClient calls; or name Provider/StartEvent/StopEvent of any EventSource, or an Activity source',
    )
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--out <dir>', 'folder for the raw .nettrace file (default: traces/ beside the database)')
    .option('--name <name>', 'session name')
    .option('--json', 'machine-readable output: one JSON line per GC, then a summary')
    .action(
      async (
        command: string[],
        opts: { pid?: string; duration?: string; profile?: string; requests?: true | string[]; db?: string; out?: string; name?: string; json?: boolean },
      ) => {
        code = await (await live()).runRecord(command, opts);
      },
    );

  program
    .command('watch')
    .description(
      'flight recorder: watch a .NET process for as long as it runs, store every GC, and write a .nettrace capture of the seconds around each GC that fires a trigger',
    )
    .option('--pid <pid>', 'the process to watch')
    .option(
      '--trigger <spec>',
      'when to capture (repeatable; commas join conditions that must all hold): pause>200ms (default), suspension>50ms, bgc-pause>20ms (a background GC final pause), gen=2, kind=blocking|background|foreground, induced, reason=AllocLarge, heap-after>2GB, paused>20%/60s (% of a window paused), finding[=rule-id][/60s] (a diagnosis warning)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--ring-mb <mb>', 'memory for the raw events kept before a trigger (default 64)')
    .option('--before <time>', 'how much to keep before the triggering GC (default 30s)')
    .option('--after <time>', 'how much to record after it (default 5s)')
    .option('--cooldown <time>', 'ignore triggers for this long after a capture (default 60s)')
    .option('--max-per-hour <n>', 'at most this many captures in any hour (default 5)')
    .option('--verbose-after', 'also record the seconds after a trigger with the gc-verbose profile (allocations by type), into a second file')
    .option('--reattach', 'when the process exits, wait for one with the same command line and watch it (a new session)')
    .option('--duration <time>', 'stop after this long (default: until the process exits or Ctrl+C)')
    .option('--out <dir>', 'folder for captures (default: captures/ beside the database)')
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--verbose', 'also print a line per GC')
    .option('--json', 'machine-readable output: one JSON object per line (watching, trigger, capture, note, summary)')
    .action(async (opts: WatchCliOptions) => {
      code = await (await watch()).runWatch(opts);
    });

  program
    .command('import')
    .description('decode a trace into a stored session, with progress, and print a summary')
    .argument('<file>', '.nettrace, .netperf or .etl file, or a .zip holding one (.etl.zip)')
    .option('--db <file>', 'database (default: the per-user database the app uses)')
    .option('--force', 'import again even if this file was imported before')
    .option('--name <name>', 'session name (default: the file name)')
    .option('--pid <pid>', 'a machine-wide trace (.etl): import only this process (default: one session per .NET process with GCs)')
    .option('--entry <name>', 'a zip holding several traces: the one to import, by its name in the zip')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { db?: string; force?: boolean; name?: string; json?: boolean; pid?: string; entry?: string }) => {
      code = await (await store()).runImport(file, opts);
    });

  program
    .command('report')
    .description('a GCStats-style report: summary, rollup by generation, one row per GC')
    .argument('[file]', 'trace file to analyse (or use --session)')
    .option('--session <id>', 'report a stored session')
    .option('--pid <pid>', 'a machine-wide trace (.etl): the process to read (default: the one with most GCs; `gcscope events FILE` lists them)')
    .option('--entry <name>', 'a zip holding several traces: the one to read, by its name in the zip')
    .option('--db <file>', 'database for --session')
    .option('--format <format>', 'text (default), json, csv or html')
    .option('--out <file>', 'write the report to a file')
    .option('--all', 'text format: list every GC (default: the last 1000)')
    .option('--json', 'same as --format json')
    .option(
      '--no-stacks',
      'skip call stacks and allocation samples ("allocations", "triggers" and the findings\' stack evidence): faster on traces with a large method rundown',
    )
    .action(
      async (
        file: string | undefined,
        opts: { session?: string; db?: string; format?: string; out?: string; all?: boolean; json?: boolean; stacks?: boolean; pid?: string; entry?: string },
      ) => {
        code = await (await store()).runReport(file, opts);
      },
    );

  program
    .command('diagnose')
    .description('findings: what is wrong with the GC, how bad, the evidence and what to do; exit 3 when one is a warning (docs/diagnosis.md)')
    .argument('[file]', 'trace file to diagnose (or use --session)')
    .option('--session <id>', 'diagnose a stored session')
    .option('--pid <pid>', 'a machine-wide trace (.etl): the process to read (default: the one with most GCs; `gcscope events FILE` lists them)')
    .option('--entry <name>', 'a zip holding several traces: the one to read, by its name in the zip')
    .option('--db <file>', 'database for --session')
    .option('--range <from:to>', 'only the GCs whose pause starts in this range: seconds since the trace started, e.g. 10:40 (either end may be left out)')
    .option(
      '--set <rule.setting=value>',
      'change a threshold (repeatable), e.g. --set high-pause-time.warnPercent=20',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--explain', 'also say why each rule did or did not fire')
    .option('--format <format>', 'text (default) or json')
    .option('--json', 'same as --format json')
    .option('--out <file>', 'write to a file')
    .option('--no-stacks', "skip call stacks (the findings' callers and allocating stacks): faster on traces with a large method rundown")
    .action(async (file: string | undefined, opts: DiagnoseOptions) => {
      code = await (await diagnose()).runDiagnose(file, opts);
    });

  program
    .command('allocs')
    .description('who allocates what: sampled bytes by type (with the large-object types and their stacks) or by call stack, from GC/AllocationTick events')
    .argument('[file]', 'trace file (or use --session)')
    .option('--session <id>', 'a stored session')
    .option('--pid <pid>', 'a machine-wide trace (.etl): the process to read (default: the one with most GCs; `gcscope events FILE` lists them)')
    .option('--entry <name>', 'a zip holding several traces: the one to read, by its name in the zip')
    .option('--db <file>', 'database for --session')
    .option('--by <what>', 'type (default) or stack')
    .option('--direction <dir>', 'with --by stack: bottom-up (default: allocating method first) or top-down')
    .option('--kind <kind>', 'only small, large (LOH) or pinned (POH) objects')
    .option('--search <text>', 'with --by stack: only stacks through a method whose name contains this')
    .option('--range <from:to>', 'seconds since the trace started, e.g. 10:40 (either end may be left out)')
    .option('--depth <n>', 'frames shown per stack / tree levels (default 12)')
    .option('--json', 'machine-readable output (every type, the whole call tree)')
    .action(async (file: string | undefined, opts: AllocsOptions) => {
      code = await (await allocs()).runAllocs(file, opts);
    });

  program
    .command('requests')
    .description(
      'which requests the GC delayed: each request with the GC pause time inside it, latency percentiles with and without GC, and the GC share of the slowest requests (record with --requests)',
    )
    .argument('[file]', 'trace file (or use --session)')
    .option('--session <id>', 'a stored session')
    .option('--db <file>', 'database for --session')
    .option('--range <from:to>', 'requests started in this range: seconds since the trace started, e.g. 10:40 (either end may be left out)')
    .option('--top <n>', 'list the N slowest requests (text: 20; json: all)')
    .option('--group <name>', 'which spans are the requests when the trace has several kinds (default: ASP.NET Core requests)')
    .option('--format <format>', 'text (default) or json')
    .action(async (file: string | undefined, opts: RequestsOptions) => {
      code = await (await requestsCommand()).runRequests(file, opts);
    });

  program
    .command('log')
    .description(
      'a GC log: one line per GC in the order they paused the process, with wall-clock time, kind, reason, compaction, pauses and heap sizes per generation',
    )
    .argument('[file]', 'trace file (or use --session)')
    .option('--session <id>', 'a stored session')
    .option('--pid <pid>', 'a machine-wide trace (.etl): the process to read (default: the one with most GCs; `gcscope events FILE` lists them)')
    .option('--entry <name>', 'a zip holding several traces: the one to read, by its name in the zip')
    .option('--db <file>', 'database for --session')
    .option('--out <file>', 'write the log to a file')
    .option('--json', 'one JSON object per GC per line')
    .action(async (file: string | undefined, opts: { session?: string; db?: string; out?: string; json?: boolean; pid?: string; entry?: string }) => {
      code = await (await store()).runLog(file, opts);
    });

  program
    .command('compare')
    .description(
      'two recordings (or two time ranges of one) side by side: pause percentiles per generation, % time paused, GCs per GB allocated, allocation rate, heap, each with its confidence interval and a verdict; exit 3 when a --fail-if condition holds, 4 when one cannot be decided on the data',
    )
    .argument('[files...]', 'trace files A and B (or use --session for either)')
    .option('--session <id>', 'a stored session as A or B (give it twice, or after one file); repeatable', (v: string, prev: string[] = []) => [...prev, v])
    .option('--db <file>', 'database for --session')
    .option(
      '--pid <pid>',
      'a machine-wide trace file (.etl): the process to compare (default: the one with most GCs); once for every file, or once per file in order',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option(
      '--entry <name>',
      'a zip holding several traces: the one to read; once for every file, or once per file in order',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--range-a <from:to>', "compare only A's GCs in this range (seconds since the trace started, e.g. 0:60)")
    .option('--range-b <from:to>', "compare only B's GCs in this range; with one recording and both ranges, compares two ranges of it")
    .option(
      '--fail-if <condition>',
      'exit 3 when B is significantly worse, e.g. "p90-pause-gen0 > +10%" or "gcs-per-gb > +20%" (exit 4 when the data cannot decide: too few GCs or time windows on a side); repeatable',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--include-warmup', 'keep the warm-up GCs (excluded by default: before the live data settles)')
    .option('--threshold <percent>', 'smallest change reported as one (default 5%)')
    .option('--seed <n>', 'bootstrap seed (default 1): the same seed gives the same intervals')
    .option('--format <format>', 'text (default), json or html')
    .option('--out <file>', 'write the comparison to a file')
    .option('--json', 'same as --format json')
    .action(async (files: string[], opts: Parameters<typeof runCompare>[1]) => {
      code = await (await compare()).runCompare(files, opts);
    });

  program
    .command('heap')
    .description(
      'what is on the heap and who holds it: types with count, bytes and retained bytes, the biggest retainers, paths to roots, the diff of two snapshots',
    )
    .argument('[file]', '.gcdump (dotnet-gcdump, PerfView, Visual Studio, GCScope) or .nettrace recorded with the heap-dump keywords')
    .option('--snapshot <id>', "a stored heap snapshot (gcscope snapshot); a second one is the diff's second", (v: string, prev: string[] = []) => [...prev, v])
    .option('--db <file>', 'database for --snapshot')
    .option('--by <what>', 'type (default) or dominators (the biggest retainers and what they hold)')
    .option('--path <type>', 'paths from a root to instances of this type (its name as shown, or part of it)')
    .option('--diff <file>', 'a later snapshot: each type gets countDelta, bytesDelta, retainedBytesDelta (it minus the first)')
    .option('--top <n>', 'rows shown (default 30 in text, all in JSON)')
    .option('--format <format>', 'text (default) or json')
    .option('--json', 'same as --format json')
    .action(async (file: string | undefined, opts: HeapOptions) => {
      code = await (await heap()).runHeap(file, opts);
    });

  program
    .command('snapshot')
    .description('take a heap snapshot of a running .NET process (a blocking gen2 GC walks its heap), store it as a session and write a .gcdump')
    .option('--pid <pid>', 'the process')
    .option('--out <file>', 'the .gcdump to write (default: snapshots/ beside the database)')
    .option('--name <name>', 'session name')
    .option('--buffer-mb <mb>', 'EventPipe buffer for the walk (default 1024): every event of the walk must fit, or the snapshot is refused')
    .option('--trace <file>', "also write the walk's raw events as a .nettrace (gcscope heap opens it)")
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--json', 'machine-readable output')
    .action(async (opts: SnapshotOptions) => {
      code = await (await heap()).runSnapshot(opts);
    });

  program
    .command('sessions')
    .description('list stored sessions')
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--check', 'also run the database integrity check')
    .option('--json', 'machine-readable output')
    .action(async (opts: { db?: string; check?: boolean; json?: boolean }) => {
      code = await (await store()).runSessions(opts);
    });

  program
    .command('delete')
    .description('delete a stored session and its GC data')
    .argument('<id>', 'session id (see gcscope sessions)')
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { db?: string; json?: boolean }) => {
      code = await (await store()).runDelete(id, opts);
    });

  program
    .command('serve')
    .description("the app's UI in a browser, on 127.0.0.1 with a random access token (prints the URL)")
    .option('--db <file>', 'database (default: the per-user database)')
    .option('--port <port>', 'port (default: any free port)')
    .action(async (opts: { db?: string; port?: string }) => {
      code = await (await serve()).runServe(opts);
    });

  try {
    // A process GCScope cannot reach without root is reported with this very command under sudo.
    setRerunArgs(argv);
    await program.parseAsync(argv, { from: 'user' });
    flushNotes(code);
    return code;
  } catch (e) {
    flushNotes(undefined);
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    const err = cliErrorOf(e);
    // One line on stderr, whatever the error: messages can quote bytes of a hostile file.
    process.stderr.write(`gcscope: ${escapeControl(err.message)}\n`);
    if (err.exitCode === EXIT_FAILURE && process.env.GCSCOPE_DEBUG === '1' && e instanceof Error && e.stack !== undefined) process.stderr.write(`${e.stack}\n`);
    return err.exitCode;
  }
}

/**
 * The one line (and exit code) for an error that reached the top: typed input errors are bad
 * input (2) with their offset; store errors and anything unexpected are failures (1), reported
 * by their message (GCSCOPE_DEBUG=1 adds the stack trace).
 */
export function cliErrorOf(e: unknown): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof TraceDecodeError) return new CliError(`${e.code}: ${e.message}`, EXIT_BAD_INPUT);
  if (e instanceof TraceFileError) return new CliError(e.message, EXIT_BAD_INPUT);
  // By name: store/db.js (and sqlite3 with it) is only loaded by the commands that use a database.
  if (e instanceof Error && e.name === 'StoreError') return new CliError(e.message, (e as StoreError).code === 'newer-schema' ? EXIT_BAD_INPUT : EXIT_FAILURE);
  // A file write that found the disk full (a raw trace, a capture, a report): what to do, not a stack.
  if (e instanceof Error && (e as NodeJS.ErrnoException).code === 'ENOSPC')
    return new CliError(`the disk is full: ${e.message.replace(/^ENOSPC: /, '')}; free space and try again`, EXIT_FAILURE);
  // A --session of another kind (shared/session.ts' SessionKindError): bad input, in one line.
  if (e instanceof Error && e.name === 'SessionKindError') return new CliError(e.message, EXIT_BAD_INPUT);
  const msg = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  return new CliError(`internal error: ${msg} (run with GCSCOPE_DEBUG=1 for details)`, EXIT_FAILURE);
}

/**
 * `node dist/cli.mjs …` runs the command as `bin/gcscope.mjs …` does (it printed nothing and
 * exited 0: the bundle only exports main). Imported by the bin script or a test, it does not run.
 */
function isProcessEntry(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return pathToFileURL(realpathSync(entry)).href === import.meta.url;
  } catch {
    return false;
  }
}
/** The command as a process: its exit code, and a process that can exit (exit-settle.ts). */
export async function runAsProcess(argv: string[]): Promise<void> {
  process.exitCode = await main(argv);
  collectBeforeExit();
}

if (isProcessEntry()) await runAsProcess(process.argv.slice(2));
