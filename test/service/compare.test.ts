/**
 * The comparison view's service call on real traces in a real SQLite file: two stored sessions
 * compare as their files do (`gcscope compare`), ranges of one session are compared, and the
 * arguments are validated at the contract's edge.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { Database } from '../../src-main/store/db.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'service-compare');
const dbPath = join(DIR, 'compare.db');
let a = 0;
let b = 0;
let svc: ProfilerService;

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  a = (await importTrace(db, TRACES + 'compare-ws-1.nettrace.zip')).sessionId;
  b = (await importTrace(db, TRACES + 'compare-server.nettrace.zip')).sessionId;
  await db.close();
  svc = await ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });
});

afterAll(async () => {
  await svc?.close();
});

const whole = (sessionId: number) => ({ sessionId, fromMSec: null, toMSec: null });

describe('compareSessions', () => {
  it('compares two stored sessions: the GC-mode difference, the verdicts and the findings of each', async () => {
    const c = await svc.compareSessions(whole(a), whole(b), { includeWarmup: false });
    expect(c.differences[0]).toMatch(/^GC mode differs/);
    expect(c.metrics.find((m) => m.id === 'gcs-per-gb')!.verdict).toBe('lower');
    expect(c.findings.onlyA.map((f) => f.id)).toContain('random-long-pause');
    expect(c.a.label).toBe('A: compare-ws-1.nettrace.zip');
  });

  it('compares two ranges of one session, each with its own GCs', async () => {
    const c = await svc.compareSessions(
      { sessionId: a, fromMSec: null, toMSec: 7000 },
      { sessionId: a, fromMSec: 7000, toMSec: null },
      { includeWarmup: true },
    );
    expect(c.a.range).toEqual({ fromMSec: null, toMSec: 7000 });
    expect(c.b.range).toEqual({ fromMSec: 7000, toMSec: null });
    expect(c.a.gcCount + c.b.gcCount).toBe(600);
    expect(c.differences).toEqual([]);
  });

  it('refuses malformed targets at the contract edge, and a missing session as not-found', async () => {
    const bad = await dispatch(svc, 'compareSessions', [{ sessionId: a }, whole(b), { includeWarmup: false }]);
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    const extra = await dispatch(svc, 'compareSessions', [whole(a), whole(b), { includeWarmup: false, seed: 3 }]);
    expect(extra).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    const missing = await dispatch(svc, 'compareSessions', [whole(a), whole(9999), { includeWarmup: false }]);
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    const backwards = await dispatch(svc, 'compareSessions', [{ sessionId: a, fromMSec: 9000, toMSec: 1000 }, whole(b), { includeWarmup: false }]);
    expect(backwards).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });
});
