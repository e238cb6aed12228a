/**
 * Diagnostics IPC command payloads (docs/formats.md §1.5, §1.7): CollectTracing 2–6, StopTracing,
 * ProcessInfo 1–3, ResumeRuntime. Byte layouts follow the client serializers and the runtime's
 * parsers where the protocol document is wrong (CollectTracing3 is id 0x04; CollectTracing4 has
 * requestStackwalk; ProcessInfo's wire order is pid, cookie, command line, os, arch).
 */
import { CommandSet, EventPipeCommand, PayloadReader, PayloadWriter, ProcessCommand, encodeMessage } from './ipc-codec.js';

export interface ProviderConfig {
  name: string;
  keywords: bigint;
  /** 0 LogAlways … 5 Verbose. */
  level: number;
  /** `key=value;…` filter data for EventSources; '' for none. */
  arguments?: string;
}

export interface SessionRequest {
  providers: ProviderConfig[];
  circularBufferMB: number;
  /** Rundown keyword for CollectTracing4+ (0 = no rundown); CollectTracing2/3 map ≠ 0 to "rundown on". */
  rundownKeyword: bigint;
  requestStackwalk: boolean;
  /**
   * 'block' asks for non-lossy buffering (the runtime's writers wait for the reader instead of
   * dropping events): CollectTracing6, .NET 11 and later only. Absent or 'drop': the runtime's
   * default lossy circular buffer.
   */
  buffering?: 'drop' | 'block';
}

/** The CollectTracing variants we can send, newest first. */
export type CollectVersion = 6 | 5 | 4 | 3 | 2;

/**
 * CollectTracing6's trailing session buffering mode (dotnet/diagnostics
 * Microsoft.Diagnostics.NETCore.Client EventPipeSessionConfiguration.cs, EventPipeBufferingMode:
 * Drop = 0, Block = 1; runtime PR #129457, diagnostics PR #5886).
 */
const BUFFERING_MODE = { drop: 0, block: 1 } as const;

const NETTRACE_FORMAT = 1;

function providers(w: PayloadWriter, list: ProviderConfig[], withFilter: boolean): void {
  w.u32(list.length);
  for (const p of list) {
    w.u64(p.keywords)
      .u32(p.level)
      .string(p.name)
      .string(p.arguments ?? '');
    // CollectTracing5: event filter {bool enable, array<uint> ids}; disabled + empty = all events.
    if (withFilter) w.bool(false).u32(0);
  }
}

export function collectTracingMessage(version: CollectVersion, r: SessionRequest): Uint8Array {
  const w = new PayloadWriter();
  switch (version) {
    case 6:
      // CollectTracing5's layout (session type 0 = IPC stream first, providers with their event
      // filters) and then the buffering mode as a u32.
      w.u32(0).u32(r.circularBufferMB).u32(NETTRACE_FORMAT).u64(r.rundownKeyword).bool(r.requestStackwalk);
      providers(w, r.providers, true);
      w.u32(BUFFERING_MODE[r.buffering ?? 'drop']);
      return encodeMessage(CommandSet.EventPipe, EventPipeCommand.CollectTracing6, w.bytes());
    case 5:
      w.u32(0).u32(r.circularBufferMB).u32(NETTRACE_FORMAT).u64(r.rundownKeyword).bool(r.requestStackwalk);
      providers(w, r.providers, true);
      return encodeMessage(CommandSet.EventPipe, EventPipeCommand.CollectTracing5, w.bytes());
    case 4:
      w.u32(r.circularBufferMB).u32(NETTRACE_FORMAT).u64(r.rundownKeyword).bool(r.requestStackwalk);
      providers(w, r.providers, false);
      return encodeMessage(CommandSet.EventPipe, EventPipeCommand.CollectTracing4, w.bytes());
    case 3:
      w.u32(r.circularBufferMB)
        .u32(NETTRACE_FORMAT)
        .bool(r.rundownKeyword !== 0n)
        .bool(r.requestStackwalk);
      providers(w, r.providers, false);
      return encodeMessage(CommandSet.EventPipe, EventPipeCommand.CollectTracing3, w.bytes());
    case 2:
      w.u32(r.circularBufferMB)
        .u32(NETTRACE_FORMAT)
        .bool(r.rundownKeyword !== 0n);
      providers(w, r.providers, false);
      return encodeMessage(CommandSet.EventPipe, EventPipeCommand.CollectTracing2, w.bytes());
  }
}

export function stopTracingMessage(sessionId: bigint): Uint8Array {
  return encodeMessage(CommandSet.EventPipe, EventPipeCommand.StopTracing, new PayloadWriter().u64(sessionId).bytes());
}

export function resumeRuntimeMessage(): Uint8Array {
  return encodeMessage(CommandSet.Process, ProcessCommand.ResumeRuntime);
}

export function processInfoMessage(version: 1 | 2 | 3): Uint8Array {
  const id = version === 3 ? ProcessCommand.ProcessInfo3 : version === 2 ? ProcessCommand.ProcessInfo2 : ProcessCommand.ProcessInfo;
  return encodeMessage(CommandSet.Process, id);
}

export function parseSessionId(payload: Uint8Array): bigint {
  return new PayloadReader(payload, 'CollectTracing').u64();
}

export interface ProcessInfo {
  /** PID as seen in the target's namespace (EventPipeSession replaces it with the PID GCScope attached to: see innerProcessId). */
  processId: number;
  /** The runtime's own PID when it differs from the one GCScope attached to (a process in a container): set by EventPipeSession. */
  innerProcessId?: number;
  runtimeCookie: string;
  commandLine: string;
  os: string;
  arch: string;
  /** ProcessInfo2+. */
  managedEntrypointAssemblyName: string | null;
  /** ProcessInfo2+: e.g. "10.0.12" or "9.0.0-preview.6.24327.7+abc". */
  clrProductVersion: string | null;
  /** ProcessInfo3 (v1+): e.g. "linux-x64". */
  runtimeIdentifier: string | null;
}

export function parseProcessInfo(version: 1 | 2 | 3, payload: Uint8Array): ProcessInfo {
  const r = new PayloadReader(payload, `ProcessInfo${version === 1 ? '' : version}`);
  const v3 = version === 3 ? r.u32() : 0;
  const info: ProcessInfo = {
    processId: Number(r.u64()),
    runtimeCookie: r.guid(),
    commandLine: r.string(),
    os: r.string(),
    arch: r.string(),
    managedEntrypointAssemblyName: null,
    clrProductVersion: null,
    runtimeIdentifier: null,
  };
  if (version >= 2) {
    info.managedEntrypointAssemblyName = r.string();
    info.clrProductVersion = r.string();
  }
  if (version === 3 && v3 >= 1 && r.remaining > 0) info.runtimeIdentifier = r.string();
  return info;
}

/** Major version of a runtime version string ("9.0.0-preview.6+abc" → 9); undefined if unknown. */
export function runtimeMajor(version: string | null | undefined): number | undefined {
  const m = /^(\d+)\./.exec(version ?? '');
  return m === null ? undefined : Number(m[1]);
}
