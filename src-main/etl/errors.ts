/**
 * The ETL reader's typed decode errors: the format-neutral TraceDecodeError (trace/errors.ts)
 * with ETW's own codes, so callers that test for the base need not know this format.
 */
import { TraceDecodeError } from '../trace/errors.js';

export type EtlErrorCode =
  /** The stream ended inside a buffer; every event of the buffers before it was delivered. */
  | 'truncated'
  /** The first buffer is not a WMI_BUFFER_HEADER followed by the EventTrace/Header event. */
  | 'bad-magic'
  /** A buffer header whose sizes cannot be right (smaller than its header, larger than any logger writes). */
  | 'bad-buffer'
  /** A compressed buffer that MS-XCA plain LZ77 does not decompress to exactly its logical size. */
  | 'unsupported-compression'
  /** An event header inside a buffer that breaks the layout (size, marker flags). */
  | 'bad-event'
  /** A clock this reader cannot convert (ClockType 3, CPU cycles). */
  | 'unsupported-version'
  /** Malformed data that tripped an unexpected failure in the decoder (the original is `cause`). */
  | 'malformed';

export class EtlError extends TraceDecodeError {
  override readonly name: string = 'EtlError';
  declare readonly code: EtlErrorCode;
  constructor(code: EtlErrorCode, offset: number, message: string, options?: { cause?: unknown }) {
    super(code, offset, message, options);
  }
}

/** Any failure while decoding becomes an EtlError at a known offset, never a stack trace. */
export function asEtlError(e: unknown, offset: number): EtlError {
  if (e instanceof EtlError) return e;
  if (e instanceof TraceDecodeError) return new EtlError(e.code as EtlErrorCode, e.offset, e.detail, { cause: e });
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new EtlError('malformed', offset, `the ETW trace is malformed here and could not be decoded (${what})`, { cause: e });
}
