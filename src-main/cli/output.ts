/** Exit codes and user-facing error formatting shared by the CLI commands. */
import { TraceDecodeError } from '../trace/errors.js';
import { TraceFileError } from '../recording/trace-file.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const notes: string[] = [];

/**
 * A note for stderr (which process of a machine-wide trace is shown, a compared trace read only
 * in part), said by main() once the command has finished, all of them in one line — and not at
 * all when the command fails or reports bad input: its one stderr line is then the problem
 * (issue 40: a damaged machine-wide trace gave the note and the error, two lines).
 */
export function deferNote(text: string): void {
  notes.push(text);
}

/** Says the deferred notes in one stderr line unless the command failed (exit 1) or met bad input (exit 2); forgets them either way. */
export function flushNotes(code: number | undefined): void {
  if (notes.length > 0 && code !== undefined && code !== EXIT_FAILURE && code !== EXIT_BAD_INPUT)
    process.stderr.write(`gcscope: note: ${escapeControl(notes.join('; '))}\n`);
  notes.length = 0;
}

/**
 * A status line a command says on success ("wrote FILE", "no garbage collections in this trace"),
 * with the deferred notes folded into it: stderr stays one line (issue 40: `log` of a machine-wide
 * trace with no complete GC said its line and then the note).
 */
export function sayLine(text: string): void {
  process.stderr.write(`${escapeControl(text)}${notes.length > 0 ? ` (note: ${escapeControl(notes.join('; '))})` : ''}\n`);
  notes.length = 0;
}

/** Forgets the deferred notes: the command has said its one line about the input (a trace read only in part). */
export function dropNotes(): void {
  notes.length = 0;
}

// Lives in shared/ so report/ (pure) escapes trace text the same way.
export { escapeControl } from '../shared/format.js';
import { escapeControl } from '../shared/format.js';

/** One line naming the problem (and byte offset) for errors caused by the input file. */
export function describeInputError(file: string, e: unknown): CliError | undefined {
  if (e instanceof TraceDecodeError) return new CliError(`${file}: ${e.code}: ${e.message}`, EXIT_BAD_INPUT);
  if (e instanceof TraceFileError) return new CliError(e.message, EXIT_BAD_INPUT);
  return undefined;
}

export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
