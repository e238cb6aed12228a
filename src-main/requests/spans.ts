/**
 * The request-span consumer (issue 42): pairs the Start and Stop events of request sources into
 * spans, and records the process's GC pauses as intervals on the same clock, so request latency
 * can be split into GC pause time and the rest (latency.ts).
 *
 * Spans: every pair of Start/Stop events (EventSource opcodes 1 and 2, the convention every
 * EventSource with `XStart`/`XStop` methods follows) of a provider other than the runtime's,
 * grouped by provider and the event name less its Start/Stop suffix ("Microsoft-AspNetCore-Server-
 * Kestrel/Request"), plus the events of any source named explicitly (sources.ts) whatever their
 * opcodes. A traces recorded elsewhere (dotnet-trace, PerfView) with such events works as it is.
 * A Stop is paired with its Start by, in order: the ActivityId (EventPipe sets one on Start/Stop
 * events when the TPL source flows activity ids), the payload (Kestrel's request stop repeats its
 * start's connection and request ids; an Activity's `Id` argument), the payload's first field (an
 * id: Kestrel's ConnectionStop carries only the connectionId its ConnectionStart began with), else
 * the most recent open Start on the same thread. Starts never stopped are counted, not kept past MAX_OPEN per group.
 *
 * Pauses: from GCSuspendEEBegin (reason GC or GC-prep) to the GCRestartEEEnd on the same thread:
 * the suspension included, as the GC analysis's pause. A background GC's concurrent phase runs
 * between such intervals and is not a pause; its own pauses (start, final mark) are intervals.
 * Each interval names its GC: the GCStart seen inside it, else the background GC in progress,
 * else the count the suspension names. Other suspensions (debugger, thread abort…) are not GC's.
 * Pure: no I/O.
 */
import { decodeGCEvent, RUNTIME, RuntimeEvent } from '../clr/gc-events.js';
import { decodePayload, type PayloadValue } from '../nettrace/payload.js';
import type { AnalysisContext, TraceConsumer } from '../trace/consumer.js';
import type { EventMetadata, TraceEventRecord, TraceInfo } from '../trace/model.js';
import { TypeCode } from '../nettrace/types.js';
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import { DIAGNOSTIC_SOURCE_PROVIDER, eventRole, type RequestSource } from './sources.js';

export type { PauseInterval, RequestSpan };

const SUSPEND_FOR_GC = 1;
const SUSPEND_FOR_GC_PREP = 6;
const OPCODE_START = 1;
const OPCODE_STOP = 2;
/** Open starts kept per group: a source whose stops never come (or were not recorded) stays bounded. */
export const MAX_OPEN = 100_000;

interface Open {
  startMSec: number;
  name: string;
  threadId: number;
  activityId: string | undefined;
  payloadKey: string | number | undefined;
  firstKey: number | undefined;
  done: boolean;
}

class Group {
  readonly byActivity = new Map<string, Open>();
  /** By a hash of the payload's bytes (an Activity's id string). */
  readonly byPayload = new Map<string | number, Open[]>();
  /** By a hash of the first string field's bytes. */
  readonly byFirst = new Map<number, Open[]>();
  readonly byThread = new Map<number, Open[]>();
  open = 0;
  /** Starts dropped because MAX_OPEN were open. */
  dropped = 0;
  constructor(readonly name: string) {}
}

function isNullActivity(a: string | undefined): boolean {
  return a === undefined || a === '00000000-0000-0000-0000-000000000000';
}

function stringField(p: { [k: string]: PayloadValue }, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = p[n];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** An Activity's argument by key (DiagnosticSource's Arguments: [{Key, Value}]). */
function activityArgument(p: { [k: string]: PayloadValue }, key: string): string | undefined {
  const args = p['Arguments'];
  if (!Array.isArray(args)) return undefined;
  for (const a of args) if (typeof a === 'object' && a !== null && !Array.isArray(a) && a['Key'] === key && typeof a['Value'] === 'string') return a['Value'];
  return undefined;
}

/**
 * A 53-bit hash of bytes[start, end): two 32-bit FNV-1a variants (different offsets and primes),
 * one in the high bits. Two different payloads of requests open at once colliding is vanishingly
 * unlikely; if they did, one stop would close the other's start (a wrong span, never a crash).
 */
function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x2166136b;
  for (let i = start; i < end; i++) {
    h1 = Math.imul(h1 ^ b[i]!, 0x01000193);
    h2 = Math.imul(h2 ^ b[i]!, 0x5bd1e995);
  }
  return (h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff);
}

