/**
 * Diagnostics client operations with version fallbacks (docs/formats.md §1.5–1.7):
 * ProcessInfo3 → 2 → 1, CollectTracing4 → 3 → 2 (an older runtime answers UNKNOWN_COMMAND to a
 * newer id, and runtimes before .NET 9 fail a session without stacks), StopTracing on a second
 * connection, ResumeRuntime.
 */
import { DEFAULT_RUNDOWN_KEYWORD } from './profiles.js';
import type net from 'node:net';
import {
  collectTracingMessage,
  parseProcessInfo,
  parseSessionId,
  processInfoMessage,
  resumeRuntimeMessage,
  runtimeMajor,
  stopTracingMessage,
  type CollectVersion,
  type ProcessInfo,
  type SessionRequest,
} from './commands.js';
import { expectOk, IpcError } from './ipc-codec.js';
import { connect, DiagnosticsError, exchange, request, type Endpoint } from './transport.js';

/** Something that opens a fresh connection to the runtime (a listening endpoint, or a reverse-connect port). */
export type Connector = () => Promise<net.Socket>;

export function endpointConnector(ep: Endpoint, timeoutMs?: number): Connector {
  return () => connect(ep, timeoutMs);
}

export async function getProcessInfo(open: Connector, timeoutMs?: number): Promise<ProcessInfo> {
  let last: unknown;
  for (const v of [3, 2, 1] as const) {
    const s = await open();
    try {
      const { message } = await exchange(s, processInfoMessage(v), `ProcessInfo${v === 1 ? '' : v}`, timeoutMs);
      return parseProcessInfo(v, expectOk(message, 'ProcessInfo'));
    } catch (e) {
      last = e;
      if (!(e instanceof IpcError && e.isUnknownCommand)) throw e;
    } finally {
      s.destroy();
    }
  }
  // .NET Core 3.x has no Process command set.
  throw last instanceof Error ? last : new Error(String(last));
}

export interface StartedSession {
  sessionId: bigint;
  /** The connection now carrying the nettrace stream (paused; attach a data listener and resume). */
  socket: net.Socket;
  /** Stream bytes that arrived with the response. */
  initial: Uint8Array;
  /** The CollectTracing version the runtime accepted. */
  version: CollectVersion;
  /** What we had to give up on an older runtime (for the user). */
  downgrades: string[];
}

/**
 * Versions to try for a runtime: newest it may support first. Non-lossy buffering ('block') is
 * CollectTracing6, asked only of a runtime whose ProcessInfo says .NET 11 or later (as
 * dotnet-gcdump does; an older one would answer UNKNOWN_COMMAND), with CollectTracing4's lossy
 * session as the fallback should it refuse.
 */
export function collectVersionsFor(runtimeVersion: string | null | undefined, buffering: SessionRequest['buffering'] = 'drop'): CollectVersion[] {
  const major = runtimeMajor(runtimeVersion);
  if (major === undefined) return [4, 3, 2];
  if (buffering === 'block' && major >= 11) return [6, 4, 3, 2];
  return major >= 9 ? [4, 3, 2] : [2];
}

/**
 * What asking for the GC rundown alone gives up before CollectTracing4 (.NET 9): the request can
 * only turn the default rundown on. On .NET 8 that rundown includes GCSettingsRundown
 * (dotnet/runtime#79671) along with every loaded method and module; before .NET 8 it has no GC
 * settings at all. (Checked live on .NET 8.0.31: GCSettingsRundown arrives.)
 */
export function rundownDowngrade(major: number | undefined): string {
  if (major !== undefined && major >= 8)
    return 'the session ends with the full rundown of methods and modules, not only the GC settings (that needs .NET 9 or later)';
  return 'no GC settings rundown (needs .NET 8 or later)';
}

export async function startSession(
  open: Connector,
  req: SessionRequest,
  runtimeVersion: string | null | undefined,
  timeoutMs?: number,
): Promise<StartedSession> {
  const versions = collectVersionsFor(runtimeVersion, req.buffering);
  let lastErr: unknown;
  for (const v of versions) {
    const s = await open();
    try {
      const { message, rest } = await exchange(s, collectTracingMessage(v, req), `CollectTracing${v}`, timeoutMs);
      const sessionId = parseSessionId(expectOk(message, 'starting an EventPipe session'));
      const downgrades: string[] = [];
      // Before CollectTracing4 a rundown is all or nothing: a downgrade only when less than all was asked for.
      if (v < 4 && req.rundownKeyword !== 0n && req.rundownKeyword !== DEFAULT_RUNDOWN_KEYWORD) downgrades.push(rundownDowngrade(runtimeMajor(runtimeVersion)));
      if (v < 3 && !req.requestStackwalk) downgrades.push('stacks are collected (turning them off needs .NET 9 or later)');
      if (v < 6 && req.buffering === 'block') downgrades.push('events may be dropped when the buffer fills (non-lossy buffering needs .NET 11 or later)');
      return { sessionId, socket: s, initial: rest, version: v, downgrades };
    } catch (e) {
      s.destroy();
      lastErr = e;
      // UNKNOWN_COMMAND: the runtime predates this command. FAIL/BAD_ENCODING on 3/4 can mean the
      // runtime cannot honour stackwalk=false; try the older form as dotnet-trace does.
      if (e instanceof IpcError && e.code === 'server-error' && v > 2) continue;
      throw e;
    }
  }
  if (lastErr instanceof IpcError && lastErr.isUnknownCommand) {
    throw new DiagnosticsError(
      'runtime-too-old',
      `the target runtime does not support EventPipe sessions over IPC (.NET Core 3.0 or later is needed): ${lastErr.message}`,
    );
  }
  throw lastErr instanceof Error ? lastErr : new Error(String(lastErr));
}

export async function stopSession(open: Connector, sessionId: bigint, timeoutMs?: number): Promise<void> {
  const s = await open();
  try {
    const { message } = await exchange(s, stopTracingMessage(sessionId), 'StopTracing', timeoutMs);
    expectOk(message, 'stopping the session');
  } finally {
    s.destroy();
  }
}

export async function resumeRuntime(open: Connector, timeoutMs?: number): Promise<void> {
  const s = await open();
  try {
    const { message } = await exchange(s, resumeRuntimeMessage(), 'ResumeRuntime', timeoutMs);
    expectOk(message, 'resuming the runtime');
  } finally {
    s.destroy();
  }
}

/** ProcessInfo over a listening endpoint, as `gcscope ps` needs it. */
export async function probe(ep: Endpoint, timeoutMs = 1500): Promise<ProcessInfo> {
  return getProcessInfo(endpointConnector(ep, timeoutMs), timeoutMs);
}

export { request };
