/**
 * Display names for events, as TraceEvent/PerfView name them: `Provider/Task/Opcode` for the
 * CLR providers (from TraceEvent's own templates, see event-names.generated.ts), the metadata's
 * event name for EventSource events (with a non-standard opcode appended as a number, e.g.
 * `TestEventSource0/TestEvent3/24`), and `Provider/EventID(n)` for anything else.
 */
import type { EventMetadata } from '../trace/model.js';
import { CLR_EVENT_NAMES } from './event-names.generated.js';

const RUNTIME = 'Microsoft-Windows-DotNETRuntime';

/**
 * The name of an event from its metadata alone. GCDynamicEvent (39) is named by its payload;
 * see dynamicEventName.
 */
export function eventDisplayName(md: EventMetadata): string {
  const clr = CLR_EVENT_NAMES[md.provider];
  if (clr !== undefined) {
    const n = clr[md.eventId];
    if (n !== undefined) return `${md.provider}/${n}`;
    // TraceEvent has no template for these and shows the task name alone.
    // (On ETW the reader gives TraceEvent's manifest name, GarbageCollection/IncreaseMemoryPressure.)
    if (md.provider === RUNTIME && (md.eventId === 200 || md.eventId === 201)) return `${md.provider}/${md.eventName !== '' ? md.eventName : 'GC'}`;
    if (md.provider === RUNTIME && md.eventId === 39) return `${md.provider}/GC/DynamicTraceEvent`;
  }
  if (md.eventName !== '') {
    const op = md.opcode;
    // Opcodes 0 (Info), 1 (Start) and 2 (Stop) are already part of EventSource event names.
    if (op === undefined || op <= 2) return `${md.provider}/${md.eventName}`;
    return `${md.provider}/${md.eventName}/${op}`;
  }
  return `${md.provider}/EventID(${md.eventId})`;
}

/** GCDynamicEvent sub-events are named `GC/<Name>` (TraceEvent: `GC/CommittedUsage`). */
export function dynamicEventName(subEventName: string): string {
  return `${RUNTIME}/GC/${subEventName}`;
}
