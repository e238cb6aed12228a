/**
 * One request must not wedge the analysis worker (issue 40): `getFindings(1, -1e308, 1e308)` spun
 * the worker forever (the pause-share rule's sliding windows stepped from -1e308 by 30 s, a step
 * lost below the number's precision), and every later findings request and comparison queued
 * behind it. Ranged calls through the contract's dispatcher, with the worker the app and
 * `gcscope serve` use (dist/analysis-worker.mjs): each answers promptly with the range clamped to
 * the session, or with a typed bad-request, and a normal request after them is answered.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import type { ApiResult } from '../../src-main/shared/contract.js';
import type { Diagnosis } from '../../src-main/shared/finding.js';
import { Database } from '../../src-main/store/db.js';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'analysis-requests');
const WORKER = join(process.cwd(), 'dist', 'analysis-worker.mjs');
const TRACE = 'problem-healthy.nettrace.zip';
/** Far more than any of these requests takes; a wedged worker never answers. */
const PROMPT_MS = 15_000;
let id = 0;
let svc: ProfilerService;

beforeAll(async () => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run node scripts/build.mjs (npm test builds it first)`);
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const dbPath = join(DIR, 'd.db');
  const db = await Database.open(dbPath);
  id = (await importTrace(db, TRACES + TRACE)).sessionId;
  await db.close();
  svc = await ProfilerService.create({
    dbPath,
    tracesDir: join(DIR, 'traces'),
    uploadDir: join(DIR, 'up'),
    mode: 'browser',
    version: 'test',
    analysisWorkerScript: WORKER,
  });
});

afterAll(async () => {
  await svc?.close();
});

/** A dispatched call, or a failure naming it if it has not answered in PROMPT_MS. */
async function call<T>(method: string, args: unknown[]): Promise<ApiResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${method}(${JSON.stringify(args)}) was not answered in ${PROMPT_MS} ms`)), PROMPT_MS);
  });
  try {
    return (await Promise.race([dispatch(svc, method, args), late])) as ApiResult<T>;
  } finally {
    clearTimeout(timer);
  }
}

