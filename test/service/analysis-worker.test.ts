/**
 * The findings and comparisons computed in the analysis worker thread (dist/analysis-worker.mjs, what the app and
 * `gcscope serve` use) are exactly the ones computed in the service's own thread, for a whole
 * session, a range, a changed threshold and a recording's growing columns; bad thresholds are
 * refused before anything is sent.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../src-main/diagnosis/diagnose.js';
import { diagnosisFacts } from '../../src-main/diagnosis/facts.js';
import { DiagnosisSettingsError } from '../../src-main/diagnosis/settings.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { AnalysisRunner } from '../../src-main/service/analysis-runner.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import type { GcColumns } from '../../src-main/shared/gc-column-registry.js';
import { Database } from '../../src-main/store/db.js';
import { loadViewColumns } from '../../src-main/store/gc-columns.js';
import { getSession } from '../../src-main/store/sessions.js';
import { getPauseIntervals, getRequestSpans } from '../../src-main/store/request-store.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'analysis-worker');
const dbPath = join(DIR, 'd.db');
const WORKER = join(process.cwd(), 'dist', 'analysis-worker.mjs');
const TRACE = 'workload-net9-workstation.nettrace.zip';
const SERVER = 'workload-net8-server.nettrace.zip';
let id = 0;
let inThread: ProfilerService;
let inWorker: ProfilerService;

beforeAll(async () => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run node scripts/build.mjs (npm test builds it first)`);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  id = (await importTrace(db, TRACES + TRACE)).sessionId;
  await db.close();
  const opts = { dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser' as const, version: 'test' };
  inThread = await ProfilerService.create(opts);
  inWorker = await ProfilerService.create({ ...opts, analysisWorkerScript: WORKER });
});

afterAll(async () => {
  await inWorker?.close();
  await inThread?.close();
});

describe('findings and comparisons in the analysis worker', () => {
  it('the Findings panel shows the same findings whether the diagnosis ran in the worker or not: whole session, then ranges', async () => {
    const whole = await inWorker.getFindings(id, null, null);
    expect(whole.findings.length).toBeGreaterThan(0);
    expect(whole).toEqual(await inThread.getFindings(id, null, null));
    // Ranges re-use the columns the worker holds: only the range and facts travel.
    const t = whole.range;
    const mid = (t.startMSec! + t.endMSec!) / 2;
    for (const [a, b] of [
      [t.startMSec!, mid],
      [mid, t.endMSec!],
    ] as const)
      expect(await inWorker.getFindings(id, a, b)).toEqual(await inThread.getFindings(id, a, b));
  });

  it('comparing two halves of a session gives the same comparison (verdicts, intervals, findings) from the worker as in-thread', async () => {
    const whole = await inThread.getFindings(id, null, null);
    const mid = (whole.range.startMSec! + whole.range.endMSec!) / 2;
    const a = { sessionId: id, fromMSec: null, toMSec: mid };
    const b = { sessionId: id, fromMSec: mid, toMSec: null };
    const fromWorker = await inWorker.compareSessions(a, b, { includeWarmup: false });
    expect(fromWorker.metrics.length).toBeGreaterThan(5);
    expect(fromWorker).toEqual(await inThread.compareSessions(a, b, { includeWarmup: false }));
  });

  it('a Server GC session is judged on its per-heap promoted bytes as `gcscope diagnose` judges its file', async () => {
    const db = await Database.open(dbPath);
    const server = (await importTrace(db, TRACES + SERVER)).sessionId;
    await db.close();
    const d = await inWorker.getFindings(server, null, null);
    const cli = await runCli(['diagnose', '--format', 'json', '--explain', TRACES + SERVER]);
    const fromFile = (JSON.parse(cli.stdout) as { explain: { id: string; status: string; reason: string }[] }).explain.find(
      (e) => e.id === 'server-heap-imbalance',
    )!;
    const here = d.explain.find((e) => e.id === 'server-heap-imbalance')!;
    expect(fromFile.status).toBe('ok');
    expect(here.reason).toBe(fromFile.reason);
  });

  it("a threshold changed in the settings changes the worker's answer as it does the in-thread one", async () => {
    const db = await Database.open(dbPath);
    const session = await getSession(db, id);
    const { columns } = await loadViewColumns(db, id, { gcCount: session.gcCount, store: false });
    await db.close();
    const runner = new AnalysisRunner(WORKER);
    try {
      const facts = diagnosisFacts(session);
      const overrides = { 'induced-gcs.warnPauseShare': 0.5, 'induced-gcs.infoPauseShare': 0.4 };
      const base = await runner.diagnose({ key: 'k', columns, facts, overrides: {} });
      const changed = await runner.diagnose({ key: 'k', columns, facts, overrides });
      expect(base).toEqual(diagnose(columns, facts, {}));
      expect(changed).toEqual(diagnose(columns, facts, { overrides }));
      expect(changed.findings.find((f) => f.id === 'induced-gcs')?.score).not.toBe(base.findings.find((f) => f.id === 'induced-gcs')?.score);
      // A recording's columns change between asks: sent each time (key null), never mixed up.
      const half = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v.subarray(0, Math.floor(v.length / 2))])) as GcColumns;
      expect(await runner.diagnose({ key: null, columns: half, facts, overrides: {} })).toEqual(diagnose(half, facts, {}));
      expect(await runner.diagnose({ key: null, columns, facts, overrides: {} })).toEqual(base);
      // A bad threshold is the user's error, with its own type, before anything is sent.
      expect(() => runner.diagnose({ key: 'k', columns, facts, overrides: { 'no-such-rule.x': 1 } })).toThrow(DiagnosisSettingsError);
    } finally {
      await runner.close();
    }
  });

  it('request spans cross to the worker as columns and come back as the same request finding the service thread computes', async () => {
    const db = await Database.open(dbPath);
    const rid = (await importTrace(db, TRACES + 'aspnet-requests.nettrace')).sessionId;
    const session = await getSession(db, rid);
    const { columns } = await loadViewColumns(db, rid, { gcCount: session.gcCount, store: false });
    const [spans, pauses] = await Promise.all([getRequestSpans(db, rid), getPauseIntervals(db, rid)]);
    await db.close();
    // 41 requests, and the spans of other groups (Hosting's, connections): all of them cross.
    expect(spans.length).toBeGreaterThan(41);
    const runner = new AnalysisRunner(WORKER);
    try {
      const facts = diagnosisFacts({ ...session, requests: { spans, pauses } });
      // 41 requests: judged once the rule's minimum is lowered (50 by default).
      const overrides = { 'request-tail-gc.minRequests': 10 };
      const inWorkerD = await runner.diagnose({ key: null, columns, facts, overrides });
      expect(inWorkerD).toEqual(diagnose(columns, facts, { overrides }));
      const rule = inWorkerD.explain.find((e) => e.id === 'request-tail-gc')!;
      expect(rule.status).not.toBe('not-applicable');
      expect(rule.reason).toMatch(/of the latency of the slowest 1 % of 41 requests/);
    } finally {
      await runner.close();
    }
  });
});
