/**
 * The ETL reader's container behaviour: framing split anywhere, truncation and damage as typed
 * states, time order across out-of-order buffers, processes and their pointer sizes, stacks.
 */
import { describe, expect, it } from 'vitest';
import { EtlError } from '../../src-main/etl/errors.js';
import { sniffEtl } from '../../src-main/etl/format.js';
import { EtlReader } from '../../src-main/etl/reader.js';
import { TraceDecodeError } from '../../src-main/trace/errors.js';
import { etlBytes, readEtl, type Read } from './helpers.js';

function summary(r: Read): string[] {
  return [
    `state=${r.reader.state} err=${r.reader.error?.code ?? ''} trace=${r.trace?.syncTimeQpc ?? ''}`,
    ...r.events.map(
      (e) =>
        `${e.name} ${e.ms} ${e.pid}/${e.tid}@${e.cpu} ${e.dataLen} ${Buffer.from(e.record.bytes.subarray(e.record.payloadStart, e.record.payloadStart + e.dataLen)).toString('hex')}`,
    ),
  ];
}

/** Reads, turning a thrown TraceDecodeError into the reader's state (anything else fails the test). */
function tolerant(bytes: Uint8Array, chunks: number[] = []): Read {
  try {
    return readEtl(bytes, {}, chunks);
  } catch (e) {
    expect(e).toBeInstanceOf(TraceDecodeError);
    throw e;
  }
}

/** Buffer boundaries of a file (a cut there leaves whole buffers: the stream is complete). */
function bufferEnds(bytes: Uint8Array): Set<number> {
  const ends = new Set<number>([0]);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 4 <= bytes.length;) {
    at += v.getUint32(at, true);
    ends.add(at);
  }
  return ends;
}

describe('framing: a stream split anywhere decodes identically', () => {
  it('SelfDescribingSingleEvent.etl split at every byte boundary (plain and compressed buffers)', () => {
    const bytes = etlBytes('SelfDescribingSingleEvent.etl');
    const whole = summary(readEtl(bytes));
    expect(whole[0]).toMatch(/^state=complete/);
    for (let cut = 1; cut < bytes.length; cut++) expect(summary(readEtl(bytes, {}, [cut])), `split at byte ${cut}`).toEqual(whole);
  });

  it('primitive-types (8 KiB buffers) split at every byte boundary', () => {
    const bytes = etlBytes('primitive-types.etl.zip');
    const whole = summary(readEtl(bytes));
    for (let cut = 1; cut < bytes.length; cut++) expect(summary(readEtl(bytes, {}, [cut])), `split at byte ${cut}`).toEqual(whole);
  });

  it('the real files fed in odd chunk sizes', () => {
    for (const name of ['gcevents.etl.zip', 'net.4.5.2.x64.etl.zip']) {
      const bytes = etlBytes(name);
      const whole = summary(readEtl(bytes));
      const odd: number[] = [];
      for (let n = 0, k = 0; n < bytes.length; k++) {
        const size = [1, 7, 4093, 3, 65536, 13, 1500, 72][k % 8]!;
        odd.push(size);
        n += size;
      }
      expect(summary(readEtl(bytes, {}, odd)), name).toEqual(whole);
    }
  });
});

