/**
 * Address → method resolution (symbols/method-map.ts) and what users see when a trace cannot
 * resolve its stacks: a trace with its method rundown missing entirely still gives every frame,
 * as an address, and says why.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCodeEvent, methodFullName, type MethodCode } from '../../src-main/clr/method-events.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { fileStreamBytes, pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { allocationCallTree, allocationsSummary, FrameNames, stackFrames } from '../../src-main/symbols/allocations.js';
import { MethodMap } from '../../src-main/symbols/method-map.js';
import { StackEvents } from '../../src-main/symbols/stack-events.js';
import { PROBLEM_TRACES, traceBytes, TRACES } from '../helpers/fixtures.js';

function method(start: number, size: number, name: string, source: MethodCode['source'] = 'load', flags = 0x8): MethodCode {
  return { kind: 'method', source, methodId: start, moduleId: 1, start, size, token: 0, flags, fullName: name };
}

describe('the method map', () => {
  it('finds the method whose code holds an address; the end is exclusive; gaps are unknown', () => {
    const m = new MethodMap();
    m.add(method(0x2000, 0x100, 'B'));
    m.add(method(0x1000, 0x10, 'A'));
    expect(m.find(0x1000)?.name).toBe('A');
    expect(m.find(0x100f)?.name).toBe('A');
    expect(m.find(0x1010)).toBeUndefined();
    expect(m.find(0x0fff)).toBeUndefined();
    expect(m.find(0x20ff)?.name).toBe('B');
    expect(m.find(0x2100)).toBeUndefined();
  });

  it('keeps a method reported by its load event and by the rundown once; marks ready-to-run code', () => {
    const m = new MethodMap();
    m.add(method(0x1000, 0x10, 'A', 'load'));
    m.add(method(0x1000, 0x10, 'A', 'rundown-end'));
    m.add(method(0x3000, 0x10, 'R2R', 'rundown-end', 0));
    expect(m.size).toBe(2);
    expect(m.loadEvents).toBe(1);
    expect(m.rundownEvents).toBe(2);
    expect(m.find(0x3005)?.precompiled).toBe(true);
    expect(m.find(0x1005)?.precompiled).toBe(false);
  });

  it('when code memory is reused (an unloaded collectible method), the later report wins', () => {
    const m = new MethodMap();
    m.add(method(0x1000, 0x40, 'Old'));
    m.add(method(0x1000, 0x20, 'New'));
    expect(m.find(0x1010)?.name).toBe('New');
    expect(m.find(0x1030)?.name).toBe('Old');
  });

  it('a rundown of thousands of methods, reported twice and in any order, resolves as one list does', () => {
    // Above RADIX_MIN methods the order is built by a radix sort over the start addresses.
    const m = new MethodMap();
    const want: { start: number; end: number; name: string }[] = [];
    let seed = 7;
    const rand = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let k = 0; k < 6000; k++) {
      const start = 0x7f0000000000 + (k * 0x1000 + (rand() % 0x800));
      const size = 0x10 + (rand() % 0x700);
      want.push({ start, end: start + size, name: `M${k}` });
    }
    const shuffled = [...want].sort(() => (rand() & 1) - 0.5);
    for (const w of shuffled) m.add(method(w.start, w.end - w.start, w.name, 'rundown-start'));
    // The same ranges again from the end rundown, under other names: the first report is kept.
    for (const w of shuffled.slice(0, 3000)) m.add(method(w.start, w.end - w.start, `again ${w.name}`, 'rundown-end'));
    expect(m.size).toBe(6000);
    for (const w of want) {
      expect(m.find(w.start)?.name).toBe(w.name);
      expect(m.find(w.end - 1)?.name).toBe(w.name);
      expect(m.find(w.end)?.name).not.toBe(w.name);
    }
    expect(m.find(0x7f0000000000 - 1)).toBeUndefined();
  });

  it("names methods as TraceLog does: namespace.name plus the signature's argument list", () => {
    expect(methodFullName('WhoAllocates+ReportCache', 'Flush', 'void  ()')).toBe('WhoAllocates+ReportCache.Flush()');
    expect(methodFullName('System.GC', 'Collect', 'void  (int32,value class System.GCCollectionMode)')).toBe(
      'System.GC.Collect(int32,value class System.GCCollectionMode)',
    );
    expect(methodFullName('N', 'M', '')).toBe('N.M');
  });
});

describe('a trace whose method rundown and load events are missing entirely', () => {
  it('shows every frame as its address, builds the call tree and says why, without failing', async () => {
    const dir = join(process.cwd(), 'test-output', 'symbols');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'who-allocates-norundown.nettrace');
    writeFileSync(file, traceBytes('who-allocates.nettrace.zip'));
    const ev = new StackEvents();
    const r: NettraceReader = new NettraceReader(
      {
        onTrace: (t) => ev.setTrace(t),
        // Drop every method and module event: as if the session had no rundown and no Jit/Loader keywords.
        onEvent: (e) => {
          if (!isCodeEvent(e)) ev.onEvent(e, (x) => r.eventStack(x));
        },
      },
      { stacks: true },
    );
    await pumpTraceFile(file, r);
    expect(r.state).toBe('complete');
    expect(ev.methods.size).toBe(0);
    expect(ev.tickCount).toBeGreaterThan(600);
    const names = new FrameNames(ev);
    const frames = stackFrames(ev, names, ev.triggers[0]!.stack);
    expect(frames.length).toBeGreaterThan(2);
    for (const f of frames) expect(f).toMatch(/^\? 0x[0-9a-f]+$/);
    const s = allocationsSummary(ev);
    expect(s.resolution.unresolvedFrames).toBe(s.resolution.frames);
    expect(s.resolution.note).toMatch(/no method load or rundown events/);
    const tree = allocationCallTree(ev, names, { direction: 'bottom-up' });
    expect(tree.totalBytes).toBe(s.sampledBytes);
    expect(tree.children[0]!.name).toMatch(/^\? 0x/);
  });
});

/** Reads a trace file through StackEvents (stacks on), as `report FILE` does. */
async function stackEventsOf(file: string, stream: Parameters<typeof fileStreamBytes>[0] | undefined): Promise<StackEvents> {
  const ev = new StackEvents({ stream: stream === undefined ? undefined : await fileStreamBytes(stream) });
  const r: NettraceReader = new NettraceReader(
    { onTrace: (t) => ev.setTrace(t), onEvent: (e) => ev.onEvent(e, (x) => r.eventStack(x)) },
    { stacks: true, reuseRecords: true },
  );
  await pumpTraceFile(file, r);
  return ev;
}

