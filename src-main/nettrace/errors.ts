/**
 * Typed decode errors. Every error carries a stable `code`, the absolute byte offset in the
 * stream where the problem was found, and a message that tells a user what is wrong. They are
 * the format-neutral TraceDecodeError (trace/errors.ts) with NetPerf/NetTrace's own codes, so
 * callers that test for that base need not know this format.
 */
import { TraceDecodeError } from '../trace/errors.js';

export type NettraceErrorCode =
  /** The stream ended in the middle of a structure. Everything before it was delivered. */
  | 'truncated'
  /** Neither `Nettrace` nor a FastSerialization header: not a trace file. */
  | 'bad-magic'
  /** A format version this reader refuses (NetPerf V1/V2, or a NetTrace major above 6). */
  | 'unsupported-version'
  /** A FastSerialization tag that is not the one the format requires here. */
  | 'bad-tag'
  /** A block header or block content that violates the format (size, name, version). */
  | 'bad-block'
  /** An event header or event blob that does not fit its block. */
  | 'bad-event'
  /** A metadata record that cannot be parsed or redefines an id. */
  | 'bad-metadata'
  /** An event that refers to a metadata id never defined. */
  | 'unknown-metadata'
  /** A size field larger than any real trace would produce (hostile or corrupt input). */
  | 'too-large'
  /** Malformed data that tripped an unexpected failure in the decoder (the original is `cause`). */
  | 'malformed';

export class NettraceError extends TraceDecodeError {
  override readonly name: string = 'NettraceError';
  declare readonly code: NettraceErrorCode;
  constructor(code: NettraceErrorCode, offset: number, message: string, options?: { cause?: unknown }) {
    super(code, offset, message, options);
  }
}

/**
 * Any failure while decoding becomes a NettraceError: a decoder bug triggered by hostile bytes
 * (a TypeError, a RangeError) is still bad input at a known offset, never a stack trace.
 */
export function asNettraceError(e: unknown, offset: number): NettraceError {
  if (e instanceof NettraceError) return e;
  // The shared byte cursor (trace/byte-cursor.ts) throws the format-neutral base: same code and offset.
  if (e instanceof TraceDecodeError) return new NettraceError(e.code as NettraceErrorCode, e.offset, e.detail, { cause: e });
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new NettraceError('malformed', offset, `the trace is malformed here and could not be decoded (${what})`, { cause: e });
}

/** NetPerf V1/V2 and NetTrace majors above 6. `version` is the version found in the stream. */
export class UnsupportedVersionError extends NettraceError {
  constructor(
    readonly version: number,
    readonly minSupported: number,
    readonly maxSupported: number,
    offset: number,
  ) {
    super(
      'unsupported-version',
      offset,
      `unsupported trace format version ${version}: GCScope reads versions ${minSupported} to ${maxSupported} ` +
        (version < minSupported
          ? '(this is a .NET Core 2.0-era NetPerf file; record it again with a newer runtime)'
          : '(this file was written by a newer tool; update GCScope)'),
    );
  }
}

export function isNettraceError(e: unknown): e is NettraceError {
  return e instanceof NettraceError;
}
