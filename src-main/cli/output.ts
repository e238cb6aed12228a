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

// Lives in shared/ so report/ (pure) escapes trace text the same way.
export { escapeControl } from '../shared/format.js';

/** One line naming the problem (and byte offset) for errors caused by the input file. */
export function describeInputError(file: string, e: unknown): CliError | undefined {
  if (e instanceof TraceDecodeError) return new CliError(`${file}: ${e.code}: ${e.message}`, EXIT_BAD_INPUT);
  if (e instanceof TraceFileError) return new CliError(e.message, EXIT_BAD_INPUT);
  return undefined;
}

export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
