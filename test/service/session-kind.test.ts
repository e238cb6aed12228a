/**
 * A session of a kind this version does not know (written by a newer GCScope) beside GC
 * recordings: listed with its kind; every GC-only answer refuses it with a typed error
 * ('wrong-session-kind'), never an empty GC view; the GC caches never answer for it; renaming and
 * deleting it work; recovery leaves it alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { toApiError } from '../../src-main/service/errors.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { SessionViews } from '../../src-main/service/session-views.js';
import { SessionKindError } from '../../src-main/shared/session.js';
import { Database } from '../../src-main/store/db.js';
import { createSession, getSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'service-session-kind');
const dbPath = join(DIR, 'kinds.db');
let svc: ProfilerService;
let gc = 0;
let other = 0;
let stranded = 0;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  gc = (await importTrace(db, `${TRACES}workload-concurrent.nettrace.zip`)).sessionId;
  other = await createSession(db, {
    kind: 'something-new',
    name: 'from a newer GCScope',
    source: 'import',
    status: 'complete',
    tracePath: `${TRACES}workload-concurrent.nettrace.zip`,
  });
  // Left 'recording' by a recorder that is gone: recovery would re-import a GC trace into it.
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  stranded = await createSession(db, {
    kind: 'something-new',
    name: 'cut off',
    source: 'record',
    status: 'recording',
    recorderPid: dead,
    tracePath: `${TRACES}workload-concurrent.nettrace.zip`,
  });
  await db.close();
  svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
});

afterAll(async () => {
  await svc?.close();
});

/** What the app gets back from a call: its value, or the error as it crosses to the renderer. */
async function answer(p: Promise<unknown>): Promise<{ code: string; message: string } | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    expect(e).toBeInstanceOf(SessionKindError);
    return toApiError(e);
  }
}

describe('a session of a kind this version does not know', () => {
  it('is listed with its kind, beside the GC recordings', async () => {
    const list = await svc.listSessions();
    expect(list.find((s) => s.id === gc)?.kind).toBe('gc');
    expect(list.find((s) => s.id === other)).toMatchObject({ kind: 'something-new', gcCount: 0 });
  });

  it('every GC-only call refuses it with a typed error that names its kind', async () => {
    const full = { fromMSec: null, toMSec: null };
    const calls: Record<string, () => Promise<unknown>> = {
      getSessionData: () => svc.getSessionData(other),
      getRangeSummary: () => svc.getRangeSummary(other, 0, 1e9),
      getFindings: () => svc.getFindings(other, null, null),
      getTableExtras: () => svc.getTableExtras(other),
      getGcDetail: () => svc.getGcDetail(other, 0),
      getStackAllocations: () => svc.getStackAllocations(other, { ...full, direction: 'bottom-up', kind: null, typeName: null, search: null }),
      getGcWho: () => svc.getGcWho(other, 0),
      getServerGc: () => svc.getServerGc(other),
      getHeapBalance: () => svc.getHeapBalance(other, 0),
      compareSessions: () => svc.compareSessions({ sessionId: gc, ...full }, { sessionId: other, ...full }, { includeWarmup: false }),
      'exportSession csv': () => svc.exportSession(other, 'csv'),
      'exportSession nettrace': () => svc.exportSession(other, 'nettrace'),
      reimportSession: () => svc.reimportSession(other),
    };
    for (const [name, call] of Object.entries(calls)) {
      const a = await answer(call());
      expect(a, name).toEqual({
        code: 'wrong-session-kind',
        message: expect.stringMatching(
          /^Session \d+ is of kind "something-new", which this version of GCScope does not know .*no GCs.*\. Update GCScope to open it\.$/,
        ),
      });
    }
  });

  it('can still be renamed and deleted', async () => {
    const id = await svc.db
      .run(
        "INSERT INTO sessions (kind, name, source, status, created_at, updated_at) VALUES ('something-new', 'x', 'import', 'complete', '2026-01-01', '2026-01-01')",
      )
      .then((r) => r.lastID);
    expect((await svc.updateSession(id, { name: 'renamed' })).name).toBe('renamed');
    await svc.deleteSession(id);
    expect((await svc.listSessions()).some((s) => s.id === id)).toBe(false);
  });

  it('is left to the GCScope that knows it by crash recovery', async () => {
    // ProfilerService.create ran the recovery: a GC session would now be interrupted or failed.
    const s = await getSession(svc.db, stranded);
    expect(s).toMatchObject({ kind: 'something-new', status: 'recording' });
  });

  it('the GC recordings beside it answer as before', async () => {
    const d = await svc.getSessionData(gc);
    expect(d.session.kind).toBe('gc');
    expect(d.series.length).toBe(38);
    expect((await svc.getRangeSummary(gc, d.startMSec, d.endMSec)).gcCount).toBe(38);
  });
});

describe('GC caches respect the kind', () => {
  it('a session whose row turns out to be of another kind gets no cached GC answer', async () => {
    const db = await Database.open(join(DIR, 'cache.db'));
    try {
      const id = (await importTrace(db, `${TRACES}workload-concurrent.nettrace.zip`)).sessionId;
      const views = new SessionViews(
        db,
        () => false,
        () => undefined,
      );
      // Columns, whole-session summary and findings cached for the GC session…
      const d = await views.getSessionData(id);
      await views.getRangeSummary(id, d.startMSec, d.endMSec);
      await views.getFindings(id, null, null, {});
      // …then the same id with the same GC count and update time is of another kind (an id
      // reused by a newer GCScope's session within the same millisecond; the row rewritten).
      await db.run("UPDATE sessions SET kind = 'something-new' WHERE id = ?", [id]);
      await expect(views.getSessionData(id)).rejects.toBeInstanceOf(SessionKindError);
      await expect(views.getRangeSummary(id, d.startMSec, d.endMSec)).rejects.toBeInstanceOf(SessionKindError);
      await expect(views.getFindings(id, null, null, {})).rejects.toBeInstanceOf(SessionKindError);
      await expect(views.viewColumns(await views.session(id))).rejects.toBeInstanceOf(SessionKindError);
      await views.settled();
    } finally {
      await db.close();
    }
  });
});
