/**
 * Storage of call stacks (issue 14): a session of 100,000 AllocationTick samples over 50 distinct
 * stacks stores each stack and each frame once (store/stack-store.ts, migration 6), every sample
 * as one row, and reads back the same allocation by type and frame names as the trace itself.
 * The stream is synthetic (test/helpers/alloc-trace.ts), so its exact counts are known.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { Database } from '../../src-main/store/db.js';
import { loadStackData, tickChunk, TICKS_DEFLATED, TICKS_RAW } from '../../src-main/store/stack-store.js';
import { allocationsByType, FrameNames, stackFrames } from '../../src-main/symbols/allocations.js';
import { buildAllocationTickTrace, frameAddress, methodName } from '../helpers/alloc-trace.js';

const DIR = join(process.cwd(), 'test-output', 'stacks-storage');
const FILE = join(DIR, 'ticks-100k.nettrace');
const SHAPE = { ticks: 100_000, stacks: 50, types: 12, methods: 40 };

/** A StackData's sample columns (time, amount, object size, type, stack, kind), its entries only. */
const columns = (d: {
  tickTime: ArrayLike<number>;
  tickAmount: ArrayLike<number>;
  tickObjectSize: ArrayLike<number>;
  tickType: ArrayLike<number>;
  tickStack: ArrayLike<number>;
  tickKind: ArrayLike<number>;
  tickCount: number;
}): number[][] =>
  [d.tickTime, d.tickAmount, d.tickObjectSize, d.tickType, d.tickStack, d.tickKind].map((c) => Array.from({ length: d.tickCount }, (_, i) => c[i]!));

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  writeFileSync(FILE, buildAllocationTickTrace(SHAPE));
});

describe('a 100,000-sample session stores its stacks deduplicated', () => {
  it('one row per sample, one per distinct stack and frame; the same answers as the trace', async () => {
    const db = await Database.open(join(DIR, 'stacks.db'));
    try {
      const r = await importTrace(db, FILE);
      expect(r.status).toBe('complete');
      const n = async (t: string): Promise<number> => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE session_id = ?`, [r.sessionId]))!.n;
      expect((await db.get<{ n: number }>('SELECT SUM(n) AS n FROM alloc_ticks WHERE session_id = ?', [r.sessionId]))!.n).toBe(100_000);
      expect(await n('stacks')).toBe(50);
      // Every distinct return address once (stacks share some).
      const addresses = new Set(Array.from({ length: 50 }, (_, st) => Array.from({ length: 8 }, (_, f) => frameAddress(st, f, 40))).flat());
      expect(await n('stack_frames')).toBe(addresses.size);
      expect(await n('alloc_tick_types')).toBe(12);
      const stored = await loadStackData(db, r.sessionId);
      const file = (await analyzeTraceFile(FILE, { stacks: true })).stackEvents!;
      expect(allocationsByType(stored)).toEqual(allocationsByType(file));
      const names = new FrameNames(stored);
      // Sample k has stack 1 + k % 50, whose frame f lies in method (s * 7 + f * 3) % 40.
      expect(stackFrames(stored, names, stored.tickStack[123]!)).toEqual(Array.from({ length: 8 }, (_, f) => methodName(((123 % 50) * 7 + f * 3) % 40)));
      expect(stored.tickObjectSize[3]).toBe(90_000);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('allocation samples are stored deflated, and samples stored raw by an older GCScope still read', () => {
  it('every sample reads back exactly (times, amounts, sizes, types, stacks, kinds) from deflated chunks and from raw ones', async () => {
    const db = await Database.open(join(DIR, 'encodings.db'));
    try {
      const r = await importTrace(db, FILE);
      const chunks = await db.all<{ encoding: number; bytes: number; n: number }>(
        'SELECT encoding, length(data) AS bytes, n FROM alloc_ticks WHERE session_id = ?',
        [r.sessionId],
      );
      expect(chunks.length).toBeGreaterThan(0);
      for (const c of chunks) {
        expect(c.encoding).toBe(TICKS_DEFLATED);
        expect(c.bytes).toBeLessThan(c.n * 33);
      }
      const deflated = await loadStackData(db, r.sessionId);
      const file = (await analyzeTraceFile(FILE, { stacks: true })).stackEvents!;
      expect(deflated.tickCount).toBe(100_000);
      expect(columns(deflated)).toEqual(columns(file));
      // The same session as a database written before migration 8 holds it: raw columns, encoding 0.
      await db.run('DELETE FROM alloc_ticks WHERE session_id = ?', [r.sessionId]);
      const half = 40_000;
      const c = {
        time: file.tickTime,
        amount: file.tickAmount,
        objectSize: file.tickObjectSize,
        type: file.tickType,
        stack: file.tickStack,
        kind: file.tickKind,
      };
      const rest = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.slice(half, file.tickCount)])) as unknown as typeof c;
      await db.run('INSERT INTO alloc_ticks (session_id, chunk, n, data) VALUES (?, 0, ?, ?), (?, 1, ?, ?)', [
        r.sessionId,
        half,
        tickChunk(c, half),
        r.sessionId,
        file.tickCount - half,
        tickChunk(rest, file.tickCount - half),
      ]);
      expect((await db.all<{ encoding: number }>('SELECT encoding FROM alloc_ticks WHERE session_id = ?', [r.sessionId])).map((x) => x.encoding)).toEqual([
        TICKS_RAW,
        TICKS_RAW,
      ]);
      expect(columns(await loadStackData(db, r.sessionId))).toEqual(columns(file));
      // A chunk in an encoding from a newer GCScope is refused, not misread.
      await db.run('UPDATE alloc_ticks SET encoding = 7 WHERE session_id = ? AND chunk = 1', [r.sessionId]);
      await expect(loadStackData(db, r.sessionId)).rejects.toThrow(/encoding 7/);
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe('a whole-session report reads the samples summed per stack, type and kind', () => {
  it('as few entries as distinct (stack, type, kind), every sample counted, the same allocations as the trace read whole', async () => {
    const db = await Database.open(join(DIR, 'aggregate.db'));
    try {
      const r = await importTrace(db, FILE);
      const summed = await loadStackData(db, r.sessionId, { aggregate: true });
      const fromFile = (await analyzeTraceFile(FILE, { stacks: true, stackOptions: { aggregate: true } })).stackEvents!;
      const every = await loadStackData(db, r.sessionId);
      expect(every.tickCount).toBe(100_000);
      expect(summed.tickCount).toBe(fromFile.tickCount);
      expect(summed.tickCount).toBeLessThan(50 * 12 * 3 + 1);
      expect(Array.from(summed.tickSamples!).reduce((a, b) => a + b, 0)).toBe(100_000);
      expect(allocationsByType(summed)).toEqual(allocationsByType(every));
      expect(allocationsByType(summed)).toEqual(allocationsByType(fromFile));
      expect(columns(summed)).toEqual(columns(fromFile));
    } finally {
      await db.close();
    }
  }, 120_000);
});
