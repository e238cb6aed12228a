/**
 * The fuzzer's ETL layout model and mutator (test/fuzz/mutators/etl*.ts): if the layout parser
 * misread a file, "layout-aware" mutations would land on the wrong bytes and the fuzz run would
 * test far less than it claims. So: every seed re-serializes byte for byte and every buffer's
 * events walk to where the buffer's data ends; every buffer rebuilt from its events (compressed
 * ones re-emitted uncompressed) gives a file src-main/etl reads to the same events; the fuzzer's
 * own LZ77 decoder agrees with the reader's; each mutation family fires, changes the input, and
 * the same (seed, index) gives the same input.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inputRand } from '../fuzz/input-rand.js';
import { BUFFER_HEADER, logfileFields, parseEtl, serialize, u32 } from '../fuzz/mutators/etl-layout.js';
import { etlSeeds, mutateEtl } from '../fuzz/mutators/etl.js';
import { pickWeighted } from '../fuzz/mutators/types.js';
import { readEtl } from '../etl/helpers.js';

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** What a reader makes of a file: each event's identity, time, process, thread, CPU and payload. */
function eventsOf(bytes: Uint8Array): { state: string; count: number; digest: string; first: string[] } {
  const r = readEtl(bytes);
  const h = createHash('sha256');
  const first: string[] = [];
  for (const e of r.events) {
    const rec = e.record;
    const line = `${e.name}|${rec.timestamp}|${e.pid}|${e.tid}|${e.cpu}|${e.version}|${rec.payloadSize}|${Buffer.from(rec.bytes.subarray(rec.payloadStart, rec.payloadStart + rec.payloadSize)).toString('hex')}`;
    h.update(line + '\n');
    if (first.length < 5) first.push(line.slice(0, 200));
  }
  return { state: r.reader.state, count: r.events.length, digest: h.digest('hex'), first };
}