/** The end of the UTF-16 string at `start` (after its two-byte terminator), or `end`. */
function stringEnd(b: Uint8Array, start: number, end: number): number {
  for (let i = start; i + 1 < end; i += 2) if (b[i] === 0 && b[i + 1] === 0) return i + 2;
  return end;
}

const UTF16 = new TextDecoder('utf-16le');

/** 'GET /alloc' from a start's method and path fields (all-string payloads read in place; others decoded). */
function requestName(e: TraceEventRecord, k: EventKind): string {
  if (k.methodField < 0 && k.pathField < 0) return '';
  if (!k.allStrings) {
    const p = decodePayload(e);
    return [stringField(p, 'method', 'Method'), stringField(p, 'path', 'Path', 'pathAndQuery')].filter((x) => x !== undefined).join(' ');
  }
  const end = e.payloadStart + e.payloadSize;
  let at = e.payloadStart;
  let method = '';
  let path = '';
  const last = Math.max(k.methodField, k.pathField);
  for (let f = 0; f <= last && at < end; f++) {
    const next = stringEnd(e.bytes, at, end);
    if (f === k.methodField || f === k.pathField) {
      const v = UTF16.decode(e.bytes.subarray(at, Math.max(at, next - 2)));
      if (f === k.methodField) method = v;
      else path = v;
    }
    at = next;
  }
  return method !== '' && path !== '' ? `${method} ${path}` : method + path;
}

/** What the consumer knows of one kind of event (per EventMetadata). */
interface EventKind {
  role: 'start' | 'stop';
  group: string;
  isActivity: boolean;
  firstIsString: boolean;
  allStrings: boolean;
  methodField: number;
  pathField: number;
}

export interface RequestSpanOptions {
  /** Sources named explicitly (their events pair whatever their opcodes; built-in and Activity sources pair by the Start/Stop opcodes anyway). */
  sources?: readonly RequestSource[];
}

export class RequestSpanCollector implements TraceConsumer {
  /** Completed spans, in stop order (a consumer that stores them may take them with `drain`). */
  spans: RequestSpan[] = [];
  pauses: PauseInterval[] = [];
  /** Stops with no open start (recording began mid-request, or the start was dropped). */
  unmatchedStops = 0;
  private readonly groups = new Map<string, Group>();
  private kinds = new WeakMap<EventMetadata, EventKind | null>();
  private explicit: readonly RequestSource[];
  private freq = 1;
  private pointerSize = 8;
  // Pause state.
  private lastPauseEnd = Number.NEGATIVE_INFINITY;
  private suspendThread = -1;
  private suspendMSec = 0;
  private suspendCount = -1;
  private gcInPause: { number: number; generation: number; type: number } | undefined;
  private bgc: { number: number; generation: number; type: number } | undefined;

  constructor(options: RequestSpanOptions = {}) {
    this.explicit = (options.sources ?? []).filter((s) => s.kind === 'custom');
  }

  /** Sources named explicitly (a recording's `--requests Provider/Start/Stop`), from now on. */
  addSources(sources: readonly RequestSource[]): void {
    this.explicit = [...this.explicit, ...sources.filter((s) => s.kind === 'custom')];
    this.kinds = new WeakMap();
  }

  onTrace(t: TraceInfo): void {
    this.freq = t.qpcFrequency;
    this.pointerSize = t.pointerSize;
  }

  private msec(e: TraceEventRecord): number {
    return ((e.timestamp < 0 ? 0 : e.timestamp) * 1000) / this.freq;
  }

