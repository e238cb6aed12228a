/**
 * A long stored session for the UI's benchmark and tests: the real workload-concurrent trace's
 * GCs repeated with shifted times, written as one imported session (id 1 of a new database).
 */
import { toGcRecord } from '../../src-main/gc/to-record.js';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { Database } from '../../src-main/store/db.js';
import { GcWriter } from '../../src-main/store/gc-store.js';
import { createSession, updateSession } from '../../src-main/store/sessions.js';
import { TRACES } from './fixtures.js';

export async function writeRepeatedSession(dbPath: string, n: number): Promise<void> {
  const db = await Database.open(dbPath);
  const a = await analyzeTraceFile(TRACES + 'workload-concurrent.nettrace.zip');
  const base = a.analyzer.gcs.map((g) => toGcRecord(g!));
  const span = base[base.length - 1]!.pauseStartRelativeMSec - base[0]!.pauseStartRelativeMSec + 5;
  const id = await createSession(db, { kind: 'gc', name: `${n.toLocaleString('en-US')} GCs`, source: 'import', status: 'complete' });
  const w = new GcWriter(db, id);
  for (let i = 0; i < n; i++) {
    const r = base[i % base.length]!;
    const shift = Math.floor(i / base.length) * span;
    w.add({ ...r, index: i, number: i + 1, pauseStartRelativeMSec: r.pauseStartRelativeMSec + shift, startRelativeMSec: r.startRelativeMSec + shift });
    if (i % 5000 === 4999) await w.flush();
  }
  await w.close();
  const end = base[0]!.pauseStartRelativeMSec + Math.ceil(n / base.length) * span;
  await updateSession(db, id, { firstEventMSec: base[0]!.pauseStartRelativeMSec, lastEventMSec: end, lastHeapStatsMSec: end });
  await db.close();
}
