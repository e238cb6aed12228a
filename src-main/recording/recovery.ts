/**
 * Crash recovery: a session still in state 'recording' whose recorder process is gone was cut
 * off (GCScope or the machine stopped mid-recording). At the next start it is rebuilt from its raw
 * trace: the file is finalized (cut back to its last complete block + end marker) and re-imported
 * into the same session, which is then marked 'interrupted' with what was recovered.
 */
import { existsSync } from 'node:fs';
import { processExists } from '../diagnostics/discovery.js';
import type { Database } from '../store/db.js';
import { sessionsWithStatus, updateSession } from '../store/sessions.js';
import { importTrace } from './importer.js';
import { finalizeRawTrace } from './raw-trace.js';

export interface Recovered {
  sessionId: number;
  name: string;
  ok: boolean;
  message: string;
}

export async function recoverInterruptedSessions(db: Database): Promise<Recovered[]> {
  const out: Recovered[] = [];
  for (const s of await sessionsWithStatus(db, 'recording')) {
    if (s.recorderPid !== null && s.recorderPid !== process.pid && processExists(s.recorderPid)) continue; // still being written
    if (s.recorderPid === process.pid) continue;
    const path = s.tracePath;
    if (path === null || !existsSync(path)) {
      await updateSession(db, s.id, { status: 'failed', statusReason: `the recording was interrupted and its raw trace (${path ?? 'no file'}) is missing`, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: false, message: 'raw trace missing' });
      continue;
    }
    try {
      const fin = s.source === 'record' ? await finalizeRawTrace(path) : undefined;
      const r = await importTrace(db, path, { sessionId: s.id });
      const message =
        s.source === 'record'
          ? `GCScope stopped while recording; recovered ${r.gcCount} GCs from the raw trace${fin !== undefined && fin.droppedBytes > 0 ? ` (an incomplete last block of ${fin.droppedBytes} bytes was dropped)` : ''}`
          : `GCScope stopped while importing; imported again from ${path}`;
      await updateSession(db, s.id, { status: s.source === 'record' ? 'interrupted' : r.status, statusReason: message, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: true, message });
    } catch (e) {
      await updateSession(db, s.id, { status: 'failed', statusReason: `recovery failed: ${(e as Error).message}`, recorderPid: null });
      out.push({ sessionId: s.id, name: s.name, ok: false, message: (e as Error).message });
    }
  }
  return out;
}