  /** What an event's metadata says about it, worked out once per metadata (events of a kind share one). */
  private kindOf(m: EventMetadata): EventKind | null {
    let k = this.kinds.get(m);
    if (k !== undefined) return k;
    k = null;
    if (!m.provider.startsWith('Microsoft-Windows-DotNETRuntime')) {
      let role: 'start' | 'stop' | undefined;
      let group: string | undefined;
      for (const s of this.explicit) {
        role = eventRole(s, m.provider, m.eventId, m.eventName);
        if (role !== undefined) {
          group = s.label;
          break;
        }
      }
      if (role === undefined) {
        if (m.opcode === OPCODE_START && m.eventName.endsWith('Start')) role = 'start';
        else if (m.opcode === OPCODE_STOP && m.eventName.endsWith('Stop')) role = 'stop';
        if (role !== undefined) group = `${m.provider}/${m.eventName.slice(0, m.eventName.length - (role === 'start' ? 5 : 4))}`;
      }
      if (role !== undefined) {
        const isActivity = m.provider === DIAGNOSTIC_SOURCE_PROVIDER && (m.eventName === 'ActivityStart' || m.eventName === 'ActivityStop');
        const allStrings = m.fields.every((f) => f.type.code === TypeCode.String);
        const at = (...names: string[]): number => m.fields.findIndex((f) => names.includes(f.name));
        k = {
          role,
          group: group!,
          isActivity,
          // The first field alone (an id, as Kestrel's connectionId) when it is a string: what a
          // Stop carrying less than its Start shares with it.
          firstIsString: m.fields.length > 0 && m.fields[0]!.type.code === TypeCode.String && (m.fields.length > 1 || role === 'stop'),
          allStrings,
          methodField: at('method', 'Method'),
          pathField: at('path', 'Path', 'pathAndQuery'),
        };
      }
    }
    this.kinds.set(m, k);
    return k;
  }

  onEvent(e: TraceEventRecord, _ctx?: AnalysisContext): void {
    const m = e.metadata;
    if (m.provider === RUNTIME) {
      this.onRuntimeEvent(e);
      return;
    }
    const kind = this.kindOf(m);
    if (kind === null) return;
    const role = kind.role;
    let group = kind.group;
    const isActivity = kind.isActivity;
    const t = this.msec(e);
    const activityId = isNullActivity(e.activityId) ? undefined : e.activityId;
    // Activities: grouped by their source's name; the W3C id in the arguments pairs them (the
    // events carry no ActivityId).
    let payload: { [k: string]: PayloadValue } | undefined;
    let payloadKey: string | number | undefined;
    let firstKey: number | undefined;
    if (isActivity) {
      payload = decodePayload(e);
      const id = activityArgument(payload, 'Id');
      payloadKey = id === undefined ? undefined : `id:${id}`;
      group = stringField(payload, 'SourceName') ?? group;
    } else {
      // Hashes of the payload's bytes, not strings of them: a Map of numbers, nothing decoded.
      const end = e.payloadStart + e.payloadSize;
      if (e.payloadSize > 0) payloadKey = hashBytes(e.bytes, e.payloadStart, end);
      if (kind.firstIsString) firstKey = hashBytes(e.bytes, e.payloadStart, stringEnd(e.bytes, e.payloadStart, end));
    }
    let g = this.groups.get(group!);
    if (g === undefined) this.groups.set(group!, (g = new Group(group!)));
    if (role === 'start') {
      if (g.open >= MAX_OPEN) {
        g.dropped++;
        return;
      }
      const name = isActivity ? (activityArgument(payload!, 'DisplayName') ?? stringField(payload!, 'ActivityName') ?? '') : requestName(e, kind);
      const o: Open = { startMSec: t, name, threadId: e.threadId, activityId, payloadKey, firstKey, done: false };
      if (activityId !== undefined) g.byActivity.set(activityId, o);
      if (payloadKey !== undefined) push(g.byPayload, payloadKey, o);
      if (firstKey !== undefined) push(g.byFirst, firstKey, o);
      push(g.byThread, e.threadId, o);
      g.open++;
      return;
    }
    let o: Open | undefined;
    if (activityId !== undefined) {
      o = g.byActivity.get(activityId);
      if (o?.done === true) o = undefined;
    }
    if (o === undefined && payloadKey !== undefined) o = take(g.byPayload, payloadKey);
    if (o === undefined && firstKey !== undefined) o = take(g.byFirst, firstKey);
    if (o === undefined) o = take(g.byThread, e.threadId);
    if (o === undefined) {
      this.unmatchedStops++;
      return;
    }
    o.done = true;
    g.open--;
    // Out of every index it was in, so nothing paired keeps memory (a thread's list is compacted as it grows).
    if (o.activityId !== undefined) g.byActivity.delete(o.activityId);
    if (o.payloadKey !== undefined) remove(g.byPayload, o.payloadKey, o);
    if (o.firstKey !== undefined) remove(g.byFirst, o.firstKey, o);
    const onThread = g.byThread.get(o.threadId);
    if (onThread !== undefined) {
      while (onThread.length > 0 && onThread[onThread.length - 1]!.done) onThread.pop();
      if (onThread.length === 0) g.byThread.delete(o.threadId);
    }
    this.spans.push({ startMSec: o.startMSec, durationMSec: Math.max(0, t - o.startMSec), group: g.name, name: o.name });
  }

