/**
 * Counts a trace's events by display name and checks that every GC event decodes: what
 * `gcscope events` reports. Pure: feed it the reader's callbacks.
 */
import { ByteCursor } from '../trace/byte-cursor.js';
import { TraceDecodeError } from '../trace/errors.js';
import type { EventMetadata, TraceEventRecord } from '../trace/model.js';
import { dynamicEventName, eventDisplayName } from './event-names.js';
import { allocationTickFits, decodeGCEvent, isNewerThanKnown, readPinObject, RUNTIME, RuntimeEvent } from './gc-events.js';

export interface GCDecodeProblem {
  name: string;
  version: number;
  offset: number;
  message: string;
}

/**
 * What the census does with the events of one metadata record, decided once per record: where
 * its count goes, whether its version is newer than our layouts, and how its payload is checked.
 */
interface Plan {
  count: number;
  /** GCDynamicEvent: counted by the sub-event name in its payload instead. */
  dynamic: boolean;
  newer: boolean;
  /** A runtime-provider event whose payload must decode (checked against its layout). */
  check: boolean;
  /**
   * A cheap check for the most frequent events (AllocationTick, PinObjectAtGCTime: the same bounds
   * as their decoders, without building the record or its strings); undefined: run the decoder.
   */
  fits: ((e: TraceEventRecord, pointerSize: number) => boolean) | undefined;
}

export class EventCensus {
  /** Counts per metadata record (cheap on the hot path); names are resolved when read. */
  private readonly plans = new Map<EventMetadata, Plan>();
  private lastMd: EventMetadata | undefined;
  private lastPlan: Plan | undefined;
  /** Counts of GCDynamicEvent sub-events, which are named by their payload. */
  private readonly dynamic = new Map<string, number>();
  /** Events whose version is newer than our newest layout (decoded from the known prefix). */
  newerVersionEvents = 0;
  /** GC events whose payload did not fit their layout (first few kept for the report). */
  decodeErrors = 0;
  readonly decodeProblems: GCDecodeProblem[] = [];

  /** `pointerSize`: the width of pointers in an event's payload (a machine-wide trace: its process's). */
  constructor(private readonly pointerSize: (e: TraceEventRecord) => number) {}

  onMetadata = (md: EventMetadata): void => {
    md.displayName = eventDisplayName(md);
  };

  private plan(md: EventMetadata): Plan {
    let p = this.plans.get(md);
    if (p === undefined) {
      const runtime = md.provider === RUNTIME;
      p = {
        count: 0,
        dynamic: runtime && md.eventId === RuntimeEvent.GCDynamicEvent,
        newer: isNewerThanKnown(md.provider, md.eventId, md.version),
        check: md.provider.startsWith('Microsoft-Windows-DotNETRuntime'),
        fits:
          runtime && md.eventId === RuntimeEvent.GCAllocationTick
            ? allocationTickFits
            : runtime && md.eventId === RuntimeEvent.PinObjectAtGCTime
              ? (e, ps) => readPinObject(e, ps) !== undefined
              : undefined,
      };
      this.plans.set(md, p);
    }
    this.lastMd = md;
    this.lastPlan = p;
    return p;
  }

  onEvent = (e: TraceEventRecord): void => {
    const md = e.metadata;
    const p = md === this.lastMd ? this.lastPlan! : this.plan(md);
    if (p.dynamic) {
      const name = this.dynamicName(e) ?? eventDisplayName(md);
      this.dynamic.set(name, (this.dynamic.get(name) ?? 0) + 1);
    } else p.count++;
    if (p.newer) this.newerVersionEvents++;
    if (p.check && (p.fits === undefined || !p.fits(e, this.pointerSize(e)))) this.checkDecodes(e);
  };

  /** Event counts by display name. */
  get counts(): Map<string, number> {
    const out = new Map(this.dynamic);
    for (const [md, p] of this.plans) {
      if (p.dynamic) continue;
      const name = md.displayName ?? (md.displayName = eventDisplayName(md));
      out.set(name, (out.get(name) ?? 0) + p.count);
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
      decodeGCEvent(e, this.pointerSize(e));
    } catch (err) {
      if (!(err instanceof TraceDecodeError)) throw err;
      this.decodeErrors++;
      if (this.decodeProblems.length < 10) {
        this.decodeProblems.push({
          name: e.metadata.displayName ?? eventDisplayName(e.metadata),
          version: e.metadata.version,
          offset: err.offset,
          message: err.message,
        });
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
