/**
 * A trace cut anywhere (a recording killed, a copy interrupted) is a state, not a crash: the
 * reader delivers every complete event before the cut — including the complete events of a
 * partly received event block — and ends in state 'truncated' with a typed error at the cut.
 */
import { describe, expect, it } from 'vitest';
import { BlockKind } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { decode, eventKey } from '../helpers/decode.js';
import { traceBytes } from '../helpers/fixtures.js';
import { buildV4Sample, buildV6Sample } from '../helpers/samples.js';

const byOffset = (a: TraceEventRecord, b: TraceEventRecord): number => a.payloadOffset - b.payloadOffset;

function checkCuts(bytes: Uint8Array, midBlock: boolean): number {
  const full = decode(bytes);
  expect(full.state).toBe('complete');
  // Events by the offset where their blob ends, with their keys, computed once.
  const ends = full.events.map((e) => ({ end: e.payloadOffset + e.payloadSize, off: e.payloadOffset, key: eventKey(e) })).sort((a, b) => a.off - b.off);
  const cuts = new Set<number>();
  for (const b of full.blocks) {
    if (b.kind === BlockKind.EndOfStream) continue;
    cuts.add(b.end); // right after the block
    if (midBlock) cuts.add(Math.floor((b.start + b.end) / 2)); // in the middle of it
  }
  cuts.add(7); // inside the magic
  for (const cut of cuts) {
    if (cut >= bytes.length - 1) continue;
    const d = decode(bytes.subarray(0, cut), [4096]);
    expect(d.state, `cut at ${cut}`).toBe('truncated');
    expect(d.error?.code).toBe('truncated');
    expect(d.error?.offset).toBeLessThanOrEqual(cut);
    const expected = ends.filter((e) => e.end <= cut).map((e) => e.key);
    const got = d.events.slice().sort(byOffset).map(eventKey);
    expect(got, `events before the cut at ${cut}`).toEqual(expected);
  }
  return cuts.size;
}

describe('a trace cut at every block boundary and mid-block keeps every complete event before the cut', () => {
  it('real .NET 10 NetTrace V5 trace (exceptions.nettrace)', () => {
    expect(checkCuts(traceBytes('exceptions.nettrace'), true)).toBeGreaterThan(40);
  });
  it('real .NET Core 3.0 NetTrace V4 trace (only_managed_samples)', () => {
    expect(checkCuts(traceBytes('only_managed_samples.nettrace.zip'), true)).toBeGreaterThan(100);
  });
  it('real NetPerf V3 trace, at block boundaries', () => {
    // V3 events carry their stack after the payload; a mid-block cut can leave an event whose
    // payload is present but whose blob is not, so only block boundaries are compared here.
    expect(checkCuts(traceBytes('eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip'), false)).toBeGreaterThan(50);
  });
  it('built V4 and V6 streams', () => {
    checkCuts(buildV4Sample(), true);
    checkCuts(buildV6Sample(), true);
  });
  it('a stream cut right after its Trace object reports truncation with no events', () => {
    const bytes = traceBytes('wait.nettrace');
    const full = decode(bytes);
    const traceEnd = full.blocks.find((b) => b.kind === BlockKind.Trace)!.end;
    const d = decode(bytes.subarray(0, traceEnd));
    expect(d.trace?.processId).toBe(72192);
    expect(d.events).toHaveLength(0);
    expect(d.state).toBe('truncated');
  });
  it('a stream missing only its final end-of-stream tag keeps every event', () => {
    const bytes = traceBytes('wait.nettrace');
    const d = decode(bytes.subarray(0, bytes.length - 1));
    expect(d.state).toBe('truncated');
    expect(d.events.length).toBe(11663);
  });
});
