/**
 * "Its heap was N MB at its last GC", said before a snapshot pauses the process, comes from the
 * runtime's System.Runtime counters. They are asked at a 0.2 s interval (the first comes one
 * interval after they are enabled), which a runtime parses with its own culture: where the
 * interval does not parse, no counter comes, and the probe asks again in whole seconds. A real
 * .NET process; an interval no culture parses stands for one that does not parse in the
 * process's culture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastGcHeapSize } from '../../src-main/recording/heap-snapshot.js';
import { skipOrFail } from '../helpers/environment.js';
import { dotnetMissingReason } from '../workloads/workload.js';
import { buildHeapWorkload, startWorkload, type Workload } from './dotnet-gcdump.js';

const skip = skipOrFail(await dotnetMissingReason(), 'the heap-size probe');

describe.skipIf(skip)('the heap size at the last GC, before a snapshot', () => {
  let w: Workload;
  beforeAll(async () => {
    w = await startWorkload(await buildHeapWorkload(), 3000);
  }, 300_000);
  afterAll(() => {
    w?.child.kill();
  });

  it('is the same whether the runtime takes the 0.2 s interval or only the fallback in whole seconds', async () => {
    const fast = await lastGcHeapSize(w.pid);
    expect(fast).toBeGreaterThan(1_000_000);
    // The first interval refused: nothing comes, and the second try answers.
    const fallback = await lastGcHeapSize(w.pid, 4000, ['not-a-number', '1']);
    expect(fallback).toBe(fast);
    // Neither parses: no size, not a wrong one.
    expect(await lastGcHeapSize(w.pid, 1500, ['not-a-number', 'nor-this'])).toBeUndefined();
  }, 60_000);
});
