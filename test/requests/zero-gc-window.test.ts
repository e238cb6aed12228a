/**
 * A window with requests and no GC (issue 42), on the real ASP.NET Core recording
 * (fixtures/traces/aspnet-requests.nettrace: its first 34 requests come before its first GC, at
 * 4.225 s): the request-tail-gc rule still runs there and says plainly that the tail is not the
 * GC's doing — GC share 0 %, the number `gcscope requests` gives for the same window — where it
 * used to be skipped with every GC rule as "no completed GC in view". The same in `gcscope
 * diagnose` (file and stored session) and in the app's findings (the service the panel calls).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { importTrace } from '../../src-main/recording/importer.js';
import type { Diagnosis } from '../../src-main/shared/finding.js';
import { Database } from '../../src-main/store/db.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const TRACE = TRACES + 'aspnet-requests.nettrace';
const DIR = join(process.cwd(), 'test-output', 'zero-gc-window');
const dbPath = join(DIR, 'requests.db');
// 32 requests start in 0–4.2 s: judged with a tail of 20 or more requests (the default asks 50).
const RANGE = ['--range', '0:4.2', '--set', 'request-tail-gc.minRequests=20'];
let sessionId = 0;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  sessionId = (await importTrace(db, TRACE)).sessionId;
  await db.close();
});

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

function tailRule(d: Diagnosis): Diagnosis['explain'][number] {
  return d.explain.find((e) => e.id === 'request-tail-gc')!;
}

describe('a window with requests and no GC', () => {
  it('gcscope diagnose judges the requests there and says the tail is not the GC’s doing, with the 0 % share gcscope requests gives', async () => {
    const req = JSON.parse((await runCli(['requests', TRACE, '--range', '0:4.2', '--format', 'json'])).stdout) as {
      count: number;
      gcShareOfSlowest1Percent: number;
      gcs: unknown[];
    };
    expect(req.count).toBe(32);
    expect(req.gcs).toEqual([]);
    expect(req.gcShareOfSlowest1Percent).toBe(0);
    const r = await runCli(['diagnose', TRACE, ...RANGE, '--format', 'json', '--explain']);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as Diagnosis;
    expect(d.range.gcCount).toBe(0);
    expect(d.findings).toEqual([]);
    const e = tailRule(d);
    expect(e.status).toBe('ok');
    expect(e.reason).toContain(`no GC paused the process while these ${req.count} requests ran`);
    expect(e.reason).toContain('GC pauses are 0.0 % of the latency of the slowest 1 %');
    expect(e.reason).toContain("the tail is not the GC's doing");
    // The GC rules have nothing to judge there, as before.
    expect(d.explain.find((x) => x.id === 'high-pause-time')!.reason).toBe('no completed GC in view');
    // Said in the plain text too, without --explain.
    const text = await runCli(['diagnose', TRACE, ...RANGE]);
    expect(text.stdout).toMatch(
      /Findings {4}none: no GC to diagnose\n {12}request-tail-gc: no GC paused the process while these 32 requests ran; .*the tail is not the GC's doing/,
    );
  });

  it('the same for the stored session (gcscope diagnose --session)', async () => {
    const r = await runCli(['diagnose', '--session', String(sessionId), '--db', dbPath, ...RANGE, '--format', 'json', '--explain']);
    expect(r.code, r.stderr).toBe(0);
    const e = tailRule(JSON.parse(r.stdout) as Diagnosis);
    expect(e.status).toBe('ok');
    expect(e.reason).toContain("the tail is not the GC's doing");
  });

  it("in the app: the findings of a selected range with no GC judge its requests (the panel reads this), and the whole recording's requests are judged too", async () => {
    const svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
    try {
      expect((await dispatch(svc, 'setDiagnosisSettings', [{ 'request-tail-gc.minRequests': 20 }])).ok).toBe(true);
      const from = (await svc.getSessionData(sessionId)).startMSec;
      const d = await svc.getFindings(sessionId, from, 4200);
      expect(d.range.gcCount).toBe(0);
      const e = tailRule(d);
      expect(e.status).toBe('ok');
      expect(e.reason).toContain("the tail is not the GC's doing");
      // Over the whole recording (18 GCs; GC #1 paused one request) the app judges its requests as the CLI does.
      const all = await svc.getFindings(sessionId, null, null);
      const cli = JSON.parse(
        (await runCli(['diagnose', TRACE, '--set', 'request-tail-gc.minRequests=20', '--format', 'json', '--explain'])).stdout,
      ) as Diagnosis;
      expect(tailRule(all)).toEqual(tailRule(cli));
    } finally {
      await svc.close();
    }
  });
});
