/**
 * Counts a trace's events by display name and checks that every GC event decodes: what
 * `gcscope events` reports. Pure: feed it the reader's callbacks.
 */
import { ByteCursor } from '../nettrace/byte-cursor.js';
import { NettraceError } from '../nettrace/errors.js';
import type { EventMetadata, TraceEventRecord } from '../nettrace/types.js';
import { dynamicEventName, eventDisplayName } from './event-names.js';
import { decodeGCEvent, isNewerThanKnown, RUNTIME } from './gc-events.js';

export interface GCDecodeProblem {
  name: string;
  version: number;
  offset: number;
  message: string;
}

export class EventCensus {
  readonly counts = new Map<string, number>();
  /** Events whose version is newer than our newest layout (decoded from the known prefix). */
  newerVersionEvents = 0;
  /** GC events whose payload did not fit their layout (first few kept for the report). */
  decodeErrors = 0;
  readonly decodeProblems: GCDecodeProblem[] = [];

  constructor(private readonly pointerSize: () => number) {}

  onMetadata = (md: EventMetadata): void => {
    md.displayName = eventDisplayName(md);
  };

  onEvent = (e: TraceEventRecord): void => {
    const md = e.metadata;
    let name = md.displayName ?? (md.displayName = eventDisplayName(md));
    if (md.eventId === 39 && md.provider === RUNTIME) {
      name = this.dynamicName(e) ?? name;
    }
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
    if (isNewerThanKnown(md.provider, md.eventId, md.version)) this.newerVersionEvents++;
    if (md.provider.startsWith('Microsoft-Windows-DotNETRuntime')) this.checkDecodes(e, name);
  };

  private dynamicName(e: TraceEventRecord): string | undefined {
    try {
      const c = new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
      return dynamicEventName(c.utf16z());
    } catch {
      return undefined;
    }
  }

  private checkDecodes(e: TraceEventRecord, name: string): void {
    try {
      decodeGCEvent(e, this.pointerSize());
    } catch (err) {
      if (!(err instanceof NettraceError)) throw err;
      this.decodeErrors++;
      if (this.decodeProblems.length < 10) {
        this.decodeProblems.push({ name, version: e.metadata.version, offset: err.offset, message: err.message });
      }
    }
  }

  sortedCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const k of [...this.counts.keys()].sort()) out[k] = this.counts.get(k)!;
    return out;
  }
}
