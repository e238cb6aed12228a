/**
 * Typed decode errors for heap snapshots (.gcdump files and captured heap walks): the
 * format-neutral TraceDecodeError (trace/errors.ts) with the heap's own codes, so the CLI's
 * exit 2 and one-line message need not know this format.
 */
import { TraceDecodeError } from '../trace/errors.js';

export type HeapErrorCode =
  /** The file ended in the middle of a structure. */
  | 'truncated'
  /** Not a FastSerialization stream, or its first object is not a GCHeapDump. */
  | 'bad-magic'
  /** A GCHeapDump or MemoryGraph version this reader refuses. */
  | 'unsupported-version'
  /** A tag, compressed integer or index that breaks the format. */
  | 'malformed'
  /** A count or size larger than the bytes left could hold (hostile or corrupt input). */
  | 'too-large';

export class HeapDecodeError extends TraceDecodeError {
  override readonly name: string = 'HeapDecodeError';
  declare readonly code: HeapErrorCode;
  constructor(code: HeapErrorCode, offset: number, message: string, options?: { cause?: unknown }) {
    super(code, offset, message, options);
  }
}

/**
 * A heap walk that cannot become a graph: events were lost (an Index gap, references missing, the
 * session's drop count), the walk never ended, or there was none. Not a byte-level decode error:
 * it says what happened and what to change.
 */
export class HeapWalkError extends Error {
  override readonly name: string = 'HeapWalkError';
  constructor(
    readonly code: 'lost-events' | 'no-walk' | 'unfinished-walk',
    message: string,
  ) {
    super(message);
  }
}
