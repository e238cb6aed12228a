/**
 * The flight recorder's raw ring over real runtime traces (the workload's .NET 10 EventPipe
 * output, NetTrace V5): captures cut from it are ordinary traces our reader opens without loss,
 * holding the same GCs as the whole trace over their span; and the ring stays within its size
 * over a long, fast stream.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../oracle/compare.js';
import { dotnetMissingReason } from '../workloads/workload.js';
import { GCAnalyzer } from '../../src-main/gc/gc-analyzer.js';
import { BlockKind, NettraceReader } from '../../src-main/nettrace/reader.js';
import { BlockTap } from '../../src-main/watch/block-tap.js';
import { SegmentRing } from '../../src-main/watch/segment-ring.js';
import { traceBytes } from '../helpers/fixtures.js';

/** Streams a trace through the tap and the ring the way the watcher does, in 64 KB chunks. */
function feed(bytes: Uint8Array, ring: SegmentRing, each?: (kind: BlockKind) => void): NettraceReader {
  const tap = new BlockTap();
  const reader = new NettraceReader(
    {
      onBlock: (kind, start, end) => {
        if (kind === BlockKind.Trace) ring.setHeader(tap.slice(0, end), reader.syncTimeQpc, reader.trace!.qpcFrequency);
        else if (kind !== BlockKind.EndOfStream) ring.add(kind, tap.slice(start, end), start);
        tap.release(end);
        each?.(kind);
      },
    },
    { sort: false },
  );
  for (let o = 0; o < bytes.length; o += 65536) {
    const c = bytes.subarray(o, Math.min(bytes.length, o + 65536));
    tap.append(c);
    reader.push(c);
  }
  reader.end();
  return reader;
}

function analyze(bytes: Uint8Array): { analyzer: GCAnalyzer; reader: NettraceReader } {
  const analyzer = new GCAnalyzer();
  const reader = new NettraceReader({ onTrace: (t) => analyzer.setTrace(t), onEvent: (e) => analyzer.onEvent(e) });
  reader.push(bytes);
  reader.end();
  analyzer.finish();
  return { analyzer, reader };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

const ORACLE = join(process.cwd(), 'test-output', 'oracle-bin', 'GcOracle.dll');
const OUT = join(process.cwd(), 'test-output', 'segment-ring');

/** TraceEvent's rows for a trace (test/oracle), or undefined where the oracle cannot run here. */
async function oracleRows(bytes: Uint8Array, name: string): Promise<Record<string, string>[] | undefined> {
  if ((await dotnetMissingReason()) !== undefined) return undefined;
  if (!existsSync(ORACLE))
    await promisify(execFile)(
      'dotnet',
      ['build', join(process.cwd(), 'test/oracle/GcOracle'), '-c', 'Release', '-o', join(process.cwd(), 'test-output', 'oracle-bin'), '--nologo', '-v', 'q'],
      { maxBuffer: 16 << 20 },
    );
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, name);
  writeFileSync(file, bytes);
  const { stdout } = await promisify(execFile)('dotnet', [ORACLE, file], { maxBuffer: 64 << 20 });
  return parseCsv(stdout);
}

