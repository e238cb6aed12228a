/**
 * `report FILE` keeps its GC rows in a GcRecordTable (one row of doubles per GC) and hands the
 * report an array view that builds each record when read. If either lost anything, the report's
 * GC list (JSON, CSV, text, HTML) would change: these tests hold both to the records of real
 * traces, as values and as JSON text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { GcRecordTable } from '../../src-main/common/gc-record-table.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { traceBytes, unzippedName } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'gc-record-table');

async function recordsOf(name: string): Promise<GcRecord[]> {
  mkdirSync(DIR, { recursive: true });
  const f = join(DIR, unzippedName(name));
  writeFileSync(f, traceBytes(name));
  const a = await analyzeTraceFile(f);
  return a.analyzer.gcs.map((g) => toGcRecord(g!));
}

function tableOf(records: readonly GcRecord[]): GcRecordTable {
  const t = new GcRecordTable();
  records.forEach((r, i) => t.set(i, r));
  return t;
}

describe('GC rows stored compactly give back the same records', () => {
  // Workstation, Server GC with per-heap data, DATAS, an old runtime with fewer events, and a
  // trace with incomplete GCs (null where no HeapStats arrived).
  for (const name of [
    'workload-concurrent.nettrace.zip',
    'workload-net8-server.nettrace.zip',
    'workload-datas.nettrace.zip',
    'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip',
    'problem-growing-live-set.nettrace.zip',
  ]) {
    it(`${name}: every record read back equals the record stored, with the same JSON text`, async () => {
      const records = await recordsOf(name);
      expect(records.length).toBeGreaterThan(5);
      const t = tableOf(records);
      expect(t.length).toBe(records.length);
      for (let i = 0; i < records.length; i++) {
        expect(t.get(i), `GC row ${i}`).toEqual(records[i]);
        expect(JSON.stringify(t.get(i))).toBe(JSON.stringify(records[i]));
      }
    });
  }

  it('the array view indexes, iterates, slices and stringifies like the array of records', async () => {
    const records = await recordsOf('workload-concurrent.nettrace.zip');
    const view = tableOf(records).asArray();
    expect(Array.isArray(view)).toBe(true);
    expect(view.length).toBe(records.length);
    expect(view[3]).toEqual(records[3]);
    expect(view[records.length]).toBeUndefined();
    expect([...view]).toEqual(records);
    expect(view.slice(-5)).toEqual(records.slice(-5));
    expect(view.map((g) => g.pauseDurationMSec)).toEqual(records.map((g) => g.pauseDurationMSec));
    expect(view.some((g) => g.committedInUseBeforeMB !== null)).toBe(records.some((g) => g.committedInUseBeforeMB !== null));
    expect(JSON.stringify({ gcs: view }, undefined, 2)).toBe(JSON.stringify({ gcs: records }, undefined, 2));
    expect(() => ((view as GcRecord[])[0] = records[1]!)).toThrow(/read-only/);
  });

  it('a record that does not fit the layout (a NaN, another key order, a changed row) comes back as it went in', async () => {
    const records = await recordsOf('workload-concurrent.nettrace.zip');
    const t = tableOf(records);
    const withNaN = { ...records[1]!, pauseDurationMSec: Number.NaN };
    t.set(1, withNaN);
    expect(t.get(1)).toBe(withNaN);
    const { index, ...rest } = records[2]!;
    const reordered = { ...rest, index } as GcRecord;
    t.set(2, reordered);
    expect(JSON.stringify(t.get(2))).toBe(JSON.stringify(reordered));
    // A later record of the same GC replaces the first (as finalizers queued late do).
    const updated = { ...records[3]!, finalizersQueued: 7 };
    t.set(3, updated);
    expect(t.get(3)).toEqual(updated);
    // And a row that fits again after an odd one is stored compactly again.
    t.set(1, records[1]!);
    expect(t.get(1)).toEqual(records[1]);
    expect(t.get(1)).not.toBe(records[1]);
  });
});
