/** Exit codes and user-facing error formatting shared by the CLI commands. */
import { NettraceError } from '../nettrace/errors.js';
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

/**
 * Makes text safe to print as one line on a terminal: control characters (C0, DEL, C1 — an
 * `ESC[2J` from a hostile file would clear the screen, a newline would split the message) and
 * Unicode line/paragraph separators become visible escapes such as `\x1b` and `\n`.
 */
export function escapeControl(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    const code = c.charCodeAt(0);
    return named[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** One line naming the problem (and byte offset) for errors caused by the input file. */
export function describeInputError(file: string, e: unknown): CliError | undefined {
  if (e instanceof NettraceError) return new CliError(`${file}: ${e.code}: ${e.message}`, EXIT_BAD_INPUT);
  if (e instanceof TraceFileError) return new CliError(e.message, EXIT_BAD_INPUT);
  return undefined;
}

export function formatInt(n: number): string {
  return n.toLocaleString('en-US');
}

export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