describe('segment ring: captures cut from a real runtime stream', () => {
  for (const name of ['workload-concurrent.nettrace.zip', 'workload-server.nettrace.zip', 'workload-net8-workstation.nettrace.zip']) {
    it(`${name}: a capture of the last seconds opens completely, without lost events, with every GC of its span as in the whole trace (GCScope and TraceEvent)`, async () => {
      const bytes = traceBytes(name);
      const whole = analyze(bytes);
      const gcs = whole.analyzer.gcs.filter((g) => g !== undefined && g.isComplete);
      expect(gcs.length).toBeGreaterThan(10);
      const ring = new SegmentRing({ maxBytes: 64 << 20, keepMSec: 3_600_000, segmentMSec: 20 });
      feed(bytes, ring);
      // Cut from a GC in the middle (these traces span a few hundred ms): from 30 ms before it.
      const mid = gcs[Math.floor(gcs.length / 2)]!;
      const from = mid.pauseStartRelativeMSec - 30;
      const { stacks, blocks, startMSec } = ring.since(from);
      expect(startMSec).not.toBeNull();
      expect(startMSec!).toBeLessThanOrEqual(from);
      const capture = concat(ring.captureChunks(stacks, blocks));
      expect(capture.length).toBeLessThan(bytes.length);
      const cut = analyze(capture);
      expect(cut.reader.state).toBe('complete');
      expect(cut.reader.droppedEvents).toBe(0);
      const cutGcs = cut.analyzer.gcs.filter((g) => g !== undefined && g.isComplete);
      const byNumber = new Map(gcs.map((g) => [g!.number, g!]));
      expect(cutGcs.map((g) => g!.number)).toContain(mid.number);
      for (const g of cutGcs.filter((x) => x!.pauseStartRelativeMSec >= startMSec! + 10)) {
        const o = byNumber.get(g!.number)!;
        expect(g!.pauseStartRelativeMSec).toBeCloseTo(o.pauseStartRelativeMSec, 6);
        expect(g!.pauseDurationMSec).toBeCloseTo(o.pauseDurationMSec, 6);
        expect(g!.heapSizeAfterMB).toBeCloseTo(o.heapSizeAfterMB ?? NaN, 6);
      }
      // TraceEvent opens the cut too (these traces carry stacks: the carried stack blocks resolve),
      // with the same GCs complete as we find.
      const te = await oracleRows(capture, name.replace(/\.zip$/, '').replace(/\.nettrace$/, '-cut.nettrace'));
      if (te !== undefined) {
        const mine = te.find((r) => Number(r.Number) === mid.number)!;
        expect(mine.IsComplete).toBe('True');
        expect(Math.abs(Number(mine.PauseDurationMSec) - mid.pauseDurationMSec)).toBeLessThan(0.001);
        expect(te.filter((r) => r.IsComplete === 'True').map((r) => Number(r.Number))).toEqual(cutGcs.map((g) => g!.number));
      }
    }, 120_000);
  }

  it('a ring too small for the stream no longer holds an early GC once the stream has moved on: the capture is cut after it, which the watcher tells the user', () => {
    const bytes = traceBytes('workload-concurrent.nettrace.zip');
    const gcs = analyze(bytes).analyzer.gcs.filter((g) => g !== undefined && g.isComplete);
    const first = gcs[0]!;
    // 256 KB: the last part of this stream only.
    const tiny = new SegmentRing({ maxBytes: 256 << 10, keepMSec: 3_600_000 });
    feed(bytes, tiny);
    const cut = tiny.since(first.pauseStartRelativeMSec - 10_000);
    expect(cut.startMSec!).toBeGreaterThan(first.pauseStartRelativeMSec);
    expect(SegmentRing.holds(cut.startMSec, first.pauseStartRelativeMSec)).toBe(false);
    // With room, the same cut reaches back before the GC.
    const roomy = new SegmentRing({ maxBytes: 64 << 20, keepMSec: 3_600_000 });
    feed(bytes, roomy);
    const whole = roomy.since(first.pauseStartRelativeMSec - 10_000);
    expect(SegmentRing.holds(whole.startMSec, first.pauseStartRelativeMSec)).toBe(true);
    expect(SegmentRing.holds(null, first.pauseStartRelativeMSec)).toBe(false);
    // A trigger judged before any timed block reached the ring (the first GC of a watch, its block
    // still being read): a ring that dropped nothing will take that block into the capture; one
    // that dropped segments may have lost it.
    expect(new SegmentRing({ maxBytes: 256 << 10, keepMSec: 3_600_000 }).captureHolds(null, first.pauseStartRelativeMSec)).toBe(true);
    expect(tiny.captureHolds(null, first.pauseStartRelativeMSec)).toBe(false);
    expect(tiny.captureHolds(cut.startMSec, first.pauseStartRelativeMSec)).toBe(false);
    expect(roomy.captureHolds(whole.startMSec, first.pauseStartRelativeMSec)).toBe(true);
  });

  it('memory stays under the ring size over a long stream at a high event rate, and only the wanted seconds are kept', () => {
    // Thirty minutes of a busy process in a few seconds: the trace's blocks played again and
    // again, each pass shifted in time by the trace's length (block headers rewritten; the ring
    // reads times there).
    const bytes = traceBytes('problem-pinning-fragmentation.nettrace.zip');
    const blocks: { kind: BlockKind; raw: Uint8Array; start: number }[] = [];
    let header: Uint8Array | undefined;
    let sync = 0n;
    let freq = 0;
    const tap = new BlockTap();
    const reader = new NettraceReader(
      {
        onBlock: (kind, start, end) => {
          if (kind === BlockKind.Trace) {
            header = tap.slice(0, end);
            sync = reader.syncTimeQpc;
            freq = reader.trace!.qpcFrequency;
          } else if (kind !== BlockKind.EndOfStream) blocks.push({ kind, raw: tap.slice(start, end), start });
          tap.release(end);
        },
      },
      { sort: false },
    );
    tap.append(bytes);
    reader.push(bytes);
    reader.end();
    const events = blocks.filter((b) => b.kind === BlockKind.Event);
    const traceMs = 8000;
    const perPass = blocks.reduce((n, b) => n + b.raw.length, 0);
    const maxBytes = 2 << 20;
    const ring = new SegmentRing({ maxBytes, keepMSec: 10 * 60_000 });
    ring.setHeader(header!, sync, freq);
    let peak = 0;
    let streamed = 0;
    const passes = Math.ceil((30 * 60_000) / traceMs);
    for (let pass = 0; pass < passes; pass++) {
      const shift = BigInt(Math.round((pass * traceMs * freq) / 1000));
      for (const b of blocks) {
        let raw = b.raw;
        if (b.kind === BlockKind.Event && pass > 0) {
          raw = raw.slice();
          // Content starts after the header and its padding; min/max timestamps at +4 / +12.
          const nameLen = new DataView(raw.buffer).getInt32(11, true);
          const afterSize = 20 + nameLen;
          const at = afterSize + ((4 - ((b.start + afterSize) % 4)) % 4);
          const dv = new DataView(raw.buffer, at);
          dv.setBigInt64(4, dv.getBigInt64(4, true) + shift, true);
          dv.setBigInt64(12, dv.getBigInt64(12, true) + shift, true);
        }
        if (b.kind === BlockKind.Metadata && pass > 0) continue;
        ring.add(b.kind, raw, b.start);
        streamed += raw.length;
        peak = Math.max(peak, ring.stats().ringBytes);
      }
    }
    expect(events.length).toBeGreaterThan(20);
    expect(streamed).toBeGreaterThan(50 * maxBytes);
    expect(peak).toBeLessThanOrEqual(maxBytes);
    const st = ring.stats();
    expect(st.peakBytes).toBe(peak);
    expect(st.droppedForSpace).toBeGreaterThan(0);
    // A ten-minute window does not fit in 2 MB at this rate: the ring holds the newest part.
    expect(ring.newestMSec - st.oldestMSec!).toBeLessThan(10 * 60_000);
    expect(perPass).toBeGreaterThan(0);
    // With room to spare, age decides: a 5 s window keeps about 5 s.
    const small = new SegmentRing({ maxBytes: 256 << 20, keepMSec: 5000, segmentMSec: 500 });
    feed(bytes, small);
    const s2 = small.stats();
    expect(small.newestMSec - s2.oldestMSec!).toBeGreaterThanOrEqual(5000);
    expect(small.newestMSec - s2.oldestMSec!).toBeLessThan(5000 + 1500);
  });
});

