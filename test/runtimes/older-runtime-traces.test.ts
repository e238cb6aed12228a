/**
 * The workload traces recorded on .NET 8.0.31 and 9.0.20 in four GC modes (test/fixtures, see
 * PROVENANCE.md) read as completely as the .NET 10 ones: every event of every provider decodes with
 * a layout we know (no decode errors, no event version newer than our tables), nothing is dropped,
 * and the GC/Start events per condemned generation equal what the runtime itself counted
 * (GC.CollectionCount, printed by the workload). The per-GC numbers are compared with TraceEvent's
 * in test/gc/oracle-goldens.test.ts.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventCensus } from '../../src-main/clr/event-census.js';
import { decodeGCEvent, type GCStart } from '../../src-main/clr/gc-events.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { TRACES, traceBytes, unzippedName, workloadTraceName } from '../helpers/fixtures.js';

const TMP = join(process.cwd(), 'test-output', 'runtimes');
mkdirSync(TMP, { recursive: true });

describe('.NET 8 and .NET 9 traces decode completely', () => {
  for (const runtime of ['net8.0', 'net9.0'] as const) {
    for (const mode of ['workstation', 'concurrent', 'server', 'datas'] as const) {
      const name = workloadTraceName(runtime, mode);
      it(`${unzippedName(name)}: every event decodes, none dropped, GC/Start per generation equals the runtime's own counts`, async () => {
        const file = join(TMP, unzippedName(name));
        writeFileSync(file, traceBytes(name));
        const counts = JSON.parse(readFileSync(TRACES + name.replace('.nettrace.zip', '.counts.json'), 'utf8')) as {
          gen0: number;
          exactGen0: number;
          exactGen1: number;
          exactGen2: number;
          mode: string;
        };
        let pointerSize = 8;
        const census = new EventCensus(() => pointerSize);
        const byGen = [0, 0, 0];
        const r = await readTraceFile(file, {
          onTrace: (t) => (pointerSize = t.pointerSize),
          onMetadata: census.onMetadata,
          onEvent: (e) => {
            census.onEvent(e);
            if (e.metadata.provider === 'Microsoft-Windows-DotNETRuntime' && e.metadata.eventId === 1)
              byGen[(decodeGCEvent(e, pointerSize) as GCStart).depth]!++;
          },
        });
        expect(r.state).toBe('complete');
        expect(r.droppedEvents).toBe(0);
        expect(census.decodeErrors).toBe(0);
        expect(census.newerVersionEvents).toBe(0);
        expect(census.counts.get('Microsoft-Windows-DotNETRuntime/GC/Start')).toBe(counts.gen0);
        expect(byGen).toEqual([counts.exactGen0, counts.exactGen1, counts.exactGen2]);
        expect(counts.mode).toBe(mode === 'server' || mode === 'datas' ? 'server' : 'workstation');
        if (mode === 'server') expect(census.counts.get('Microsoft-Windows-DotNETRuntime/GC/PerHeapHistory')).toBe(2 * counts.gen0);
      });
    }
  }
});
