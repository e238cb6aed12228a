/**
 * A heap job that runs past its time limit does not wedge the heap views behind it (the worker
 * runs one thing at a time): it fails with a 'timeout' that says what it was doing, the worker is
 * replaced, and the next call is answered — as the analysis worker's requests are
 * (analysis-timeout.test.ts). The real heap worker (dist/heap-worker.mjs) on a real .gcdump.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeapHost, type HeapRequest } from '../../src-main/service/heap-host.js';
import { FIXTURES } from '../helpers/fixtures.js';

const WORKER = join(process.cwd(), 'dist', 'heap-worker.mjs');
const DUMP = `${FIXTURES}heap/workload-3000.gcdump`;

describe('the heap worker under a time limit', () => {
  it('a job past its limit fails with "timeout" naming the view; the worker is replaced and the next job is answered as by a fresh one', async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run node scripts/build.mjs (npm test builds it first)`);
    // Dominators get 1 ms (no worker starts and reads a .gcdump that fast); everything else a minute.
    const host = new HeapHost(WORKER, { timeoutMs: (kind: HeapRequest['kind']) => (kind === 'dominators' ? 1 : 60_000) });
    const fresh = new HeapHost(WORKER);
    try {
      const stuck = host.dominators(DUMP, 10, 2, 5);
      await expect(stuck).rejects.toMatchObject({ code: 'timeout', message: expect.stringMatching(/spent over 1 ms on the dominators view and was stopped/) });
      const after = await host.summary(DUMP, 0);
      expect(after.totals).toEqual((await fresh.summary(DUMP, 0)).totals);
      expect(after.types.find((t) => t.name === 'Customer')?.count).toBe(3000);
    } finally {
      await host.close();
      await fresh.close();
    }
  });
});
