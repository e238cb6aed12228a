/**
 * DATAS live: attach to a real Server GC process running the workload's `datas-phases` scenario
 * and check, while it is still being recorded, that what the Server GC lanes read
 * (getServerGc over the store) already has DATAS samples and decisions and each GC's own heap
 * count — the lanes update as the recording grows, not only once it ends.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveRecorder } from '../../src-main/recording/live-recorder.js';
import { serverGcOfSession } from '../../src-main/recording/server-gc-source.js';
import { Database } from '../../src-main/store/db.js';
import { getSession } from '../../src-main/store/sessions.js';
import { skipOrFail } from '../helpers/environment.js';
import { buildWorkload, dotnetMissingReason, startWorkload } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'datas-live');
let skip = false;
let db: Database;
const children: ChildProcess[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail(await dotnetMissingReason(), 'DATAS live test');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  db = await Database.open(join(DIR, 'live.db'));
}, 600_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('DATAS while recording', () => {
  it("a Server GC recording's DATAS samples, decisions and per-GC heap counts are readable before the recording ends", async () => {
    const w = startWorkload(
      {
        mode: 'datas',
        args: ['--scenario', 'datas-phases', '--iterations', '1', '--wait-for-input'],
        env: { DATAS_BUSY_SECONDS: '20', DATAS_LIGHT_SECONDS: '5' },
      },
      children,
    );
    const ready = await w.ready;
    const rec = new LiveRecorder(db, { target: { pid: ready.pid }, profile: 'gc-collect', outDir: join(DIR, 'traces') });
    await rec.start();
    w.child.stdin!.end('\n');
    // Poll what the lanes read while the busy phase runs.
    let seen: { samples: number; tunings: number; maxHeaps: number; status: string } | undefined;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      await sleep(1000);
      const s = await getSession(db, rec.sessionId);
      if (s.status !== 'recording') break;
      const d = await serverGcOfSession(db, s);
      const heaps = await db.all<{ h: number | null }>('SELECT MAX(heap_count) AS h FROM gcs WHERE session_id = ?', [rec.sessionId]);
      seen = { samples: d.samples.length, tunings: d.tunings.length, maxHeaps: heaps[0]?.h ?? 0, status: s.status };
      if (seen.samples > 10 && seen.tunings > 2 && seen.maxHeaps >= 2) break;
    }
    expect(seen, 'polled while recording').toBeDefined();
    expect(seen!.status).toBe('recording');
    expect(seen!.samples).toBeGreaterThan(10);
    expect(seen!.tunings).toBeGreaterThan(2);
    // On 2 cores DATAS goes from 1 to 2 heaps within the first GCs of the busy phase.
    expect(seen!.maxHeaps).toBe(2);
    const r = await rec.stop();
    expect(['complete', 'incomplete']).toContain(r.status);
    w.child.kill('SIGKILL');
  }, 120_000);
});
