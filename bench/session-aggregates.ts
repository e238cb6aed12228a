/**
 * What a Sessions list row costs to read: `npx tsx bench/session-aggregates.ts`. Imports the
 * DATAS fixture (1,109 GCs, 1–2 heaps), copies its GC rows until the session holds ~100,000, and
 * times getSession on a fresh connection (the per-process aggregate cache empty) three ways: a
 * Server GC session whose heap range is scanned from its rows, the same answered from its column
 * snapshot (written at import for 5,000 GCs and more), and as a workstation session (no heap range
 * read). Median of five; `uptime`'s load is printed so a figure taken on a busy machine says so.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { importTrace } from '../src-main/recording/importer.js';
import { Database } from '../src-main/store/db.js';
import { loadViewColumns } from '../src-main/store/gc-columns.js';
import { getSession } from '../src-main/store/sessions.js';
import { TRACES } from '../test/helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'bench-session-aggregates');
rmSync(DIR, { recursive: true, force: true });
mkdirSync(DIR, { recursive: true });
const file = join(DIR, 'bench.db');
const db = await Database.open(file);
const { sessionId } = await importTrace(db, TRACES + 'workload-net10-datas-phases.nettrace.zip');
const cols = (await db.all<{ name: string }>("SELECT name FROM pragma_table_info('gcs')")).map((c) => c.name).filter((c) => c !== 'idx');
for (let k = 1; k < 91; k++) {
  await db.run(`INSERT INTO gcs (idx, ${cols.join(', ')}) SELECT idx + ${k * 2000}, ${cols.join(', ')} FROM gcs WHERE session_id = ? AND idx < 2000`, [
    sessionId,
  ]);
}

async function time(label: string): Promise<void> {
  const ms: number[] = [];
  let heaps = '';
  for (let i = 0; i < 5; i++) {
    const c = await Database.open(file);
    const t = performance.now();
    const s = await getSession(c, sessionId);
    ms.push(performance.now() - t);
    heaps = `${s.gcCount.toLocaleString('en-US')} GCs, heaps ${JSON.stringify(s.gcHeapCounts)}`;
    await c.close();
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(44)} ${ms[2]!.toFixed(1).padStart(6)} ms  (${heaps})`);
}

console.log(`load average ${loadavg()[0]!.toFixed(1)} on this machine`);
await time('server, heap range scanned from the rows');
const { gcCount } = await getSession(db, sessionId);
await (
  await loadViewColumns(db, sessionId, { gcCount, store: true })
).stored;
await time('server, heap range from the column snapshot');
await db.run("UPDATE sessions SET gc_mode = 'workstation' WHERE id = ?", [sessionId]);
await time('workstation (no heap range read)');
await db.close();
