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
  | 'too-large'
  /** A heap walk with lost events: its graph would be wrong. */
  | 'lost-events';

export class HeapDecodeError extends TraceDecodeError {
  override readonly name: string = 'HeapDecodeError';
  declare readonly code: HeapErrorCode;
  constructor(code: HeapErrorCode, offset: number, message: string, options?: { cause?: unknown }) {
    super(code, offset, message, options);
  }
}
