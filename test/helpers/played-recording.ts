/**
 * A committed trace played through the pipeline a live recording uses (SessionPipeline), into an
 * in-memory database: each GC as the recorder would send it (again when its values change:
 * onGCUpdated), and the stored session's view columns at the end (as the pipeline wrote them;
 * the column snapshot is written from these).
 */
import { SessionPipeline } from '../../src-main/recording/session-pipeline.js';
import { pumpTraceFile } from '../../src-main/recording/trace-file.js';
import type { GcColumns, GcRecord } from '../../src-main/shared/gc-column-registry.js';
import { Database } from '../../src-main/store/db.js';
import { createSession } from '../../src-main/store/sessions.js';
import { TRACES } from './fixtures.js';

export async function playRecording(trace: string): Promise<{ sent: { r: GcRecord; again: boolean }[]; columns: GcColumns; gcCount: number }> {
  const db = await Database.open(':memory:');
  const id = await createSession(db, { kind: 'gc', name: 't', source: 'record', status: 'recording' });
  const sent: { r: GcRecord; again: boolean }[] = [];
  const pipeline = new SessionPipeline(
    db,
    id,
    { onGC: (r) => sent.push({ r, again: false }), onGCUpdated: (r) => sent.push({ r, again: true }) },
    { reuseRecords: true },
  );
  await pumpTraceFile(TRACES + trace, pipeline.reader, { onProgress: () => void pipeline.flush() });
  const summary = await pipeline.finish();
  const columns = pipeline.columns();
  await db.close();
  return { sent, columns, gcCount: summary.gcCount };
}
