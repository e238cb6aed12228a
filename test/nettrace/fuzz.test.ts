/**
 * Seeded mutation fuzzing (bit flips, cuts, huge sizes, overwrites, duplicated ranges) over the
 * real traces, bounded to a few seconds. A longer run: `npm run fuzz -- --seconds 600`.
 */
import { describe, expect, it } from 'vitest';
import { fuzzOne, mutate, rng } from '../helpers/fuzz.js';
import { traceBytes } from '../helpers/fixtures.js';

const TARGETS = [
  'eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip',
  'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip',
  'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip',
  'exceptions.nettrace',
  'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip',
];

describe('mutated real traces never crash, hang or allocate without bound', () => {
  for (const [i, name] of TARGETS.entries()) {
    it(`${name}: only typed errors`, () => {
      const src = traceBytes(name);
      const rand = rng(0x6c5 + i);
      const heapBefore = process.memoryUsage().heapUsed;
      const outcomes = new Map<string, number>();
      const deadline = Date.now() + 900;
      let runs = 0;
      // Bounded by count and by time: small traces get many runs, large ones a few.
      while (runs < 400 && (runs < 8 || Date.now() < deadline)) {
        const { bytes } = mutate(src, rand);
        const r = fuzzOne(bytes, 1 + Math.floor(rand() * 70000));
        outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
        runs++;
      }
      expect(runs).toBeGreaterThanOrEqual(8);
      // Nothing decoded is retained, so the heap must not have grown by hundreds of MB.
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(512 * 1024 * 1024);
      expect([...outcomes.keys()].every((k) => /^(complete|truncated|failed|bad-[a-z]+|unknown-metadata|too-large|unsupported-version)$/.test(k))).toBe(true);
    });
  }
});
