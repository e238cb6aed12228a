/**
 * A disk that fills up mid-import (issue 40): the error is a StoreError that says the disk is
 * full (not "internal error"), what was written is whole (a GC with its per-heap and dynamic
 * rows, one transaction a batch) so `sessions --check` passes, and importing again once there is
 * space works. SQLite's own limit (PRAGMA max_page_count) fills the "disk" on this connection;
 * as root a small tmpfs fills it for the writer thread's connection too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTrace } from '../../src-main/recording/importer.js';
import { Database, StoreError } from '../../src-main/store/db.js';
import { checkIntegrity } from '../../src-main/store/integrity.js';
import { clearSessionRows, listSessions } from '../../src-main/store/sessions.js';
import { TRACES } from '../helpers/fixtures.js';

const WRITE_WORKER = join(process.cwd(), 'dist', 'write-worker.mjs');
/** Server GC: per-heap rows for every GC. */
const TRACE = TRACES + 'workload-server.nettrace.zip';
const DISK_FULL = /^the disk is full: .*SQLITE_FULL.*; free space and try again$/;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-disk-full-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function failure(p: Promise<unknown>): Promise<StoreError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(StoreError);
  return e as StoreError;
}

describe('a full disk mid-import', () => {
  it('fails with a "disk is full" StoreError, leaves a database that passes the check, and a later import works', async () => {
    const db = await Database.open(join(dir, 'max-pages.db'));
    try {
      const pages = (await db.get<{ page_count: number }>('PRAGMA page_count'))!.page_count;
      // Room for the session row and little more: the GC rows' batch cannot be written.
      await db.exec(`PRAGMA max_page_count = ${pages + 8}`);
      const e = await failure(importTrace(db, TRACE));
      expect(e.code).toBe('disk-full');
      expect(e.message).toMatch(DISK_FULL);
      expect(e.message).not.toMatch(/\n/);
      expect(await checkIntegrity(db)).toEqual([]);
      // Nothing half-imported is left behind to be refused as a duplicate.
      expect((await listSessions(db)).filter((s) => s.status === 'recording')).toEqual([]);
      await db.exec('PRAGMA max_page_count = 1073741823');
      const r = await importTrace(db, TRACE);
      expect(r.status).toBe('complete');
      expect(r.gcCount).toBe(15);
      expect(await checkIntegrity(db)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('emptying a session for a re-import is one transaction: a failure between two tables leaves no per-heap row without its GC', async () => {
    const db = await Database.open(join(dir, 'clear.db'));
    try {
      const r = await importTrace(db, TRACE);
      const heaps = async (): Promise<number> => (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gc_heaps'))!.n;
      expect(await heaps()).toBeGreaterThan(0);
      // The statement that empties gc_heaps fails as a full disk would (this connection only).
      await db.exec("CREATE TEMP TRIGGER fail_heaps BEFORE DELETE ON gc_heaps BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
      await expect(clearSessionRows(db, r.sessionId)).rejects.toThrow(/database or disk is full/);
      expect(await checkIntegrity(db)).toEqual([]);
      expect((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM gcs'))!.n).toBe(15);
      await db.exec('DROP TRIGGER fail_heaps');
      await clearSessionRows(db, r.sessionId);
      expect(await heaps()).toBe(0);
    } finally {
      await db.close();
    }
  });

  // A real full filesystem, for the writer thread's own connection (max_page_count is per
  // connection). Mounting needs root; as another user the in-process test above covers the store.
  const canMount = process.getuid?.() === 0 && process.platform === 'linux';
  it.runIf(canMount)('through the writer thread on a full tmpfs: the same StoreError, and the check passes', async () => {
    expect(existsSync(WRITE_WORKER), 'run `node scripts/build.mjs` first (dist/write-worker.mjs)').toBe(true);
    const mnt = join(dir, 'tmpfs');
    mkdirSync(mnt);
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=300k', 'tmpfs', mnt]);
    if (m.status !== 0) throw new Error(`mount tmpfs failed: ${m.stderr.toString()}`);
    try {
      const db = await Database.open(join(mnt, 'db.sqlite'));
      try {
        const e = await failure(importTrace(db, TRACE, { writeWorkerScript: WRITE_WORKER, writeWorkerMinBytes: 0 }));
        expect(e.code).toBe('disk-full');
        expect(e.message).toMatch(DISK_FULL);
        expect(await checkIntegrity(db)).toEqual([]);
      } finally {
        await db.close();
      }
    } finally {
      spawnSync('umount', [mnt]);
    }
  });
});
