/**
 * `--pid` and `--entry` for the commands that read a trace file: which trace of a zip, and which
 * process of a machine-wide trace (ETW's .etl holds every process on the machine). Without
 * `--pid`, a machine-wide trace shows the process with most GCs and says so on stderr in one line;
 * a PID the trace does not hold is refused (exit 2) in one line listing those with GCs.
 */
import type { TraceSelection } from '../recording/report-source.js';
import { chooseTraceProcess } from '../recording/trace-processes.js';
import { CliError, deferNote, EXIT_BAD_INPUT } from './output.js';

export interface TraceChoiceOptions {
  pid?: string;
  entry?: string;
}

/** A --pid as a process id (a positive integer), or undefined when not given. */
export function parsePid(pid: string | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const n = Number(pid);
  if (!/^\d+$/.test(pid.trim()) || !Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`--pid needs a process id (a positive number), not "${pid}"`, EXIT_BAD_INPUT);
  return n;
}

/** What to read of `file`: its zip entry and its process, the default said on stderr (once the command succeeds: output.ts deferNote). */
export async function selectTrace(file: string, opts: TraceChoiceOptions): Promise<TraceSelection> {
  const pid = parsePid(opts.pid);
  const entry = opts.entry;
  const choice = await chooseTraceProcess(file, pid, entry !== undefined ? { entry } : {});
  if (choice.note !== undefined) deferNote(choice.note);
  return { ...(entry !== undefined ? { entry } : {}), ...(choice.processId !== undefined ? { processId: choice.processId } : {}) };
}
