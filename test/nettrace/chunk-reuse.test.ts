/**
 * Reading a trace file reuses the chunks the reader has released (recording/trace-file.ts): the
 * events, their payloads and their call stacks must be exactly those of reading with a new buffer
 * per chunk. Small chunks make every fixture span hundreds of them, so a chunk reused while a
 * queued event or a stack block still pointed into it would show as a changed payload or stack.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import type { TraceEventRecord } from '../../src-main/nettrace/types.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { traceBytes } from '../helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'gcscope-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** FNV-1a over a byte range, folded into a running hash. */
function fnv(h: number, b: ArrayLike<number>, from = 0, to = b.length): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ (b[i]! & 0xff), 16777619);
  return h >>> 0;
}

/** One line per event: what it is, when, on which thread, and a hash of its payload and stack. */
async function digest(path: string, chunkBytes?: number): Promise<{ lines: string[]; allocs: number }> {
  const lines: string[] = [];
  const onEvent = (e: TraceEventRecord): void => {
    const stack = reader.eventStack(e);
    const s = stack === undefined ? 0 : fnv(2166136261, new Uint8Array(stack.buffer, stack.byteOffset, stack.byteLength));
    lines.push(
      `${e.metadata.provider}/${e.metadata.eventId} ${e.timestamp} ${e.threadId} ${e.sequenceNumber} ${fnv(2166136261, e.bytes, e.payloadStart, e.payloadStart + e.payloadSize)} ${s}`,
    );
  };
  // Counts the chunk buffers made: reuse shows as far fewer than the file has chunks.
  const alloc = Buffer.allocUnsafe;
  let allocs = 0;
  Buffer.allocUnsafe = (n: number) => {
    if (n === chunkBytes) allocs++;
    return alloc(n);
  };
  const reader = new NettraceReader({ onEvent }, { stacks: true });
  try {
    await pumpTraceFile(path, reader, { chunkBytes });
    expect(reader.state).toBe('complete');
  } finally {
    Buffer.allocUnsafe = alloc;
  }
  return { lines, allocs };
}

describe('trace files read through reused chunks', () => {
  // Traces whose sequence points (or, in NetPerf V3, whose blocks) release the chunks often enough
  // for 8 KB chunks to be reused many times; the small V5 fixtures have one, at their end.
  const unzipped =
    (zip: string): (() => string) =>
    () => {
      const p = join(dir, zip.replace(/\.zip$/, ''));
      writeFileSync(p, traceBytes(zip));
      return p;
    };
  const files: [string, () => string][] = [
    ['HeartRateMonitor (NetTrace V4, 30 MB, stacks)', unzipped('HeartRateMonitor.10068.nettrace.zip')],
    ['.NET Core 3.0 (NetTrace V4, 18 sequence points)', unzipped('eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip')],
    ['.NET Core 2.1 (NetPerf V3, inline stacks)', unzipped('eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip')],
    ['.NET 10 DATAS phases (GC-dense)', unzipped('workload-net10-datas-phases.nettrace.zip')],
  ];
  for (const [name, path] of files) {
    it(`${name}: every event, payload and stack as with a new buffer per chunk, in far fewer buffers`, async () => {
      const p = path();
      const fresh = await digest(p);
      const small = 8192;
      const reused = await digest(p, small);
      expect(reused.lines.length).toBe(fresh.lines.length);
      expect(reused.lines).toEqual(fresh.lines);
      const chunks = Math.ceil(statSync(p).size / small);
      expect(reused.allocs).toBeLessThan(chunks / 2);
    });
  }
});
