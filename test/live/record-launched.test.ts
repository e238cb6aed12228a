/**
 * `gcscope record --duration T -- dotnet app.dll`: the process the command started lives only for
 * the recording. Once the duration is up the session is drained and stored, the process is
 * stopped (said on stderr) and the command exits — instead of waiting on the process's output
 * until it ends by itself (here, two minutes later).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GcReport } from '../../src-main/report/model.js';
import { runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, WORKLOAD_DLL } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'record-launched');
let skip = false;

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'record of a launched process');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

describe('record --duration of a process the command started', () => {
  it('ends when the duration is up: the session is stored complete, the process is stopped and the command exits 0', async () => {
    const db = join(DIR, 'launched.db');
    // The workload would run for 120 s; the recording lasts 3 s. Without the stop the command
    // outlives the test's limit (90 s) and the test fails on it.
    const r = await runCli(
      ['record', '--duration', '3s', '--db', db, '--out', join(DIR, 'traces'), '--', 'dotnet', WORKLOAD_DLL, '--scenario', 'churn', '--seconds', '120'],
      {
        timeoutMs: 90_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const m = /stopping the process this command started \(pid (\d+)\): the recording has ended/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(existsSync(`/proc/${m![1]}`), 'the launched process is gone').toBe(false);
    const rep = await runCli(['report', '--session', '1', '--db', db, '--format', 'json']);
    const report = JSON.parse(rep.stdout) as GcReport;
    expect(report.gcs.length).toBeGreaterThan(0);
    const sessions = await runCli(['sessions', '--db', db, '--json']);
    expect(sessions.stdout).toMatch(/"status":\s*"complete"/);
  }, 120_000);
});
