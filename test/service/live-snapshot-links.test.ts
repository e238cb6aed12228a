/**
 * The link between a recording and the snapshots taken while it ran is stored (migration 14), so
 * a recording reviewed later shows the same marks: a mark whose GC the recording had not received
 * yet gets its time from the stored GCs when the recording is opened again, and keeps it; deleting
 * the snapshot removes its mark. Real SQLite.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { heapSnapshotsOfRecording, linkHeapSnapshot, saveHeapSnapshot } from '../../src-main/store/heap-snapshots.js';
import { createSession, deleteSession } from '../../src-main/store/sessions.js';
import { LiveSnapshots } from '../../src-main/service/live-snapshots.js';
import { HeapViews } from '../../src-main/service/heap-views.js';
import { columnsFromRecords, type GcColumns } from '../../src-main/shared/gc-column-registry.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { reportInputFromSession } from '../../src-main/recording/report-source.js';
import { reportDiagnosis } from '../../src-main/report/model.js';
import { FIXTURES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'live-snapshot-links');
let db: Database;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(join(DIR, 'links.db'));
});
afterAll(async () => {
  await db?.close();
});

async function snapshot(name: string, pid: number): Promise<number> {
  return saveHeapSnapshot(db, {
    name,
    source: 'record',
    file: join(DIR, `${name}.gcdump`),
    objects: 10,
    bytes: 1000,
    references: 9,
    gcNumber: 12,
    untypedObjects: 0,
    walkMs: 5,
    heapAtLastGc: null,
    processId: pid,
    processName: 'app',
    commandLine: null,
    runtimeVersion: '10.0.12',
    os: 'Linux',
    arch: 'x64',
    takenAtUtc: new Date().toISOString(),
  });
}

/** Stored columns with GC #12 at 4,200 ms (what viewColumns gives a reviewed recording). */
function storedColumns(): GcColumns {
  const c = columnsFromRecords([]);
  return { ...c, number: Float64Array.of(11, 12), time: Float64Array.of(3000, 4200), complete: Float64Array.of(1, 1), heapAfter: Float64Array.of(5, 6) };
}

describe('snapshots linked to a recording', () => {
  it('a recording reviewed later shows its snapshot at the induced GC, the time found from its GC number and then kept', async () => {
    const rec = await createSession(db, { kind: 'gc', name: 'recording', source: 'record', status: 'complete', processId: 41 });
    const snap = await snapshot('first', 41);
    await linkHeapSnapshot(db, { snapshotSessionId: snap, recordingSessionId: rec, gcNumber: 12, atMSec: null });
    let asked = 0;
    const live = new LiveSnapshots(db, new HeapViews(db), {
      recordingPid: () => undefined,
      liveColumns: () => undefined,
      storedColumns: async () => {
        asked++;
        return storedColumns();
      },
    });
    const marks = await live.marks(rec);
    expect(marks).toEqual([expect.objectContaining({ snapshotSessionId: snap, name: 'first', gcNumber: 12, atMSec: 4200, objects: 10, bytes: 1000 })]);
    // Kept: the next read does not look at the GCs again.
    expect((await heapSnapshotsOfRecording(db, rec))[0]!.atMSec).toBe(4200);
    await live.marks(rec);
    expect(asked).toBe(1);
  });

  it('a snapshot from a recording that is not running is refused in words the user can act on', async () => {
    const live = new LiveSnapshots(db, new HeapViews(db), {
      recordingPid: () => undefined,
      liveColumns: () => undefined,
      storedColumns: async () => storedColumns(),
    });
    await expect(live.take(999, null)).rejects.toMatchObject({
      code: 'not-recording',
      message: expect.stringMatching(/Snapshot on the process in the home list/),
    });
  });

  it('the heap size said before the pause is the live recording’s last GC', async () => {
    const live = new LiveSnapshots(db, new HeapViews(db), {
      recordingPid: () => 41,
      liveColumns: () => storedColumns(),
      storedColumns: async () => storedColumns(),
    });
    expect(live.heapAtLastGc(3)).toBe(6_000_000);
  });

  it('deleting the snapshot removes its mark from the recording', async () => {
    const rec = await createSession(db, { kind: 'gc', name: 'recording 2', source: 'record', status: 'complete', processId: 42 });
    const snap = await snapshot('second', 42);
    await linkHeapSnapshot(db, { snapshotSessionId: snap, recordingSessionId: rec, gcNumber: 12, atMSec: 10 });
    expect(await heapSnapshotsOfRecording(db, rec)).toHaveLength(1);
    await deleteSession(db, snap);
    expect(await heapSnapshotsOfRecording(db, rec)).toHaveLength(0);
  });
});

describe("a recording's findings and its own snapshots' GCs", () => {
  it('gcscope diagnose --session leaves the gen2 GC a snapshot induced out of the induced-GCs finding, and says so', async () => {
    // A real recording of a GC.Collect loop; pretend GCScope's snapshot made its first induced GC.
    const imported = await importTrace(db, `${FIXTURES}traces/problem-induced-gcs.nettrace.zip`);
    const before = await reportInputFromSession(db, imported.sessionId);
    const d0 = reportDiagnosis(before.src, columnsFromRecords(before.gcs));
    const f0 = d0.findings.find((f) => f.id === 'induced-gcs')!;
    const first = f0.evidence.gcs[0]!;
    const snap = await snapshot('during-recording', 77);
    await linkHeapSnapshot(db, { snapshotSessionId: snap, recordingSessionId: imported.sessionId, gcNumber: first, atMSec: null });
    const after = await reportInputFromSession(db, imported.sessionId);
    const d1 = reportDiagnosis(after.src, columnsFromRecords(after.gcs));
    const f1 = d1.findings.find((f) => f.id === 'induced-gcs')!;
    expect(f1.evidence.gcs).toEqual(f0.evidence.gcs.slice(1));
    expect(f1.explanation).toContain("1 other induced GC in view was GCScope's own heap snapshot and is not counted here.");
  });
});
