/**
 * A session row's GC count, incomplete GCs, longest and total pause come from its GC rows. A
 * finished session's are read once per process and kept (opening a 100,000-GC session read them
 * six times over); these tests write through a second connection, as the recorder and import
 * workers do, and check the first one never shows stale figures.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { Database } from '../../src-main/store/db.js';
import { getGcRecords } from '../../src-main/store/gc-store.js';
import { loadViewColumns } from '../../src-main/store/gc-columns.js';
import { deleteSession, getSession, listSessions, updateSession } from '../../src-main/store/sessions.js';
import type { SessionInfo } from '../../src-main/shared/session.js';
import { heapCountSpan } from '../../src-main/shared/server-gc.js';
import { sessionGcModeText } from '../../src-main/shared/session-text.js';
import { PROBLEM_TRACES, TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'session-aggregates');
let app: Database;
let writer: Database;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  app = await Database.open(join(DIR, 'a.db'));
  writer = await Database.open(join(DIR, 'a.db'));
});
afterAll(async () => {
  await app.close();
  await writer.close();
});

/** The figures as the GC rows give them. */
async function fromRows(id: number): Promise<Pick<SessionInfo, 'gcCount' | 'incompleteGCs' | 'maxPauseMSec' | 'totalPauseMSec'>> {
  const rows = await getGcRecords(app, id);
  const done = rows.filter((r) => r.isComplete);
  return {
    gcCount: rows.length,
    incompleteGCs: rows.length - done.length,
    maxPauseMSec: done.length > 0 ? Math.max(...done.map((r) => r.pauseDurationMSec)) : null,
    totalPauseMSec: done.reduce((a, r) => a + r.pauseDurationMSec, 0),
  };
}

const figures = (s: SessionInfo) => ({ gcCount: s.gcCount, incompleteGCs: s.incompleteGCs, maxPauseMSec: s.maxPauseMSec, totalPauseMSec: s.totalPauseMSec });

describe("a session's GC figures", () => {
  it('the Sessions list and the session view show the GC rows\u2019 count and pauses, also read again', async () => {
    const { sessionId } = await importTrace(writer, TRACES + PROBLEM_TRACES[1]!);
    const want = await fromRows(sessionId);
    expect(want.gcCount).toBeGreaterThan(10);
    expect(figures(await getSession(app, sessionId))).toEqual({ ...want, totalPauseMSec: expect.closeTo(want.totalPauseMSec, 6) });
    expect(figures(await getSession(app, sessionId))).toEqual(figures(await getSession(app, sessionId)));
    expect(figures((await listSessions(app)).find((s) => s.id === sessionId)!)).toEqual(figures(await getSession(app, sessionId)));
  });

  it('a re-import by another connection shows the new trace\u2019s GCs, not the old count', async () => {
    const { sessionId } = await importTrace(writer, TRACES + PROBLEM_TRACES[3]!);
    const before = figures(await getSession(app, sessionId));
    await importTrace(writer, TRACES + PROBLEM_TRACES[0]!, { sessionId });
    const want = await fromRows(sessionId);
    expect(want.gcCount).not.toBe(before.gcCount);
    expect(figures(await getSession(app, sessionId))).toEqual({ ...want, totalPauseMSec: expect.closeTo(want.totalPauseMSec, 6) });
  });

  it('while recording, each GC written by the recorder counts at once; the finished session keeps the last count', async () => {
    const { sessionId } = await importTrace(writer, TRACES + PROBLEM_TRACES[2]!);
    const full = (await getSession(app, sessionId)).gcCount;
    await updateSession(writer, sessionId, { status: 'recording' });
    expect((await getSession(app, sessionId)).gcCount).toBe(full);
    await writer.run('DELETE FROM gcs WHERE session_id = ? AND idx >= 5', [sessionId]);
    expect((await getSession(app, sessionId)).gcCount).toBe(5);
    await writer.run('DELETE FROM gcs WHERE session_id = ? AND idx >= 3', [sessionId]);
    expect((await listSessions(app)).find((s) => s.id === sessionId)!.gcCount).toBe(3);
    await updateSession(writer, sessionId, { status: 'complete' });
    expect(figures(await getSession(app, sessionId))).toEqual(await fromRows(sessionId));
  });

  it('a deleted session is gone, and a new one shows its own figures', async () => {
    const { sessionId } = await importTrace(writer, TRACES + PROBLEM_TRACES[4]!);
    await getSession(app, sessionId);
    await deleteSession(app, sessionId);
    await expect(getSession(app, sessionId)).rejects.toThrow(/no session/);
    const next = await importTrace(writer, TRACES + PROBLEM_TRACES[5]!);
    expect(figures(await getSession(app, next.sessionId))).toEqual({
      ...(await fromRows(next.sessionId)),
      totalPauseMSec: expect.closeTo((await fromRows(next.sessionId)).totalPauseMSec, 6),
    });
  });

  it('a DATAS session carries the fewest and the most heaps its GCs had, and the Sessions list says the range ("1–2 heaps"), not the largest count alone', async () => {
    const { sessionId } = await importTrace(writer, TRACES + 'workload-net10-datas-phases.nettrace.zip');
    const rows = await getGcRecords(app, sessionId);
    const want = heapCountSpan(rows.map((r) => r.heapCount ?? 0));
    expect(want).toEqual({ min: 1, max: 2 });
    const listed = (await listSessions(app)).find((s) => s.id === sessionId)!;
    expect(listed.gcHeapCounts).toEqual(want);
    expect((await getSession(app, sessionId)).gcHeapCounts).toEqual(want);
    expect(sessionGcModeText(listed)).toBe('server (DATAS), concurrent · 1–2 heaps');
    // A plain Server GC session keeps its one count.
    const server = await importTrace(writer, TRACES + 'workload-net8-server.nettrace.zip');
    const plain = await getSession(app, server.sessionId);
    expect(plain.gcHeapCounts).toEqual({ min: 2, max: 2 });
    expect(sessionGcModeText(plain)).toBe('server, concurrent · 2 heaps');
  });

  it("a finished Server GC session's heap range comes from its column snapshot when it has one (no scan of 100,000 rows), the same as its rows'", async () => {
    const { sessionId } = await importTrace(writer, TRACES + 'workload-net10-datas-phases.nettrace.zip', { force: true });
    const { gcCount } = await getSession(writer, sessionId);
    // Opening the session writes its snapshot (at import already for 5,000 GCs and more).
    await (
      await loadViewColumns(writer, sessionId, { gcCount, store: true })
    ).stored;
    const fresh = await Database.open(join(DIR, 'a.db'));
    try {
      expect((await getSession(fresh, sessionId)).gcHeapCounts).toEqual({ min: 1, max: 2 });
      // Rows changed behind the snapshot's back (same count): a fresh reader still answers from the snapshot.
      await writer.run('UPDATE gcs SET heap_count = 7 WHERE session_id = ?', [sessionId]);
      const other = await Database.open(join(DIR, 'a.db'));
      try {
        expect((await getSession(other, sessionId)).gcHeapCounts).toEqual({ min: 1, max: 2 });
        await writer.run('DELETE FROM gc_columns WHERE session_id = ?', [sessionId]);
        await updateSession(writer, sessionId, { status: 'complete' });
        expect((await getSession(other, sessionId)).gcHeapCounts).toEqual({ min: 7, max: 7 });
      } finally {
        await other.close();
      }
    } finally {
      await fresh.close();
    }
  });
});
