/**
 * Errors as the renderer sees them: a stable code and one or two sentences saying what happened
 * and what to do. Used by the contract's dispatcher and by the import worker.
 */
import { IpcError } from '../diagnostics/ipc-codec.js';
import { DiagnosticsError } from '../diagnostics/transport.js';
import { TraceDecodeError } from '../trace/errors.js';
import { TraceFileError } from '../recording/trace-file.js';
import { isKnownSessionKind, SessionKindError } from '../shared/session.js';
import { StoreError } from '../store/db.js';

/** An error the renderer shows as is: code + a sentence a user can act on. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error as the renderer sees it. */
export function toApiError(e: unknown): { code: string; message: string } {
  if (e instanceof ApiFailure) return { code: e.code, message: e.message };
  if (e instanceof DiagnosticsError) return { code: e.code, message: e.message };
  if (e instanceof TraceDecodeError) {
    // Format detection already says the file is not a trace, and what it looks like: not twice.
    if (e.code === 'bad-magic' && e.message.startsWith('not a trace ')) return { code: e.code, message: `This file is ${e.message}.` };
    return { code: e.code, message: `This file cannot be read as a .NET trace: ${e.message}.` };
  }
  if (e instanceof TraceFileError) return { code: e.code, message: e.message };
  if (e instanceof StoreError) return { code: e.code, message: e.message };
  // As a sentence, with what to do: the app shows it as is.
  if (e instanceof SessionKindError)
    return { code: e.code, message: `${e.message[0]!.toUpperCase()}${e.message.slice(1)}.${isKnownSessionKind(e.kind) ? '' : ' Update GCScope to open it.'}` };
  if (e instanceof IpcError) return { code: e.code, message: `The target process did not answer as expected: ${e.message}.` };
  return { code: 'internal', message: `Something went wrong inside GCScope: ${(e as Error)?.message ?? String(e)}` };
}