describe('a NetTrace block moved to another file offset', () => {
  it('keeps its content at every alignment (the padding follows the offset)', async () => {
    const { reframeBlock, splitFsBlock } = await import('../../src-main/watch/fs-block.js');
    const bytes = traceBytes('workload-concurrent.nettrace.zip');
    const blocks: { raw: Uint8Array; start: number }[] = [];
    const tap = new BlockTap();
    const reader = new NettraceReader(
      {
        onBlock: (kind, start, end) => {
          if (kind === BlockKind.Event || kind === BlockKind.Metadata || kind === BlockKind.Stack || kind === BlockKind.SequencePoint)
            blocks.push({ raw: tap.slice(start, end), start });
          tap.release(end);
        },
      },
      { sort: false },
    );
    tap.append(bytes);
    reader.push(bytes);
    reader.end();
    expect(blocks.length).toBeGreaterThan(50);
    for (const b of blocks.slice(0, 12)) {
      const parts = splitFsBlock(b.raw, b.start);
      for (let off = 100; off < 104; off++) {
        const moved = concat(reframeBlock(parts, off));
        // Content 4-byte aligned in the file, and read back the same from the new place.
        expect((off + parts.header.length + ((4 - ((off + parts.header.length) % 4)) % 4)) % 4).toBe(0);
        const again = splitFsBlock(moved, off);
        expect(Buffer.from(again.header).equals(Buffer.from(parts.header))).toBe(true);
        expect(Buffer.from(again.content).equals(Buffer.from(parts.content))).toBe(true);
      }
    }
    expect(() => splitFsBlock(blocks[0]!.raw, blocks[0]!.start + 1)).toThrow(/does not match its size field/);
  });
});
