/**
 * What a trace says about itself beside the GC events, read as events go by: the process's
 * command line, OS and architecture (EventPipe's ProcessInfo event), and whether it carries
 * per-heap histories and pinning events (which decides what the report calls unavailable).
 * The in-memory analysis (`report FILE`) and the import/live pipeline both use it. Pure.
 */
import { PRIVATE, PrivateEvent, RUNTIME, RuntimeEvent } from '../clr/gc-events.js';
import { decodePayload } from '../nettrace/payload.js';
import type { TraceEventRecord, TraceProcess } from '../trace/model.js';

export class TraceFacts {
  /** The image name a machine-wide trace's kernel events give the process (setProcess). */
  processName: string | undefined;
  commandLine: string | undefined;
  os: string | undefined;
  arch: string | undefined;
  hasPerHeapHistory = false;
  hasPinEvents = false;

  /**
   * The process as a machine-wide trace's reader lists it (trace/model.ts TraceProcess): its image
   * name, and its command line unless ProcessInfo gives one.
   */
  setProcess(p: TraceProcess): void {
    if (p.name !== '') this.processName = p.name;
    if (this.commandLine === undefined && p.commandLine !== '') this.commandLine = p.commandLine;
  }

  /** Notes what the event tells; true when it is EventPipe's ProcessInfo (not a GC event: the analyzer need not see it). */
  onEvent(e: TraceEventRecord): boolean {
    const md = e.metadata;
    // .NET Framework 4.5.x writes its per-heap histories to the private provider, as version 2
    // (clr/gc-events.ts decodes 2 and 3 there; 4.0's version 0 is not decoded).
    if (md.provider === PRIVATE) {
      if (md.eventId === PrivateEvent.GCPerHeapHistory && md.version >= 2) this.hasPerHeapHistory = true;
      return false;
    }
    if (md.provider === RUNTIME) {
      if (md.eventId === RuntimeEvent.GCPerHeapHistory) this.hasPerHeapHistory = true;
      else if (md.eventId === RuntimeEvent.PinObjectAtGCTime) this.hasPinEvents = true;
      return false;
    }
    if (md.provider !== 'Microsoft-DotNETCore-EventPipe' || md.eventName !== 'ProcessInfo') return false;
    try {
      const p = decodePayload(e);
      if (typeof p.CommandLine === 'string' && p.CommandLine !== '') this.commandLine = p.CommandLine;
      if (typeof p.OSInformation === 'string') this.os = p.OSInformation;
      if (typeof p.ArchInformation === 'string') this.arch = p.ArchInformation;
    } catch {
      // A ProcessInfo we cannot read only costs the command line.
    }
    return true;
  }
}
