/**
 * Opening a session asks the service for its data, its summary and its findings at once. If each
 * request read the session's columns again, opening a 100,000-GC session would read them three
 * times over (bench:ui's time to first chart).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { SessionViews } from '../../src-main/service/session-views.js';
import { Database } from '../../src-main/store/db.js';
import { updateSession } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'session-views');
let db: Database;
let id = 0;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(join(DIR, 'v.db'));
  id = (await importTrace(db, `${TRACES}workload-concurrent.nettrace.zip`)).sessionId;
});

afterAll(async () => {
  await db?.close();
});

describe('session views', () => {
  it("data, summary and findings asked together read the session's columns once, with the same answers as asked one by one", async () => {
    const reads: string[] = [];
    const all = db.all.bind(db);
    db.all = (async (sql: string, params?: unknown[]) => {
      if (/FROM gc_columns|FROM gcs\b/.test(sql)) reads.push(sql);
      return all(sql, params as never);
    }) as typeof db.all;
    const together = new SessionViews(
      db,
      () => false,
      () => undefined,
    );
    const [data, summary, findings] = await Promise.all([
      together.getSessionData(id),
      together.getRangeSummary(id, -Infinity, Infinity),
      together.getFindings(id, null, null, {}),
    ]);
    const columnReads = reads.filter((q) => /FROM gc_columns/.test(q)).length;
    expect(columnReads).toBe(1);

    db.all = all;
    const apart = new SessionViews(
      db,
      () => false,
      () => undefined,
    );
    expect((await apart.getSessionData(id)).series).toEqual(data.series);
    expect(await apart.getRangeSummary(id, -Infinity, Infinity)).toEqual(summary);
    expect(await apart.getFindings(id, null, null, {})).toEqual(findings);
    await together.settled();
    await apart.settled();
  });

  it("a finished session's findings are diagnosed once per question (a reopen does not run a second diagnosis), again when settings, range or the session change", async () => {
    const views = new SessionViews(
      db,
      () => false,
      () => undefined,
    );
    const runs: string[] = [];
    const diagnose = views.analyses.diagnose.bind(views.analyses);
    views.analyses.diagnose = (job) => (runs.push(JSON.stringify([job.range ?? null, job.overrides])), diagnose(job));
    const [a, b] = await Promise.all([views.getFindings(id, null, null, {}), views.getFindings(id, null, null, {})]);
    expect(runs).toHaveLength(1);
    expect(b).toEqual(a);
    expect(await views.getFindings(id, null, null, {})).toEqual(a);
    expect(runs).toHaveLength(1);
    const data = await views.getSessionData(id);
    const mid = data.series.time[Math.floor(data.series.length / 2)]!;
    await views.getFindings(id, data.startMSec, mid, {});
    await views.getFindings(id, null, null, { 'high-pause-time.windowSec': 30 });
    expect(runs).toHaveLength(3);
    // Renamed (its row updated): asked again, diagnosed again, with the same findings.
    await updateSession(db, id, { name: 'renamed' });
    expect(await views.getFindings(id, null, null, {})).toEqual(a);
    expect(runs).toHaveLength(4);
    // Forgotten (deleted or re-imported): diagnosed again.
    views.forget(id);
    await views.getFindings(id, null, null, {});
    expect(runs).toHaveLength(5);
    await views.settled();
  });
});
