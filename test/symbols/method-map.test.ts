/**
 * Address → method resolution (symbols/method-map.ts) and what users see when a trace cannot
 * resolve its stacks: a trace with its method rundown missing entirely still gives every frame,
 * as an address, and says why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCodeEvent, methodFullName, type MethodCode } from '../../src-main/clr/method-events.js';
import { NettraceReader } from '../../src-main/nettrace/reader.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import { allocationCallTree, allocationsSummary, FrameNames, stackFrames } from '../../src-main/symbols/allocations.js';
import { MethodMap } from '../../src-main/symbols/method-map.js';
import { StackEvents } from '../../src-main/symbols/stack-events.js';
import { traceBytes } from '../helpers/fixtures.js';

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

  it('names methods as TraceLog does: namespace.name plus the signature\'s argument list', () => {
    expect(methodFullName('WhoAllocates+ReportCache', 'Flush', 'void  ()')).toBe('WhoAllocates+ReportCache.Flush()');
    expect(methodFullName('System.GC', 'Collect', 'void  (int32,value class System.GCCollectionMode)')).toBe('System.GC.Collect(int32,value class System.GCCollectionMode)');
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