describe('the fuzzer reads the ETL layout right', () => {
  const seeds = etlSeeds();

  it('has plain and compressed seeds, including a prefix of the big .NET Framework trace', () => {
    expect(new Set(seeds.map((s) => s.format))).toEqual(new Set(['ETL plain', 'ETL compressed']));
    expect(seeds.map((s) => s.name)).toContain('net.4.5.2.x64.etl.zip:first-60-buffers');
  });

  for (const s of etlSeeds()) {
    it(`${s.name} (${s.format}): re-serializes byte for byte; every buffer's events walk; the log-file header's fields are found`, () => {
      const l = parseEtl(s.bytes);
      expect(same(serialize(l).bytes, s.bytes)).toBe(true);
      expect(l.buffers.length).toBeGreaterThan(1);
      let events = 0;
      for (const b of l.buffers) {
        expect(b.events, 'a buffer the fuzzer cannot walk').toBeDefined();
        events += b.events!.length;
        // A compressed buffer's stream decoded to exactly SavedOffset − 0x48 bytes.
        if (b.compressed) expect(b.logicalLength).toBe(u32(b.raw, 4));
      }
      expect(events).toBeGreaterThan(2);
      const f = logfileFields(l.buffers[0]!.events![0]!.bytes)!;
      expect(f).toBeDefined();
      const ev = l.buffers[0]!.events![0]!.bytes;
      // PerfFreq: a QPC frequency (10 MHz on these machines, or the TSC's few MHz…GHz); StartTime: a FILETIME in 2000..2100.
      const freq = Number(new DataView(ev.buffer, ev.byteOffset).getBigInt64(f.perfFreq, true));
      const start = Number(new DataView(ev.buffer, ev.byteOffset).getBigInt64(f.startTime, true));
      expect(freq).toBeGreaterThan(1000);
      expect(start).toBeGreaterThan(125911584000000000); // 2000-01-01
      expect(start).toBeLessThan(157469184000000000); // 2100-01-01
    });

    it(`${s.name}: every buffer rebuilt from its events (uncompressed) reads to the same events`, () => {
      const l = parseEtl(s.bytes);
      const rebuilt = serialize({ ...l, buffers: l.buffers.map((b) => ({ ...b, dirty: true })) }).bytes;
      // Plain buffers come back byte for byte; compressed ones are now plain.
      if (s.format === 'ETL plain') expect(same(rebuilt, s.bytes)).toBe(true);
      else {
        expect(rebuilt.length).toBeGreaterThan(s.bytes.length);
        const r2 = parseEtl(rebuilt);
        expect(r2.buffers.every((b) => !b.compressed)).toBe(true);
      }
      const a = eventsOf(s.bytes);
      const b = eventsOf(rebuilt);
      expect(a.state).toBe('complete');
      expect(b.state).toBe('complete');
      expect(a.count).toBeGreaterThan(0);
      expect(b.count).toBe(a.count);
      expect(b.first).toEqual(a.first);
      expect(b.digest).toBe(a.digest);
    });
  }

  it('every mutation family fires on the seeds it targets, changes the input, and (seed, index) gives the same input', () => {
    const families = new Map<string, Set<string>>();
    let unchanged = 0;
    for (let i = 0; i < 600; i++) {
      const rand = inputRand(5, i);
      const seed = pickWeighted(seeds, rand);
      const m = mutateEtl(seed, rand);
      if (same(m.bytes, seed.bytes)) unchanged++;
      for (const part of m.mutation.split('; ')) {
        const fam = part.split(':')[0]!.split(' ')[0]!;
        if (!families.has(fam)) families.set(fam, new Set());
        families.get(fam)!.add(seed.format);
      }
      if (i % 60 === 0) {
        const again = inputRand(5, i);
        const m2 = mutateEtl(pickWeighted(seeds, again), again);
        expect(m2.mutation).toBe(m.mutation);
        expect(same(m2.bytes, m.bytes)).toBe(true);
      }
    }
    for (const fam of [
      'buffer-duplicate',
      'buffer-drop',
      'buffer-swap',
      'buffer-header',
      'event-structure',
      'event-size',
      'event-type',
      'extended-data',
      'logfile-header',
      'gc-payload',
      'process-payload',
      'lz77',
      'frame',
      'zipped',
    ]) {
      expect(families.get(fam), fam).toBeDefined();
    }
    for (const fam of ['event-size', 'gc-payload', 'buffer-drop']) {
      expect([...families.get(fam)!].sort(), fam).toEqual(['ETL compressed', 'ETL plain']);
    }
    expect([...families.get('lz77')!]).toEqual(['ETL compressed']);
    expect(unchanged).toBeLessThan(12);
  });

  it('a mutated GC event lands on a CLR event the reader decodes (the mutation reaches the GC decoder)', () => {
    const seed = seeds.find((s) => s.name === 'gcevents.etl.zip')!;
    let hit = 0;
    for (let i = 0; i < 40 && hit < 3; i++) {
      const m = mutateEtl(seed, inputRand(9, i), ['gc-payload']);
      expect(m.mutation).toMatch(/^gc-payload: buffer \d+ event \d+ CLR event \d+/);
      if (m.ext !== '.etl') continue;
      // The rebuilt buffer is still a well-framed ETL: the reader gets past the framing.
      const r = readEtl(m.bytes);
      expect(r.reader.state, m.mutation).not.toBe('failed');
      expect(r.events.length).toBeGreaterThan(0);
      hit++;
    }
    expect(hit).toBe(3);
  });

  it('the rebuilt first buffer keeps its header event at 0x48 and the log-file header readable', () => {
    const seed = seeds.find((s) => s.name === 'SelfDescribingSingleEvent.etl')!;
    const l = parseEtl(seed.bytes);
    const out = serialize({ ...l, buffers: l.buffers.map((b, i) => (i === 0 ? { ...b, dirty: true } : b)) }).bytes;
    expect(out[BUFFER_HEADER + 2]).toBe(seed.bytes[BUFFER_HEADER + 2]);
    expect(eventsOf(out).digest).toBe(eventsOf(seed.bytes).digest);
  });
});
