/**
 * Fresh .NET 10 traces: the workload (test/workloads) runs in four GC modes with the runtime's
 * own EventPipe file output, and the reader must decode each completely, every GC event must
 * decode, and the GC/Start events per condemned generation must equal the collection counts the
 * workload printed itself (GC.CollectionCount).
 */
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeGCEvent, type GCStart } from '../../src-main/clr/gc-events.js';
import { EventCensus } from '../../src-main/clr/event-census.js';
import { readTraceFile } from '../../src-main/recording/trace-file.js';
import { skipOrFail } from '../helpers/environment.js';
import { dotnetMissingReason, OUTPUT_DIR, recordWorkload, type GcMode, type WorkloadRun } from '../workloads/workload.js';

const MODES: GcMode[] = ['workstation', 'concurrent', 'server', 'datas'];
const runs = new Map<GcMode, { run: WorkloadRun; file: string }>();
let skip = false;

// A missing tool skips through the runner (counted as skipped, with skipOrFail's printed reason); under CI=true skipOrFail fails instead.
beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'fresh .NET traces from the workload');
  if (skip) return;
  for (const mode of MODES) {
    const file = join(OUTPUT_DIR, 'fresh', `reader-${mode}.nettrace`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(OUTPUT_DIR, 'fresh'), { recursive: true });
    runs.set(mode, { run: await recordWorkload({ mode, out: file, scenario: 'mixed', iterations: 1 }), file });
  }
});

describe('fresh .NET 10 traces recorded from the workload', () => {
  for (const mode of MODES) {
    it(`${mode} GC: decodes completely and GC/Start per generation equals the workload's own counts`, async () => {
      const { run, file } = runs.get(mode)!;
      let pointerSize = 8;
      const census = new EventCensus(() => pointerSize);
      const byGen = [0, 0, 0];
      const r = await readTraceFile(file, {
        onTrace: (t) => (pointerSize = t.pointerSize),
        onMetadata: census.onMetadata,
        onEvent: (e) => {
          census.onEvent(e);
          if (e.metadata.provider === 'Microsoft-Windows-DotNETRuntime' && e.metadata.eventId === 1) {
            const s = decodeGCEvent(e, pointerSize) as GCStart;
            byGen[s.depth]!++;
          }
        },
      });
      expect(r.state).toBe('complete');
      expect(r.droppedEvents).toBe(0);
      expect(r.trace?.formatVersion).toBe(4);
      expect(census.decodeErrors).toBe(0);
      expect(census.newerVersionEvents).toBe(0);
      expect(census.counts.get('Microsoft-Windows-DotNETRuntime/GC/Start')).toBe(run.counts.gen0);
      expect(byGen).toEqual([run.counts.exactGen0, run.counts.exactGen1, run.counts.exactGen2]);
      if (mode === 'server') expect(census.counts.get('Microsoft-Windows-DotNETRuntime/GC/PerHeapHistory')).toBe(2 * run.counts.gen0);
    });
  }
});
