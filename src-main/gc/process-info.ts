/**
 * What a trace says about the traced process and its GC configuration (docs/formats.md §3.8):
 * ProcessInfo (command line, OS, architecture), RuntimeInformation (runtime build, startup
 * flags: 0x1 concurrent GC, 0x1000 Server GC), GCSettingsRundown (hard limit, LOH threshold,
 * bit settings: 0x1 concurrent enabled), and the GCs themselves (heap count per GC, background
 * GCs seen, each GC's latency mode, heap count changing under DATAS).
 */
import type { GCSettingsRundown, RuntimeInformation } from '../clr/gc-events.js';
import type { GCAnalyzer } from './gc-analyzer.js';
import { processNameFromCommandLine } from '../common/process-name.js';

export { processNameFromCommandLine };

export interface ProcessDescription {
  processName: string | null;
  commandLine: string | null;
  runtimeVersion: string | null;
  os: string | null;
  arch: string | null;
  /** 'workstation' | 'server' | null when the trace does not say. */
  gcMode: 'workstation' | 'server' | null;
  /** Background GC enabled (or seen); null when unknown. */
  concurrent: boolean | null;
  /** The most heaps any GC had (each GC's own GlobalHeapHistory.NumHeaps); null when unknown. */
  heapCount: number | null;
  /** The fewest heaps any GC had: below heapCount when DATAS changed the count. */
  minHeapCount: number | null;
  /** DATAS (dynamic adaptation): the heap count changed during the trace, or DATAS's own events were seen. */
  dynamicHeapCount: boolean;
  gcSettings: GCSettingsRundown | null;
}

/** The GC mode as sessions and reports show it: 'server (DATAS)' when the heap count adapted. */
export function gcModeLabel(p: ProcessDescription): string | null {
  return p.gcMode === null ? null : p.dynamicHeapCount ? `${p.gcMode} (DATAS)` : p.gcMode;
}

/**
 * Whether the GC may run background GCs in this latency mode: only in Interactive (1) or
 * SustainedLowLatency (3). Batch (0) is where a GC with background GC disabled starts, and where
 * none runs however it was configured; LowLatency (2) and NoGC (4) say nothing either way.
 */
export function backgroundGCAllowedIn(pauseMode: number): boolean | null {
  if (pauseMode === 1 || pauseMode === 3) return true;
  if (pauseMode === 0) return false;
  return null;
}

/**
 * Runtime version from the runtime's path (…/Microsoft.NETCore.App/10.0.12/…), else the BCL
 * version; a .NET Framework process (Sku 1, Desktop CLR) is `Framework <CLR build>` (its BCL
 * version is 4.0.0.0 for every 4.x, so "4.0.0" told a user nothing; the CLR build
 * 4.0.30319.34209 is 4.5.2), shown as ".NET Framework 4.0.30319.34209".
 */
export function runtimeVersionOf(ri: RuntimeInformation): string {
  if (ri.sku === 1 && ri.vmVersion !== '') return `Framework ${ri.vmVersion}`;
  const m = /Microsoft\.NETCore\.App[\\/]([0-9][^\\/]*)[\\/]/.exec(ri.runtimeDllPath);
  if (m !== null) return m[1]!;
  return ri.bclVersion.replace(/\.0$/, '');
}

export function describeProcess(
  a: GCAnalyzer,
  info: { processName?: string | undefined; commandLine?: string | undefined; os?: string | undefined; arch?: string | undefined },
): ProcessDescription {
  const ri = a.runtimeInfo;
  const heapCounts = new Set(a.heapCountChanges.map(([, n]) => n));
  // Every GC's heaps, released ones included (the analyzer keeps the maximum as GCs arrive): the
  // GlobalHeapHistory counts, the runtime's own word. Per-heap event counts only for a trace with
  // no GlobalHeapHistory at all: a capture or a cut trace can file two GCs' per-heap events under
  // one GC, and a workstation process read as "server · 2 heaps" (issue 39).
  const maxHeaps = a.maxGlobalHeapCount > 0 || heapCounts.size > 0 ? Math.max(a.maxGlobalHeapCount, ...heapCounts) : a.maxGCHeapCount;
  // DATAS: the heap count changed, or DATAS reported (a live .NET 10 process at a steady count
  // said plain "server").
  const datas = heapCounts.size > 1 || a.sawDatasEvent;
  let gcMode: ProcessDescription['gcMode'] = null;
  if (ri !== undefined) gcMode = (ri.startupFlags & 0x1000) !== 0 ? 'server' : 'workstation';
  else if (maxHeaps > 1 || datas) gcMode = 'server';
  else if (maxHeaps === 1) gcMode = 'workstation';
  let concurrent: boolean | null = null;
  if (a.sawBackgroundGC) concurrent = true;
  else if (a.gcSettings !== undefined) concurrent = (a.gcSettings.bitSettings & 0x1) !== 0;
  else if (ri !== undefined) concurrent = (ri.startupFlags & 0x1) !== 0;
  else if (a.lastPauseMode !== undefined) concurrent = backgroundGCAllowedIn(a.lastPauseMode);
  const cmd = info.commandLine ?? (ri?.commandLine !== '' ? ri?.commandLine : undefined);
  return {
    // A machine-wide trace names the process from the kernel's events; otherwise its command line does.
    processName: info.processName ?? (cmd === undefined ? null : processNameFromCommandLine(cmd)),
    commandLine: cmd ?? null,
    runtimeVersion: ri === undefined ? null : runtimeVersionOf(ri),
    os: info.os ?? null,
    arch: info.arch ?? null,
    gcMode,
    concurrent,
    heapCount: maxHeaps > 0 ? maxHeaps : null,
    minHeapCount: heapCounts.size > 0 ? Math.min(...heapCounts) : maxHeaps > 0 ? maxHeaps : null,
    dynamicHeapCount: datas,
    gcSettings: a.gcSettings ?? null,
  };
}
