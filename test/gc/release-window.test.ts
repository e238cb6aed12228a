/**
 * Bounded memory: `report FILE` and `import` keep only a window of GCs in the analyzer and take
 * each GC's row as it completes (and again when a later event changes it). That is a shortcut:
 * these tests hold it to the analysis that keeps every GC, on real traces with hundreds to a
 * thousand GCs, including one where ephemeral GCs complete inside a background GC and read its
 * histories only once it ends (problem-growing-live-set: a GC's allocation was stored from the
 * background GC's unfinished state before release gave each GC its final metrics).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { traceBytes, unzippedName } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'release-window');
const WINDOW = 64;
const TRACES = [
  'problem-growing-live-set.nettrace.zip',
  'compare-ws-1.nettrace.zip',
  'workload-net10-datas-phases.nettrace.zip',
  'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip',
];

function file(name: string): string {
  mkdirSync(DIR, { recursive: true });
  const f = join(DIR, unzippedName(name));
  writeFileSync(f, traceBytes(name));
  return f;
}

describe('a report keeps a window of GCs, not every GC, and its rows equal the full analysis', () => {
  for (const name of TRACES) {
    it(`${name}: every GC row taken as GCs complete (and are released) equals the row of the analysis that held them all`, async () => {
      const f = file(name);
      const full = await analyzeTraceFile(f);
      const expected = full.analyzer.gcs.map((g) => toGcRecord(g!));
      expect(expected.length).toBeGreaterThan(4 * WINDOW);

      const rows: GcRecord[] = [];
      const windowed = await analyzeTraceFile(f, { window: WINDOW, onGC: (g) => (rows[g.index] = toGcRecord(g)) });
      for (const g of windowed.analyzer.gcs) if (g !== undefined) rows[g.index] = toGcRecord(g);
      // The analyzer forgot most GCs: what it still holds is about two windows.
      const stillHeld = windowed.analyzer.gcs.filter((g) => g !== undefined).length;
      expect(stillHeld).toBeLessThanOrEqual(3 * WINDOW);
      expect(windowed.analyzer.gcs.length).toBe(expected.length);
      expect(rows.length).toBe(expected.length);
      for (let i = 0; i < expected.length; i++) expect(rows[i], `GC index ${i}`).toEqual(expected[i]);
    });
  }
});
