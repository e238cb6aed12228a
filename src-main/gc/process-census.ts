/**
 * Which .NET processes a machine-wide trace holds, counted in one pass over its events in any
 * order (the reader's `sort: false`): per process id, whether a CLR provider wrote for it, its
 * RuntimeInformation (Sku 1 = Desktop CLR, the .NET Framework; 2 = CoreCLR) and how many GCs it
 * ran. A GC is counted once by its number (GCStart's first field, `Count`): the .NET Framework
 * fires GCStart in two versions for one GC, and rundown repeats nothing here. Pure; keeps a set of
 * GC numbers per process (a few bytes per GC), not the events.
 */
import { decodeGCEvent, PRIVATE, RUNDOWN, RUNTIME, RuntimeEvent, type RuntimeInformation } from '../clr/gc-events.js';
import type { DotNetProcessInfo } from '../shared/trace-process.js';
import type { TraceEventRecord, TraceProcess } from '../trace/model.js';
import { processNameFromCommandLine, runtimeVersionOf } from './process-info.js';

const RUNTIME_INFORMATION = 187;

interface Seen {
  gcs: Set<number>;
  runtime: RuntimeInformation | undefined;
}

export class ProcessCensus {
  private readonly byPid = new Map<number, Seen>();

  onEvent = (e: TraceEventRecord): void => {
    const md = e.metadata;
    const p = md.provider;
    if (p !== RUNTIME && p !== RUNDOWN && p !== PRIVATE) return;
    let seen = this.byPid.get(e.processId);
    if (seen === undefined) this.byPid.set(e.processId, (seen = { gcs: new Set(), runtime: undefined }));
    if (p === RUNTIME && md.eventId === RuntimeEvent.GCStart) {
      if (e.payloadSize >= 4) {
        const b = e.bytes;
        const o = e.payloadStart;
        seen.gcs.add((b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0);
      }
    } else if (md.eventId === RUNTIME_INFORMATION && p !== PRIVATE && seen.runtime === undefined) {
      try {
        const ri = decodeGCEvent(e, 8);
        if (ri?.kind === 'RuntimeInformation') seen.runtime = ri;
      } catch {
        // A RuntimeInformation we cannot read only costs the runtime's name.
      }
    }
  };

  /**
   * The .NET processes (those a CLR provider wrote for), most GCs first, then by process id; named
   * from `processes` (the reader's list) where it has them.
   */
  processes(processes: readonly TraceProcess[] | undefined): DotNetProcessInfo[] {
    const known = new Map((processes ?? []).map((p) => [p.processId, p]));
    const out: DotNetProcessInfo[] = [];
    for (const [pid, seen] of this.byPid) {
      const k = known.get(pid);
      const ri = seen.runtime;
      const commandLine = k?.commandLine || ri?.commandLine || '';
      out.push({
        processId: pid,
        name: k?.name || (commandLine !== '' ? (processNameFromCommandLine(commandLine) ?? '') : ''),
        commandLine,
        runtime: ri === undefined ? 'unknown' : ri.sku === 1 ? 'Desktop CLR' : ri.sku === 2 ? 'CoreCLR' : 'unknown',
        runtimeVersion: ri === undefined ? '' : ri.sku === 1 ? ri.vmVersion : runtimeVersionOf(ri),
        gcCount: seen.gcs.size,
        pointerSize: k?.pointerSize ?? 0,
      });
    }
    return out.sort((a, b) => b.gcCount - a.gcCount || a.processId - b.processId);
  }
}
