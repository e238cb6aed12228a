/**
 * One .NET process of a machine-wide trace (an ETW .etl holds every process on the machine), as
 * `gcscope events` lists it and the app's process picker shows it: who it is (the kernel's
 * Process events), which runtime (the CLR's RuntimeInformation event) and how many GCs it ran.
 */
export interface DotNetProcessInfo {
  processId: number;
  /** Image file name ('Test.x64.exe'); '' when the trace does not name it. */
  name: string;
  /** '' when unknown. */
  commandLine: string;
  /** 'CoreCLR', 'Desktop CLR' (.NET Framework) or 'unknown' (no RuntimeInformation event for it). */
  runtime: 'CoreCLR' | 'Desktop CLR' | 'unknown';
  /** The runtime's version as its RuntimeInformation event gives it ('8.0.11', '4.0.30319.42000'); '' when unknown. */
  runtimeVersion: string;
  /** GCs it ran: distinct GCStart counts (a .NET Framework GC fires GCStart twice, once per version). */
  gcCount: number;
  /** 8 or 4; 0 when the trace does not say. */
  pointerSize: number;
}

/** "Test.x64.exe (PID 1234)", or "PID 1234" for a process the trace does not name. */
export function processLabel(p: { processId: number; name: string }): string {
  return p.name === '' ? `PID ${p.processId}` : `${p.name} (PID ${p.processId})`;
}

/** "CoreCLR 8.0.11", "Desktop CLR 4.0.30319.42000", "unknown". */
export function runtimeLabel(p: Pick<DotNetProcessInfo, 'runtime' | 'runtimeVersion'>): string {
  return p.runtime === 'unknown' || p.runtimeVersion === '' ? p.runtime : `${p.runtime} ${p.runtimeVersion}`;
}