describe('truncated and damaged files', () => {
  it('a file cut anywhere is truncated (complete at a buffer boundary), with the earlier buffers delivered in order', () => {
    for (const name of ['gcevents.etl.zip', 'SelfDescribingSingleEvent.etl']) {
      const bytes = etlBytes(name);
      const whole = summary(readEtl(bytes)).slice(1);
      const ends = bufferEnds(bytes);
      for (let cut = 0; cut < bytes.length; cut += cut < 600 ? 1 : 997) {
        const r = tolerant(bytes.subarray(0, cut));
        expect(r.reader.state, `cut at ${cut}`).toBe(ends.has(cut) && cut > 0 ? 'complete' : 'truncated');
        if (r.reader.state === 'truncated') {
          expect(r.reader.error).toBeInstanceOf(EtlError);
          expect(r.reader.error!.code).toBe('truncated');
        }
        // What is delivered is events of the whole read (a subset: the buffers before the cut).
        const got = summary(r).slice(1);
        const all = new Set(whole);
        for (const g of got) expect(all.has(g), `cut at ${cut}: ${g}`).toBe(true);
      }
    }
  });

  it('flipped bytes anywhere end in a typed error or a complete read, never anything else', () => {
    const base = etlBytes('SelfDescribingSingleEvent.etl');
    let seed = 12345;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
    for (let k = 0; k < 400; k++) {
      const b = base.slice();
      for (let j = 0; j < 1 + (k % 4); j++) b[rand(b.length)] = rand(256);
      const r = new EtlReader({ onEvent: () => undefined });
      try {
        r.push(b);
        r.end();
      } catch (e) {
        expect(e).toBeInstanceOf(TraceDecodeError);
        r.end(); // delivers what was held before the damage, once
        expect(r.state).toBe('failed');
      }
    }
  });

  it('a buffer claiming an absurd size fails at once with its offset, without allocating it', () => {
    const bytes = etlBytes('gcevents.etl.zip').slice(0, 65536 + 0x48);
    new DataView(bytes.buffer).setUint32(65536, 0x7fffffff, true);
    const r = new EtlReader({});
    expect(() => r.push(bytes)).toThrow(/claims a size of 2147483647 bytes.*at byte offset 65536/);
    expect(r.state).toBe('failed');
    expect(r.error?.code).toBe('bad-buffer');
  });

  it('a compressed buffer that is not plain LZ77 fails as unsupported compression, in one line', () => {
    const bytes = etlBytes('SelfDescribingSingleEvent.etl').slice();
    const v = new DataView(bytes.buffer);
    // The second buffer is compressed: scramble its compressed bytes.
    const second = v.getUint32(0, true);
    expect(v.getUint16(second + 0x34, true) & 0x40).toBe(0x40);
    for (let k = second + 0x48; k < second + v.getUint32(second, true); k++) bytes[k] = 0xff;
    const r = new EtlReader({});
    let err: unknown;
    try {
      r.push(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EtlError);
    expect((err as EtlError).code).toBe('unsupported-compression');
    expect((err as EtlError).message).not.toContain('\n');
    expect((err as EtlError).offset).toBe(second);
  });

  it('is recognized by its first buffer and header event, and anything else is refused early', () => {
    const bytes = etlBytes('gcevents.etl.zip');
    expect(sniffEtl(bytes.subarray(0, 0x50))).toBe('yes');
    expect(sniffEtl(bytes.subarray(0, 10))).toBe('more');
    expect(sniffEtl(new TextEncoder().encode('hello world, this is not a trace at all; it is text'))).toBe('no');
    expect(sniffEtl(new TextEncoder().encode('Nettrace'))).toBe('no');
    const noHeaderEvent = bytes.slice(0, 0x50);
    noHeaderEvent[0x4f] = 3; // group 3 (Process) instead of 0 (EventTrace)
    expect(sniffEtl(noHeaderEvent)).toBe('no');
  });
});

describe('bounded memory', () => {
  it('held to a small window, the merge releases early: every event still comes once, and any delivered late is counted', () => {
    const bytes = etlBytes('net.4.5.2.x64.etl.zip');
    const whole = readEtl(bytes).events.map((e) => `${e.record.timestamp} ${e.tid} ${e.record.metadata.eventId}`);
    for (const [hold, late] of [
      [1 << 20, 'some'],
      [16 << 20, 'none'],
    ] as const) {
      const seen: string[] = [];
      let last = -Infinity;
      let outOfOrder = 0;
      const r = new EtlReader(
        {
          onEvent: (e) => {
            if (e.timestamp < last) outOfOrder++;
            last = Math.max(last, e.timestamp);
            seen.push(`${e.timestamp} ${e.threadId} ${e.metadata.eventId}`);
          },
        },
        {},
        hold,
      );
      for (let p = 0; p < bytes.length; p += 1 << 20) r.push(bytes.subarray(p, p + (1 << 20)));
      r.end();
      expect(r.state).toBe('complete');
      expect(seen.sort()).toEqual([...whole].sort());
      // This relogged file flushes a quiet processor's buffer ~1.4 s after its first events: a
      // 1 MiB window cannot wait for it, 16 MiB (and the default 64 MiB) can.
      expect(r.lateEvents).toBe(outOfOrder);
      expect(r.blockCounts['events delivered late'] ?? 0).toBe(outOfOrder);
      if (late === 'none') expect(outOfOrder).toBe(0);
      else expect(outOfOrder).toBeGreaterThan(0);
    }
  });

  it('zero padding after the last buffer (a preallocated log file) ends the trace cleanly', () => {
    const bytes = etlBytes('gcevents.etl.zip');
    const padded = new Uint8Array(bytes.length + 200_000);
    padded.set(bytes);
    const a = readEtl(bytes);
    const b = readEtl(padded);
    expect(b.reader.state).toBe('complete');
    expect(summary(b)).toEqual(summary(a));
  });
});

describe('time order, processes and stacks', () => {
  it('merges out-of-order buffers (circular gcevents: sequence 0,2,3,4,1) into time order, ties in file order', () => {
    for (const name of ['gcevents.etl.zip', 'net.4.5.2.x64.etl.zip']) {
      const { events } = readEtl(etlBytes(name));
      for (let k = 1; k < events.length; k++) expect(events[k]!.ms >= events[k - 1]!.ms, `${name} event ${k}`).toBe(true);
    }
  });

  it('names processes from kernel Process events, with each process’s pointer size', () => {
    const { reader } = readEtl(etlBytes('net.4.5.2.x64.etl.zip'));
    const test = reader.processes.find((p) => p.processId === 3676);
    expect(test).toMatchObject({ name: 'Test.x64.exe', pointerSize: 8 });
    expect(test!.commandLine).toContain('Test.x64');
    expect(reader.processes.find((p) => p.processId === 3988)).toMatchObject({ name: 'PerfView.exe', pointerSize: 4 });
  });

  it('with processId, delivers only that process and reports its pointer size', () => {
    const perfview = readEtl(etlBytes('net.4.5.2.x64.etl.zip'), { processId: 3988 });
    expect(perfview.trace!.processId).toBe(3988);
    expect(perfview.trace!.pointerSize).toBe(4);
    expect(perfview.events.length).toBeGreaterThan(0);
    expect(perfview.events.every((e) => e.pid === 3988)).toBe(true);
    const test = readEtl(etlBytes('net.4.5.2.x64.etl.zip'), { processId: 3676 });
    expect(test.trace!.pointerSize).toBe(8);
    expect(test.events.filter((e) => e.name === 'Microsoft-Windows-DotNETRuntime/GC/Start')).toHaveLength(526);
  });

  it('gives CLR events the stack of the ClrStack/Walk that follows them on their thread', () => {
    const bytes = etlBytes('net.4.5.2.x64.etl.zip');
    const off = readEtl(bytes, { processId: 3676 });
    expect(off.events.some((e) => e.stack !== undefined)).toBe(false);
    const { events } = readEtl(bytes, { processId: 3676, stacks: true });
    const walks = events.filter((e) => e.name === 'Microsoft-Windows-DotNETRuntime/ClrStack/Walk');
    // (Other providers' events may carry STACK_TRACE64 extended items of their own.)
    const stacked = events.filter((e) => e.stack !== undefined && e.name.startsWith('Microsoft-Windows-DotNETRuntime'));
    expect(walks.length).toBeGreaterThan(0);
    // Every walk belongs to exactly one event before it (a walk with no CLR event before it in its buffer is dropped).
    expect(stacked.length).toBeLessThanOrEqual(walks.length);
    expect(stacked.length).toBeGreaterThan(walks.length * 0.95);
    const ticks = stacked.filter((e) => e.name === 'Microsoft-Windows-DotNETRuntime/GC/AllocationTick');
    expect(ticks.length).toBeGreaterThan(0);
    for (const e of ticks.slice(0, 50)) {
      expect(e.stack!.length).toBeGreaterThan(0);
      // 64-bit user-mode return addresses
      for (const a of e.stack!) expect(a > 0x10000 && a < 2 ** 47).toBe(true);
    }
  });
});