describe('method names left in the trace file until a stack needs them', () => {
  const dir = join(process.cwd(), 'test-output', 'symbols');
  const names = (ev: StackEvents): (string | undefined)[] => ev.stacks.frameAddresses.map((_, f) => ev.frameName(f));

  it('give every frame the same name as names copied while reading (a real trace with a rundown)', async () => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'who-allocates-stream.nettrace');
    writeFileSync(file, traceBytes('who-allocates.nettrace.zip'));
    const copied = await stackEventsOf(file, undefined);
    const fromFile = await stackEventsOf(file, file);
    expect(copied.methods.size).toBeGreaterThan(100);
    expect(fromFile.methods.size).toBe(copied.methods.size);
    const want = names(copied);
    expect(want.filter((n) => n !== undefined && n !== '').length).toBeGreaterThan(10);
    expect(names(fromFile)).toEqual(want);
  });

  it('a zip keeps copying: its offsets are not file offsets', async () => {
    mkdirSync(dir, { recursive: true });
    expect(await fileStreamBytes(TRACES + 'who-allocates.nettrace.zip')).toBeUndefined();
    expect(await fileStreamBytes(join(dir, 'no-such-file.nettrace'))).toBeUndefined();
  });

  it('when the file is replaced before a name is asked for, frames show no name rather than a wrong one', async () => {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'who-allocates-replaced.nettrace');
    writeFileSync(file, traceBytes('who-allocates.nettrace.zip'));
    const ev = await stackEventsOf(file, file);
    // Another trace written in its place (a new file under the same name).
    const other = join(dir, 'who-allocates-replaced.tmp');
    writeFileSync(other, traceBytes(PROBLEM_TRACES[0]!));
    renameSync(other, file);
    const got = names(ev);
    expect(got.length).toBeGreaterThan(10);
    for (const n of got) expect(n === undefined || n === '').toBe(true);
    // Resolved frames still resolve to a method (its range is known), shown by address in the views.
    const s = allocationsSummary(ev);
    expect(s.resolution.frames).toBeGreaterThan(0);
  });
});
