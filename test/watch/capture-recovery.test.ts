/**
 * `gcscope watch` killed mid-capture (issue 40): the capture's row said 'writing' forever. Recovery
 * settles it — complete (and imported) when its file is a readable trace, cut back to its last
 * complete block as a raw trace is; failed, with the reason in the watch session's, when it is
 * not. The state a kill -9 leaves is built here: a watch session 'recording' by a dead pid with a
 * capture 'writing' (test/watch/watch-live.test.ts kills a real watch).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverInterruptedSessions } from '../../src-main/recording/recovery.js';
import { addCapture, getCapture } from '../../src-main/store/captures.js';
import { Database } from '../../src-main/store/db.js';
import { checkIntegrity } from '../../src-main/store/integrity.js';
import { createSession, getSession, listSessions } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

let dir: string;
/** A whole trace (nettrace V5), unzipped. */
let trace: Uint8Array;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-capture-recovery-'));
  const files = unzipSync(readFileSync(join(TRACES, 'workload-server.nettrace.zip')));
  trace = Object.entries(files).find(([n]) => n.endsWith('.nettrace'))![1];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

/** A watch session cut off by kill -9 with one capture 'writing' at `path`. */
async function cutOffWatch(name: string, path: string): Promise<{ db: Database; watchId: number; captureId: number }> {
  const db = await Database.open(join(dir, `${name}.db`));
  const watchId = await createSession(db, {
    kind: 'gc',
    name: 'watch: GcWorkload (pid 4242)',
    source: 'record',
    status: 'recording',
    tags: ['watch'],
    recorderPid: deadPid(),
    processName: 'GcWorkload',
  });
  const captureId = await addCapture(db, { sessionId: watchId, trigger: 'induced', detail: 'induced GC', gcNumber: 7, gcStartMSec: 100, gcEndMSec: 110, path });
  return { db, watchId, captureId };
}

describe('a watch killed mid-capture is settled by recovery', () => {
  it('a capture file cut mid-block: cut back to its last complete block, imported, complete', async () => {
    const path = join(dir, 'capture-cut.nettrace');
    // Ends 1000 bytes short: mid-block, without the end-of-stream tag.
    writeFileSync(path, trace.subarray(0, trace.length - 1000));
    const { db, watchId, captureId } = await cutOffWatch('cut', path);
    try {
      const rec = await recoverInterruptedSessions(db);
      expect(rec.map((r) => r.ok)).toEqual([true]);
      expect((await getSession(db, watchId)).status).toBe('interrupted');
      const c = (await getCapture(db, captureId))!;
      expect(c.status).toBe('complete');
      expect(c.bytes).toBe(statSync(path).size);
      expect(c.bytes).toBeLessThan(trace.length - 1000);
      const s = await getSession(db, c.captureSessionId!);
      expect(['complete', 'incomplete']).toContain(s.status);
      expect(s.tags).toEqual(['capture']);
      expect(s.processName).toBe('GcWorkload');
      expect(s.gcCount).toBeGreaterThan(0);
      expect(await checkIntegrity(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('a capture whose import was cut off too: imported again into that session (no second one), which recovery then leaves alone', async () => {
    const path = join(dir, 'capture-importing.nettrace');
    writeFileSync(path, trace);
    const { db, captureId } = await cutOffWatch('importing', path);
    try {
      const importId = await createSession(db, {
        kind: 'gc',
        name: 'capture: induced at GC #7',
        source: 'import',
        status: 'recording',
        tracePath: path,
        recorderPid: deadPid(),
      });
      await recoverInterruptedSessions(db);
      const c = (await getCapture(db, captureId))!;
      expect(c.status).toBe('complete');
      expect(c.captureSessionId).toBe(importId);
      expect((await getSession(db, importId)).status).toBe('complete');
      expect((await listSessions(db)).length).toBe(2);
      expect((await listSessions(db)).filter((s) => s.status === 'recording')).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('a capture killed in its post-roll (no file) or whose file is not a trace: failed, and the watch session says why', async () => {
    const missing = join(dir, 'capture-never-written.nettrace');
    const { db, watchId, captureId } = await cutOffWatch('missing', missing);
    try {
      const garbage = join(dir, 'capture-garbage.nettrace');
      writeFileSync(garbage, trace.subarray(0, 10));
      const second = await addCapture(db, {
        sessionId: watchId,
        trigger: 'pause>1ms',
        detail: '',
        gcNumber: 9,
        gcStartMSec: 200,
        gcEndMSec: 210,
        path: garbage,
      });
      await recoverInterruptedSessions(db);
      expect((await getCapture(db, captureId))!.status).toBe('failed');
      expect((await getCapture(db, second))!.status).toBe('failed');
      const w = await getSession(db, watchId);
      expect(w.status).toBe('interrupted');
      expect(w.statusReason).toMatch(/capture \d+ \(GC #7, induced\) is lost: GCScope stopped before its file was written/);
      expect(w.statusReason).toMatch(/capture \d+ \(GC #9, pause>1ms\) is lost: /);
      expect(await checkIntegrity(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