  private onRuntimeEvent(e: TraceEventRecord): void {
    const id = e.metadata.eventId;
    if (id !== RuntimeEvent.GCSuspendEEBegin && id !== RuntimeEvent.GCRestartEEEnd && id !== RuntimeEvent.GCStart && id !== RuntimeEvent.GCEnd) return;
    let ev;
    try {
      ev = decodeGCEvent(e, this.pointerSize);
    } catch {
      return; // A short payload: the GC analysis counts it; a pause is not made of it.
    }
    if (ev === undefined) return;
    const t = this.msec(e);
    switch (ev.kind) {
      case 'GCSuspendEEBegin':
        if (ev.reason !== SUSPEND_FOR_GC && ev.reason !== SUSPEND_FOR_GC_PREP) return;
        this.suspendThread = e.threadId;
        this.suspendMSec = t;
        this.suspendCount = ev.count;
        this.gcInPause = undefined;
        return;
      case 'GCStart': {
        const gc = { number: ev.count, generation: ev.depth, type: ev.type };
        if (this.suspendThread !== -1 && this.gcInPause === undefined) this.gcInPause = gc;
        if (ev.type === 1) this.bgc = gc;
        return;
      }
      case 'GCEnd':
        if (this.bgc !== undefined && ev.count === this.bgc.number) this.bgc = undefined;
        return;
      case 'GCRestartEEEnd': {
        if (e.threadId !== this.suspendThread) return;
        const gc = this.gcInPause ?? this.bgc;
        // Intervals are process-wide and never overlap; a clock step back would make them, so clamp.
        const start = Math.max(this.suspendMSec, this.lastPauseEnd);
        if (t > start) {
          this.lastPauseEnd = t;
          this.pauses.push({
            startMSec: start,
            endMSec: t,
            gcNumber: gc?.number ?? this.suspendCount,
            generation: gc?.generation ?? -1,
            type: gc?.type ?? -1,
          });
        }
        this.suspendThread = -1;
        this.gcInPause = undefined;
        return;
      }
      default:
        return;
    }
  }

  /** The spans and pauses completed since the last drain, handed over (a store keeps them; this forgets them). */
  drain(): { spans: RequestSpan[]; pauses: PauseInterval[] } {
    const out = { spans: this.spans, pauses: this.pauses };
    this.spans = [];
    this.pauses = [];
    return out;
  }

  /** Starts still open (never stopped, so far), in one group or over every group. */
  openCount(group?: string): number {
    let n = 0;
    for (const g of this.groups.values()) if (group === undefined || g.name === group) n += g.open;
    return n;
  }

  /** Entries held in the pairing indexes (tests: stays near the open count, not the requests seen). */
  get indexed(): number {
    let n = 0;
    for (const g of this.groups.values()) {
      n += g.byActivity.size;
      for (const l of g.byPayload.values()) n += l.length;
      for (const l of g.byFirst.values()) n += l.length;
      for (const l of g.byThread.values()) n += l.length;
    }
    return n;
  }

  /** Starts dropped because a group held MAX_OPEN open ones. */
  get droppedStarts(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.dropped;
    return n;
  }
}

function push<K>(m: Map<K, Open[]>, k: K, o: Open): void {
  const l = m.get(k);
  if (l === undefined) m.set(k, [o]);
  else {
    // Entries paired through another index stay here until passed: drop them now and then, so a
    // thread's list holds its open starts, not every request it ever began.
    if (l.length >= 32 && (l.length & 31) === 0) {
      let w = 0;
      for (const x of l) if (!x.done) l[w++] = x;
      l.length = w;
    }
    l.push(o);
  }
}

function remove<K>(m: Map<K, Open[]>, k: K, o: Open): void {
  const l = m.get(k);
  if (l === undefined) return;
  const i = l.lastIndexOf(o);
  if (i >= 0) l.splice(i, 1);
  if (l.length === 0) m.delete(k);
}

/** The newest open entry under k (done ones, paired by another index, are dropped on the way). */
function take<K>(m: Map<K, Open[]>, k: K): Open | undefined {
  const l = m.get(k);
  if (l === undefined) return undefined;
  while (l.length > 0) {
    const o = l.pop()!;
    if (!o.done) {
      if (l.length === 0) m.delete(k);
      return o;
    }
  }
  m.delete(k);
  return undefined;
}
