/**
 * Browser uploads (issue 19, defect 2), through the contract's dispatcher as the WebSocket bridge
 * calls it: one small chunk at a far offset used to make a 1.5 GB (or 1 TB sparse) file, bad
 * base64 was accepted, and the upload folder was never removed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { sweepStaleUploadFolders } from '../../src-main/service/uploads.js';
import type { ImportProgress } from '../../src-main/shared/contract.js';
import { TRACES } from '../helpers/fixtures.js';

let dir: string;
let uploadDir: string;
let svc: ProfilerService;

async function create(extra: { uploadMaxBytes?: number; uploadIdleMs?: number } = {}): Promise<ProfilerService> {
  return ProfilerService.create({ dbPath: join(dir, 'db.sqlite'), tracesDir: join(dir, 'traces'), uploadDir, mode: 'browser', version: 'test', ...extra });
}

function bytesInFolder(d: string): number {
  if (!existsSync(d)) return 0;
  return readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-uploads-test-'));
  uploadDir = join(dir, 'uploads');
  svc = await create();
});

afterEach(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const ID = 'up-test-0001';

describe('browser uploads', () => {
  it('refuses a 4-byte chunk at offset 1.5e9 without growing a file', async () => {
    const r = await dispatch(svc, 'uploadChunk', [ID, 1.5e9, 'AAAAAA==']);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.message).toMatch(/expected offset 0/);
    expect(bytesInFolder(uploadDir)).toBe(0);
  });

  it('refuses offset 2^40 (no 1 TB sparse file)', async () => {
    expect((await dispatch(svc, 'uploadChunk', [ID, 0, 'AAAA'])).ok).toBe(true);
    const r = await dispatch(svc, 'uploadChunk', [ID, 2 ** 40, 'AAAA']);
    expect(r.ok).toBe(false);
    expect(bytesInFolder(uploadDir)).toBe(3);
  });

  it('refuses a chunk that skips ahead or repeats an earlier offset', async () => {
    expect((await dispatch(svc, 'uploadChunk', [ID, 0, 'AAAA'])).ok).toBe(true);
    expect((await dispatch(svc, 'uploadChunk', [ID, 0, 'AAAA'])).ok).toBe(false);
    expect((await dispatch(svc, 'uploadChunk', [ID, 4, 'AAAA'])).ok).toBe(false);
    expect((await dispatch(svc, 'uploadChunk', [ID, 3, 'AAAA'])).ok).toBe(true);
  });

  it('refuses invalid base64 instead of silently dropping characters', async () => {
    for (const bad of ['ab$=', 'abc', 'AAAA====', 'A===', '!!!!', 'AA AA']) {
      const r = await dispatch(svc, 'uploadChunk', [ID, 0, bad]);
      expect(r.ok, bad).toBe(false);
      expect(!r.ok && r.error.code).toBe('bad-input');
    }
    expect(bytesInFolder(uploadDir)).toBe(0);
  });

  it('stops an upload at the size cap with a clear error and removes what it had', async () => {
    await svc.close();
    svc = await create({ uploadMaxBytes: 1000 });
    const chunk = Buffer.alloc(600).toString('base64');
    expect((await dispatch(svc, 'uploadChunk', [ID, 0, chunk])).ok).toBe(true);
    const r = await dispatch(svc, 'uploadChunk', [ID, 600, chunk]);
    expect(!r.ok && r.error.code).toBe('too-large');
    expect(!r.ok && r.error.message).toMatch(/gcscope import/);
    expect(bytesInFolder(uploadDir)).toBe(0);
  });

  it('imports a real trace uploaded in contiguous chunks, then removes the staged file', async () => {
    const bytes = readFileSync(join(TRACES, 'workload-workstation.nettrace.zip'));
    const CH = 256 * 1024;
    for (let off = 0; off < bytes.length; off += CH) {
      const r = await dispatch(svc, 'uploadChunk', [ID, off, bytes.subarray(off, off + CH).toString('base64')]);
      expect(r.ok).toBe(true);
    }
    const done = new Promise<ImportProgress>((resolve) => svc.events.on('import-progress', (p: ImportProgress) => p.done && resolve(p)));
    const r = await dispatch(svc, 'importUpload', [ID, 'my trace.nettrace.zip', false]);
    expect(r.ok).toBe(true);
    const p = await done;
    expect(p.error).toBeUndefined();
    const sessions = await svc.listSessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.gcCount).toBeGreaterThan(10);
    expect(sessions[0]!.name).toBe('my trace.nettrace.zip');
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('an upload that is not a trace stores nothing, and the error says what it looks like, never naming the staged copy', async () => {
    expect((await dispatch(svc, 'uploadChunk', [ID, 0, Buffer.from('{"a": 1}').toString('base64')])).ok).toBe(true);
    const done = new Promise<ImportProgress>((resolve) => svc.events.on('import-progress', (p: ImportProgress) => p.done && resolve(p)));
    expect((await dispatch(svc, 'importUpload', [ID, 'notes.json', false])).ok).toBe(true);
    const p = await done;
    // Too short for a trace header, but no trace starts like this: format detection says what it is.
    expect(p.error?.code).toBe('bad-magic');
    expect(p.error?.message).toMatch(
      /^This file is not a trace GCScope can read: it looks like JSON; GCScope reads \.nettrace, \.netperf, \.etl and \.etl\.zip/,
    );
    expect(p.error?.message).not.toContain(uploadDir);
    expect(await svc.listSessions()).toEqual([]);
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('empties the upload folder at start and removes it at close', async () => {
    await svc.close();
    expect(existsSync(uploadDir)).toBe(false);
    mkdirSync(uploadDir, { recursive: true });
    writeFileSync(join(uploadDir, 'up-stale-0001.part'), Buffer.alloc(1000));
    svc = await create();
    expect(readdirSync(uploadDir)).toEqual([]);
  });

  it('abandoned uploads expire after the idle time, with their partial files, and stop blocking new ones (issue 40)', async () => {
    await svc.close();
    svc = await create({ uploadIdleMs: 300 });
    const chunk = Buffer.alloc(300).toString('base64');
    // Four tabs start an upload and are closed.
    for (let i = 0; i < 4; i++) expect((await dispatch(svc, 'uploadChunk', [`up-tab-000${i}`, 0, chunk])).ok).toBe(true);
    const fifth = await dispatch(svc, 'uploadChunk', ['up-tab-0004', 0, chunk]);
    expect(!fifth.ok && fifth.error.code).toBe('busy');
    expect(bytesInFolder(uploadDir)).toBe(1200);
    await new Promise((res) => setTimeout(res, 700));
    // Gone from disk without a new upload asking…
    expect(readdirSync(uploadDir)).toEqual([]);
    // …and a new upload gets a slot.
    expect((await dispatch(svc, 'uploadChunk', ['up-tab-0004', 0, chunk])).ok).toBe(true);
    // A closed tab that comes back is told its upload was dropped, not handed an empty import.
    const late = await dispatch(svc, 'uploadChunk', ['up-tab-0000', 300, chunk]);
    expect(!late.ok && late.error.message).toMatch(/dropped after 300 ms without data/);
    const finish = await dispatch(svc, 'importUpload', ['up-tab-0001', 'trace.nettrace', false]);
    expect(!finish.ok && finish.error.message).toMatch(/dropped/);
  });

  it('an upload that keeps sending is not expired, however long it takes', async () => {
    await svc.close();
    svc = await create({ uploadIdleMs: 400 });
    const chunk = Buffer.alloc(300).toString('base64');
    for (let off = 0; off < 3000; off += 300) {
      expect((await dispatch(svc, 'uploadChunk', [ID, off, chunk])).ok, `offset ${off}`).toBe(true);
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(bytesInFolder(uploadDir)).toBe(3000);
  });

  it('removes per-process upload folders of serve processes that are gone, and keeps live ones', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    mkdirSync(join(dir, `gcscope-uploads-${dead}`));
    writeFileSync(join(dir, `gcscope-uploads-${dead}`, 'x.part'), 'x');
    mkdirSync(join(dir, `gcscope-uploads-${process.pid}`));
    expect(sweepStaleUploadFolders(dir, 'gcscope-uploads-')).toEqual([`gcscope-uploads-${dead}`]);
    expect(existsSync(join(dir, `gcscope-uploads-${process.pid}`))).toBe(true);
  });
});
