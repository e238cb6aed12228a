/**
 * Counts a trace's events by display name and checks that every GC event decodes: what
 * `gcscope events` reports. Pure: feed it the reader's callbacks.
 */
import { ByteCursor } from '../nettrace/byte-cursor.js';
import { NettraceError } from '../nettrace/errors.js';
import type { EventMetadata, TraceEventRecord } from '../nettrace/types.js';
import { dynamicEventName, eventDisplayName } from './event-names.js';
import { decodeGCEvent, isNewerThanKnown, RUNTIME, RuntimeEvent } from './gc-events.js';

export interface GCDecodeProblem {
  name: string;
  version: number;
  offset: number;
  message: string;
}

export class EventCensus {
  /** Counts per metadata record (cheap on the hot path); names are resolved when read. */
  private readonly perMetadata = new Map<EventMetadata, number>();
  /** Counts of GCDynamicEvent sub-events, which are named by their payload. */
  private readonly dynamic = new Map<string, number>();
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
    if (md.eventId === RuntimeEvent.GCDynamicEvent && md.provider === RUNTIME) {
      const name = this.dynamicName(e) ?? eventDisplayName(md);
      this.dynamic.set(name, (this.dynamic.get(name) ?? 0) + 1);
    } else {
      this.perMetadata.set(md, (this.perMetadata.get(md) ?? 0) + 1);
    }
    if (isNewerThanKnown(md.provider, md.eventId, md.version)) this.newerVersionEvents++;
    if (md.provider.startsWith('Microsoft-Windows-DotNETRuntime')) this.checkDecodes(e);
  };

  /** Event counts by display name. */
  get counts(): Map<string, number> {
    const out = new Map(this.dynamic);
    for (const [md, n] of this.perMetadata) {
      const name = md.displayName ?? (md.displayName = eventDisplayName(md));
      out.set(name, (out.get(name) ?? 0) + n);
    }
    return out;
  }

  private dynamicName(e: TraceEventRecord): string | undefined {
    try {
      const c = new ByteCursor(e.bytes.subarray(e.payloadStart, e.payloadStart + e.payloadSize), e.payloadOffset);
      return dynamicEventName(c.utf16z());
    } catch {
      return undefined;
    }
  }

  private checkDecodes(e: TraceEventRecord): void {
    try {
      decodeGCEvent(e, this.pointerSize());
    } catch (err) {
      if (!(err instanceof NettraceError)) throw err;
      this.decodeErrors++;
      if (this.decodeProblems.length < 10) {
        this.decodeProblems.push({ name: e.metadata.displayName ?? eventDisplayName(e.metadata), version: e.metadata.version, offset: err.offset, message: err.message });
      }
    }
  }

  sortedCounts(): Record<string, number> {
    const counts = this.counts;
    const out: Record<string, number> = {};
    for (const k of [...counts.keys()].sort()) out[k] = counts.get(k)!;
    return out;
  }
}
