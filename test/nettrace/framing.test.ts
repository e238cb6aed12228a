/**
 * Framing: a socket splits the stream anywhere. Every stream split at every byte boundary (and
 * fed one byte at a time) must decode exactly as when fed whole.
 */
import { describe, expect, it } from 'vitest';
import { ALL_TRACES, traceBytes } from '../helpers/fixtures.js';
import { decode, eventKey, type Decoded } from '../helpers/decode.js';
import { buildV4Sample, buildV6Sample } from '../helpers/samples.js';

function summary(d: Decoded): string[] {
  return [`state=${d.state} dropped=${d.dropped} err=${d.error?.code ?? ''}`, ...d.events.map(eventKey)];
}

function splitEverywhere(bytes: Uint8Array): void {
  const whole = summary(decode(bytes));
  expect(whole[0]).toMatch(/^state=complete/);
  for (let cut = 1; cut < bytes.length; cut++) {
    const parts = decode(bytes, [cut, bytes.length]);
    expect(summary(parts), `split at byte ${cut}`).toEqual(whole);
  }
  expect(summary(decode(bytes, 1)), 'one byte at a time').toEqual(whole);
}

describe('streams split at every byte boundary decode identically', () => {
  it('a built V6 stream', () => splitEverywhere(buildV6Sample()));
  it('a built V4 stream with compressed and uncompressed event blocks', () => splitEverywhere(buildV4Sample()));
  it('the real .NET 6 execution-checkpoints trace', () => splitEverywhere(traceBytes('eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip')));
  it('the real NetPerf V3 TraceLogging trace', () => splitEverywhere(traceBytes('eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip')));
});

describe('real traces fed in socket-sized and odd chunks decode identically', () => {
  for (const name of ALL_TRACES) {
    it(name, () => {
      const bytes = traceBytes(name);
      const whole = summary(decode(bytes));
      // Odd, varying chunk sizes, from 1 byte up to typical socket reads.
      expect(summary(decode(bytes, [1, 7, 4093, 3, 65536, 13, 1500]))).toEqual(whole);
    });
  }
});
