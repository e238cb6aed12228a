/**
 * Call stacks and allocation samples at scale (issue 14): `npx tsx bench/allocations.ts [TICKS]`.
 * Imports a 100,000-tick session (synthetic NetTrace V4 stream from test/helpers/alloc-trace.ts:
 * AllocationTick V4 with 8-frame stacks over 50 distinct stacks, 12 types) into a fresh database
 * and prints:
 *   - the import time, with and without stack decoding (a reader that skips stack blocks);
 *   - bytes per tick the store spends on samples, stacks and frames (database size with the
 *     session's stack tables, minus the size with them emptied, after VACUUM each time);
 *   - the time to open the allocations view of the whole session (service/stack-views.ts: the
 *     first answer reads the session from the database; the second is served from memory) and a
 *     GC's "who caused it".
 * Best of three where it is cheap; `load average` is printed, since a busy machine slows every figure.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { importTrace } from '../src-main/recording/importer.js';
import { analyzeTraceFile } from '../src-main/recording/analyze-file.js';
import { StackViews } from '../src-main/service/stack-views.js';
import { Database } from '../src-main/store/db.js';
import { STACK_TABLES } from '../src-main/store/stack-store.js';
import { buildAllocationTickTrace } from '../test/helpers/alloc-trace.js';

const ticks = Number(process.argv[2] ?? 100_000);
const DIR = join(process.cwd(), 'test-output', 'bench-allocations');
rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const file = join(DIR, `ticks-${ticks}.nettrace`);
writeFileSync(file, buildAllocationTickTrace({ ticks, stacks: 50, types: 12, methods: 40 }));
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`trace: ${ticks.toLocaleString('en-US')} AllocationTicks, ${statSync(file).size.toLocaleString('en-US')} bytes`);

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

// In-memory analysis with and without stacks (what `report FILE` / `allocs FILE` cost).
let withStacks = Infinity;
let without = Infinity;
for (let k = 0; k < 3; k++) {
  without = Math.min(without, (await timed(() => analyzeTraceFile(file)))[1]);
  withStacks = Math.min(withStacks, (await timed(() => analyzeTraceFile(file, { stacks: true })))[1]);
}
console.log(`analyse in memory: ${without.toFixed(0)} ms without stacks, ${withStacks.toFixed(0)} ms with stacks and samples collected`);

const dbPath = join(DIR, 'bench.db');
const db = await Database.open(dbPath);
const [imp, importMs] = await timed(() => importTrace(db, file));
console.log(`import into SQLite: ${importMs.toFixed(0)} ms`);
const size = async (): Promise<number> => {
  await db.exec('VACUUM');
  const p = await db.get<{ n: number }>('PRAGMA page_count');
  const s = await db.get<{ n: number }>('PRAGMA page_size');
  return (p as unknown as { page_count: number }).page_count * (s as unknown as { page_size: number }).page_size;
};
const views = new StackViews(db, () => false);
const q = { fromMSec: null, toMSec: null, direction: 'bottom-up' as const, kind: null, typeName: null, search: null };
const [first, coldMs] = await timed(() => views.getStackAllocations(imp.sessionId, q));
let warm = Infinity;
for (let k = 0; k < 3; k++)
  warm = Math.min(warm, (await timed(() => views.getStackAllocations(imp.sessionId, { ...q, direction: k % 2 === 0 ? 'top-down' : 'bottom-up' })))[1]);
console.log(
  `allocations view, whole session (${first.summary.ticks.toLocaleString('en-US')} samples): ${coldMs.toFixed(0)} ms first (read from the database), ${warm.toFixed(0)} ms after (in memory)`,
);
const stacksCount = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stacks WHERE session_id = ?', [imp.sessionId]))!.n;
const frames = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM stack_frames WHERE session_id = ?', [imp.sessionId]))!.n;
const full = await size();
for (const t of STACK_TABLES) await db.run(`DELETE FROM ${t} WHERE session_id = ?`, [imp.sessionId]);
const bare = await size();
console.log(
  `store: ${stacksCount} stacks, ${frames} frames kept once; ${((full - bare) / ticks).toFixed(1)} bytes per tick for samples + stacks + frames (database ${full.toLocaleString('en-US')} → ${bare.toLocaleString('en-US')} bytes without them)`,
);
await db.close();
