/**
 * The base of every reader's typed decode error: a stable `code`, the absolute byte offset in the
 * stream where the problem was found, and a message that tells a user what is wrong. Callers
 * (the CLI's exit code 2, the app's error envelope, an import keeping what was decoded before the
 * damage) test for this class, never for one format's subclass (nettrace/errors.ts).
 */

/**
 * Codes every format shares; a format's own subclass may add more (nettrace/errors.ts).
 * - `truncated`: the stream ended in the middle of a structure; everything before it was delivered.
 * - `bad-magic`: no reader recognizes the first bytes (format detection, detect.ts), or they break
 *   the format's own header.
 * - `unsupported-version`: a version of the format this reader refuses.
 * - `malformed`: damage that tripped an unexpected failure in a decoder (the original is `cause`).
 */
export type TraceErrorCode = 'truncated' | 'bad-magic' | 'unsupported-version' | 'malformed' | (string & {});

export class TraceDecodeError extends Error {
  override readonly name: string = 'TraceDecodeError';
  /** The message without the " (at byte offset N)" suffix (for a reader re-typing the error). */
  readonly detail: string;
  constructor(
    readonly code: TraceErrorCode,
    /** Absolute byte offset from the first byte of the stream. */
    readonly offset: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${message} (at byte offset ${offset})`, options);
    this.detail = message;
  }
}

export function isTraceDecodeError(e: unknown): e is TraceDecodeError {
  return e instanceof TraceDecodeError;
}