function value<T>(r: ApiResult<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('ranged requests cannot wedge the analysis worker', () => {
  it('getFindings(-1e308, 1e308) answers promptly with the whole session clamped, and the findings asked after it are answered', async () => {
    const data = value(await call<{ startMSec: number; endMSec: number }>('getSessionData', [id]));
    const huge = value(await call<Diagnosis>('getFindings', [id, -1e308, 1e308]));
    // Clamped to the session: the answer for the session's own span.
    expect(huge.range.startMSec).toBe(data.startMSec);
    expect(huge.range.endMSec).toBe(data.endMSec);
    expect(huge).toEqual(value(await call<Diagnosis>('getFindings', [id, data.startMSec, data.endMSec])));
    // The ones behind it are served.
    const mid = (data.startMSec + data.endMSec) / 2;
    expect(value(await call<Diagnosis>('getFindings', [id, data.startMSec, mid])).range.gcCount).toBeGreaterThan(0);
    expect(value(await call<Diagnosis>('getFindings', [id, null, null])).findings).toBeDefined();
  });

  it('ranges far outside the session (one end huge, both before, both after, reversed) answer promptly', async () => {
    const data = value(await call<{ startMSec: number; endMSec: number }>('getSessionData', [id]));
    for (const [a, b] of [
      [data.startMSec, 1e308],
      [-1e308, data.endMSec],
      [-1e308, -1e307],
      [1e307, 1e308],
      [1e308, -1e308],
      [-Number.MAX_VALUE, Number.MAX_VALUE],
    ]) {
      const r = await call<Diagnosis>('getFindings', [id, a, b]);
      expect(r.ok, `getFindings(${a}, ${b})`).toBe(true);
      const d = value(r);
      for (const t of [d.range.startMSec!, d.range.endMSec!]) {
        expect(t).toBeGreaterThanOrEqual(data.startMSec);
        expect(t).toBeLessThanOrEqual(data.endMSec);
      }
    }
  });

  it('NaN, Infinity and non-numbers are refused as bad requests by every ranged call', async () => {
    const q = { direction: 'bottom-up', kind: null, typeName: null, search: null };
    const target = (from: unknown, to: unknown) => ({ sessionId: id, fromMSec: from, toMSec: to });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '0', {}]) {
      for (const [method, args] of [
        ['getFindings', [id, bad, 1]],
        ['getFindings', [id, 0, bad]],
        ['getRangeSummary', [id, bad, 1]],
        ['getRangeSummary', [id, 0, bad]],
        ['getStackAllocations', [id, { ...q, fromMSec: bad, toMSec: 1 }]],
        ['compareSessions', [target(bad, 1), target(null, null), { includeWarmup: false }]],
        ['compareSessions', [target(null, null), target(0, bad), { includeWarmup: false }]],
      ] as const) {
        const r = await call(method, args as unknown as unknown[]);
        expect(r.ok, `${method} with ${String(bad)}`).toBe(false);
        expect(!r.ok && r.error.code).toBe('bad-request');
      }
    }
  });

  it('getRangeSummary(-1e308, 1e308) is the whole session’s summary, with finite numbers', async () => {
    const data = value(await call<{ startMSec: number; endMSec: number }>('getSessionData', [id]));
    const whole = value(await call<Record<string, unknown>>('getRangeSummary', [id, data.startMSec, data.endMSec]));
    const huge = value(await call<Record<string, unknown>>('getRangeSummary', [id, -1e308, 1e308]));
    expect(huge).toEqual(whole);
    // A filtered summary over the huge range (its % paused is over the range's span) as well.
    const filter = { generations: [true, true, true], kinds: [true, true, true], reason: -1, minPauseMSec: 0.001 };
    const f = value(await call<{ pausedOverMSec: number }>('getRangeSummary', [id, -1e308, 1e308, null, filter]));
    expect(Number.isFinite(f.pausedOverMSec)).toBe(true);
    expect(f).toEqual(value(await call('getRangeSummary', [id, data.startMSec, data.endMSec, null, filter])));
    // Half the session from a start far before it: the % paused is over the half, not over 1e308 ms.
    const mid = (data.startMSec + data.endMSec) / 2;
    expect(value(await call('getRangeSummary', [id, -1e308, mid]))).toEqual(value(await call('getRangeSummary', [id, data.startMSec, mid])));
  });

  it('compareSessions over huge ranges answers promptly, and a comparison after it is answered', async () => {
    const t = (from: number | null, to: number | null) => ({ sessionId: id, fromMSec: from, toMSec: to });
    const huge = await call('compareSessions', [t(-1e308, 1e308), t(-1e308, 0), { includeWarmup: false }]);
    expect(huge.ok).toBe(true);
    const r = await call('compareSessions', [t(null, null), t(null, null), { includeWarmup: false }]);
    expect(r.ok).toBe(true);
  });

  it('getStackAllocations over a huge range answers promptly', async () => {
    const q = { direction: 'bottom-up', kind: null, typeName: null, search: null };
    const whole = await call('getStackAllocations', [id, { ...q, fromMSec: null, toMSec: null }]);
    expect(whole.ok).toBe(true);
    const huge = await call('getStackAllocations', [id, { ...q, fromMSec: -1e308, toMSec: 1e308 }]);
    expect(huge.ok).toBe(true);
    expect(value(huge)).toEqual(value(whole));
  });
});

describe('the diagnosis cannot spin on any setting', () => {
  it('`gcscope diagnose` with a 1 ns pause-share window finishes (it spun for ever)', async () => {
    const r = await runCli(['diagnose', '--set', 'high-pause-time.windowSec=1e-9', '--set', 'high-pause-time.minWindowSec=1e-9', TRACES + TRACE], {
      timeoutMs: PROMPT_MS,
    });
    expect(r.stderr).toBe('');
    expect([0, 3]).toContain(r.code);
  });
});
