/**
 * The reader against PerfView's own expected output (test/fixtures/baselines/*.baseline.txt,
 * copied from microsoft/perfview src/TraceEvent/TraceEvent.Tests/inputs; see PROVENANCE.md):
 * every Microsoft-Windows-DotNETRuntime/GC/* count must match exactly, and the first GC/Start
 * must have the same time (to 0.001 ms) and payload.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EventCensus } from '../../src-main/clr/event-census.js';
import { decodeGCEvent, type GCStart } from '../../src-main/clr/gc-events.js';
import { GC_REASON_NAMES, GC_TYPE_NAMES } from '../../src-main/shared/gc-enums.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord, TraceInfo } from '../../src-main/nettrace/types.js';
import { FIXTURES, traceBytes, unzippedName } from '../helpers/fixtures.js';

interface BaselineLine {
  count: number;
  sample: string;
}

function readBaseline(name: string): Map<string, BaselineLine> {
  const text = readFileSync(`${FIXTURES}baselines/${name}.baseline.txt`, 'utf8').replace(/^\uFEFF/, '');
  const out = new Map<string, BaselineLine>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [key, count, ...rest] = line.split(', ');
    out.set(key!, { count: Number(count), sample: rest.join(', ') });
  }
  return out;
}

function attr(sample: string, name: string): string {
  const m = new RegExp(`\\s${name}=\\s*"([^"]*)"`).exec(sample);
  if (m === null) throw new Error(`baseline sample has no ${name}`);
  return m[1]!.trim();
}

function readAll(bytes: Uint8Array): { census: EventCensus; trace: TraceInfo; firstStart: TraceEventRecord | undefined } {
  let trace: TraceInfo | undefined;
  const census = new EventCensus(() => trace!.pointerSize);
  let firstStart: TraceEventRecord | undefined;
  const r = new NettraceReader({
    onTrace: (t) => (trace = t),
    onMetadata: census.onMetadata,
    onEvent: (e) => {
      census.onEvent(e);
      if (firstStart === undefined && e.metadata.provider === 'Microsoft-Windows-DotNETRuntime' && e.metadata.eventId === 1) firstStart = e;
    },
  });
  r.push(bytes);
  r.end();
  expect(r.state).toBe('complete');
  return { census, trace: trace!, firstStart };
}

const WITH_BASELINES = [
  'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip',
  'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip',
  'eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip',
  'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip',
  'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip',
  'eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip',
];

/**
 * Events TraceLog leaves out of the baselines (PROVENANCE.md "Caveats"): rundown method
 * DCStopVerbose / ILToNativeMapDCStop and the runtime's ILToNativeMap. Every other name must
 * match PerfView's count exactly.
 */
const NOT_IN_TRACELOG = new Set([
  'Microsoft-Windows-DotNETRuntimeRundown/Method/DCStopVerbose',
  'Microsoft-Windows-DotNETRuntimeRundown/Method/ILToNativeMapDCStop',
  'Microsoft-Windows-DotNETRuntime/Method/ILToNativeMap',
]);

describe('event counts and first GC/Start match PerfView baselines', () => {
  for (const file of WITH_BASELINES) {
    describe(file, () => {
      const baseline = readBaseline(unzippedName(file));
      const { census, trace, firstStart } = readAll(traceBytes(file));
      const ours = census.sortedCounts();

      it("every GC/* event count equals PerfView's", () => {
        const gcKeys = [...baseline.keys(), ...Object.keys(ours)].filter((k) => /^Microsoft-Windows-DotNETRuntime(Private)?\/GC\//.test(k));
        for (const k of new Set(gcKeys)) expect({ k, n: ours[k] }).toEqual({ k, n: baseline.get(k)?.count });
      });

      it("every other event name and count equals PerfView's (except events TraceLog omits)", () => {
        for (const [k, v] of baseline) expect({ k, n: ours[k] }).toEqual({ k, n: v.count });
        for (const k of Object.keys(ours)) if (!NOT_IN_TRACELOG.has(k)) expect(baseline.has(k), k).toBe(true);
      });

      const startLine = baseline.get('Microsoft-Windows-DotNETRuntime/GC/Start');
      if (startLine !== undefined) {
        it("first GC/Start has PerfView's time (0.001 ms) and payload", () => {
          expect(firstStart).toBeDefined();
          const e = firstStart!;
          const msec = (e.timestamp * 1000) / trace.qpcFrequency;
          expect(Math.abs(msec - Number(attr(startLine.sample, 'MSec')))).toBeLessThan(0.001);
          expect(e.threadId).toBe(Number(attr(startLine.sample, 'TID').replace(/,/g, '')));
          const s = decodeGCEvent(e, trace.pointerSize) as GCStart;
          expect(s.count).toBe(Number(attr(startLine.sample, 'Count')));
          expect(s.depth).toBe(Number(attr(startLine.sample, 'Depth')));
          expect(GC_REASON_NAMES[s.reason]).toBe(attr(startLine.sample, 'Reason'));
          expect(GC_TYPE_NAMES[s.type]).toBe(attr(startLine.sample, 'Type'));
          expect(s.clientSequenceNumber).toBe(Number(attr(startLine.sample, 'ClientSequenceNumber')));
          expect(s.clrInstanceId).toBe(Number(attr(startLine.sample, 'ClrInstanceID')));
        });
      }
    });
  }
});

describe("trace headers match the values PerfView's tests assert", () => {
  it('2.1 x86 NetPerf V3 header', () => {
    const { trace } = readAll(traceBytes('eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip'));
    expect(trace).toMatchObject({
      format: 'NetPerf',
      formatVersion: 3,
      pointerSize: 4,
      processId: 3312,
      numberOfProcessors: 4,
      expectedCpuSamplingRate: 1_000_000,
      syncTimeQpc: '20461004832',
      qpcFrequency: 2533315,
    });
    // syncTimeUTC ticks 636531024984420000 = 2018-02-01T17:21:38.442Z
    expect(trace.syncTimeUtc).toBe('2018-02-01T17:21:38.442Z');
  });
  it('3.0 NetTrace V4 header', () => {
    const { trace } = readAll(traceBytes('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip'));
    expect(trace).toMatchObject({
      format: 'NetTrace',
      formatVersion: 4,
      pointerSize: 8,
      processId: 10064,
      numberOfProcessors: 4,
      expectedCpuSamplingRate: 1_000_000,
      syncTimeQpc: '100935252313',
      qpcFrequency: 3124099,
    });
    // syncTimeUTC ticks 636962398197540000 = 2019-06-15T23:56:59.754Z
    expect(trace.syncTimeUtc).toBe('2019-06-15T23:56:59.754Z');
  });
});
