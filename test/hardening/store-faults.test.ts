/**
 * The store under faults (issue 19 defects 9, 10 and 11), through the built CLI: two processes
 * creating the database at once, a session cut off by kill -9, a database the user can only
 * read, a folder the user cannot write, a damaged page, a missing table, an empty
 * XDG_CONFIG_HOME and a recorder pid reused by another process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src-main/store/db.js';
import { BIN, runCli, type CliResult } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';
import { cliReadableBy } from '../helpers/readable-cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;

/** The CLI as nobody runs it: bin/gcscope.mjs, or a world-readable copy when the checkout is private (readable-cli.ts). */
let unprivilegedBin = BIN;
let cleanupCopy = (): void => undefined;
/** Traces nobody can read: copies in `dir` (the checkout may be in a private folder). */
const trace = (name: string): string => join(dir, 'traces', name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gcscope-store-faults-'));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'traces'), { mode: 0o755 });
  for (const t of ['workload-server.nettrace.zip', 'workload-datas.nettrace.zip', 'workload-workstation.nettrace.zip']) copyFileSync(join(TRACES, t), trace(t));
  // As root these tests run the CLI as nobody, who must be able to read it: a clone into a 0700
  // folder (mktemp -d) failed them with "Cannot find module …/bin/gcscope.mjs". There nobody runs
  // a world-readable copy of the built CLI instead.
  if (process.getuid?.() === 0) {
    const c = cliReadableBy(65534, 65534);
    unprivilegedBin = c.bin;
    cleanupCopy = c.cleanup;
    if (c.copied) console.warn(`store-faults: the checkout is private to nobody; running a copy of the CLI in ${dirname(dirname(c.bin))}`);
  }
});
afterAll(() => {
  cleanupCopy();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the CLI as a user without write access to `dir`'s files: as root (where permission bits do
 * not apply) the child runs as nobody; otherwise as this user, after the test removed its
 * write permission.
 */
function runCliUnprivileged(args: string[]): Promise<CliResult> {
  const asRoot = process.getuid?.() === 0;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [unprivilegedBin, ...args], {
      cwd: dir,
      env: { ...process.env, HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function oneLine(r: CliResult): string {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return lines[0]!;
}

/** A database with the workload trace imported (25 GCs), then put in the state kill -9 leaves. */
async function cutOffImport(name: string, recorderPid: number, updatedAt?: string): Promise<string> {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  chmodSync(d, 0o755);
  const traceFile = join(d, 'workload.nettrace.zip');
  copyFileSync(trace('workload-workstation.nettrace.zip'), traceFile);
  const dbPath = join(d, 'db.sqlite');
  const r = await runCli(['import', traceFile, '--db', dbPath]);
  expect(r.code, r.stderr).toBe(0);
  const db = await Database.open(dbPath);
  // kill -9 mid-import: the row says 'recording' by a process that is gone, with the GCs so far.
  await db.run("UPDATE sessions SET status = 'recording', status_reason = NULL, recorder_pid = ?, updated_at = COALESCE(?, updated_at)", [
    recorderPid,
    updatedAt ?? null,
  ]);
  await db.run('DELETE FROM gcs WHERE idx >= 10');
  await db.run('DELETE FROM gc_columns');
  await db.close();
  return dbPath;
}

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('two processes opening a brand-new database at once (defect 9)', () => {
  it('both succeed, 20 times in a row (was "table sessions already exists" 2 in 20)', async () => {
    const child = join(dir, 'open-db.mjs');
    writeFileSync(
      child,
      `const [db, at] = process.argv.slice(2);
const { Database } = await import(${JSON.stringify(join(ROOT, 'src-main/store/db.ts'))});
await new Promise((r) => setTimeout(r, Math.max(0, Number(at) - Date.now())));
const d = await Database.open(db);
process.stdout.write(String(await d.schemaVersion()));
await d.close();
`,
    );
    const open = (db: string, at: number): Promise<CliResult> =>
      new Promise((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', child, db, String(at)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        p.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const failures: string[] = [];
    for (let i = 0; i < 20; i++) {
      const db = join(dir, `race-${i}.db`);
      // Both children load first, then open at the same instant.
      const at = Date.now() + 1500;
      const rs = await Promise.all([open(db, at), open(db, at)]);
      for (const r of rs) if (r.code !== 0) failures.push(r.stderr.split('\n')[0] ?? '');
    }
    expect(failures).toEqual([]);
    // 20 rounds of two child processes that each load TypeScript: minutes on a loaded 2-core machine.
  }, 300_000);
});

describe('a session cut off by kill -9 (defect 10)', () => {
  for (const cmd of ['report', 'log']) {
    it(`${cmd} --session recovers it first and prints every GC, saying so on stderr`, async () => {
      const db = await cutOffImport(`cut-${cmd}`, deadPid());
      const r = await runCli([cmd, '--session', '1', '--db', db, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/recovered session 1 .*imported again/);
      const gcs = cmd === 'report' ? (JSON.parse(r.stdout) as { gcs: unknown[] }).gcs.length : r.stdout.trim().split('\n').length;
      expect(gcs).toBe(25);
    });
  }

  it('a user who can only read the database gets the partial GCs labelled as such on stderr', async () => {
    const db = await cutOffImport('cut-readonly', deadPid());
    const r = await runCliUnprivileged(['report', '--session', '1', '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(oneLine(r)).toMatch(/note: session 1 .* was cut off .* could not be recovered because the database is read-only/);
    expect((JSON.parse(r.stdout) as { gcs: unknown[] }).gcs).toHaveLength(10);
  });

  it('a recorder pid now used by another process does not keep the session "recording"', async () => {
    const sleeper = spawn('sleep', ['60']);
    try {
      // The session was last written an hour ago; the process with that pid started just now.
      const db = await cutOffImport('cut-reused-pid', sleeper.pid!, new Date(Date.now() - 3600_000).toISOString());
      const r = await runCli(['sessions', '--db', db, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/recovered session 1/);
      const s = (JSON.parse(r.stdout) as { sessions: { status: string; gcCount: number }[] }).sessions[0]!;
      expect(s.status).toBe('complete');
      expect(s.gcCount).toBe(25);
    } finally {
      sleeper.kill();
    }
  });
});

describe('store errors are one line, and reading needs only read access (defect 11)', () => {
  it('a database the user can only read still lists; import into it says why it cannot, in one line', async () => {
    const d = join(dir, 'ro');
    mkdirSync(d);
    const db = join(d, 'db.sqlite');
    expect((await runCli(['import', trace('workload-server.nettrace.zip'), '--db', db])).code).toBe(0);
    chmodSync(db, 0o444);
    chmodSync(d, 0o555);
    try {
      const list = await runCliUnprivileged(['sessions', '--db', db]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/workload-server\.nettrace\.zip/);
      const rep = await runCliUnprivileged(['report', '--session', '1', '--db', db]);
      expect(rep.code, rep.stderr).toBe(0);
      const imp = await runCliUnprivileged(['import', trace('workload-datas.nettrace.zip'), '--db', db]);
      expect(imp.code).toBe(1);
      expect(oneLine(imp)).toMatch(/database .* is read-only for this user/);
    } finally {
      chmodSync(d, 0o755);
      chmodSync(db, 0o644);
    }
  });

  it('a folder the user cannot write gives one line naming it', async () => {
    const d = join(dir, 'locked');
    mkdirSync(d, { mode: 0o555 });
    chmodSync(d, 0o555);
    const r = await runCliUnprivileged(['import', trace('workload-server.nettrace.zip'), '--db', join(d, 'sub', 'db.sqlite')]);
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(/cannot create the folder for the database .*permission denied/);
  });

  it('sessions --check on a damaged page reports the damage (exit 1), report says it in one line', async () => {
    const db = join(dir, 'corrupt.db');
    expect((await runCli(['import', trace('workload-server.nettrace.zip'), '--db', db])).code).toBe(0);
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xde), 0, 4096, 4096 * 3);
    closeSync(fd);
    const check = await runCli(['sessions', '--check', '--db', db]);
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toMatch(/database is damaged \(SQLITE_CORRUPT/);
    expect(check.stderr).not.toMatch(/\n\s+at /);
    const rep = await runCli(['report', '--session', '1', '--db', db]);
    expect(rep.code).toBe(1);
    expect(oneLine(rep)).toMatch(/database is damaged/);
  });

  it('sessions --check lists a missing table as a problem instead of a stack trace', async () => {
    const db = join(dir, 'missing-table.db');
    expect((await runCli(['import', trace('workload-server.nettrace.zip'), '--db', db])).code).toBe(0);
    const d = await Database.open(db);
    await d.exec('DROP TABLE gc_heaps');
    await d.close();
    const r = await runCli(['sessions', '--check', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no such table: gc_heaps/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  // A real full filesystem needs a mount (root); test/store/disk-full.test.ts fills SQLite's own limit as any user.
  it.runIf(process.getuid?.() === 0 && process.platform === 'linux')(
    'a disk that fills up mid-import: one line saying so (exit 1), and sessions --check passes after (issue 40)',
    async () => {
      const mnt = join(dir, 'full');
      mkdirSync(mnt);
      const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=300k', 'tmpfs', mnt]);
      expect(m.status, m.stderr.toString()).toBe(0);
      try {
        const db = join(mnt, 'db.sqlite');
        const r = await runCli(['import', trace('workload-server.nettrace.zip'), '--db', db]);
        expect(r.code).toBe(1);
        expect(oneLine(r)).toMatch(/^gcscope: the disk is full: .*; free space and try again$/);
        const check = await runCli(['sessions', '--check', '--db', db]);
        expect(check.code, check.stdout + check.stderr).toBe(0);
        expect(check.stdout).toMatch(/Integrity check: ok/);
      } finally {
        spawnSync('umount', [mnt]);
      }
    },
  );

  it('an empty XDG_CONFIG_HOME means unset: the database goes to ~/.config/GCScope, not ./GCScope', async () => {
    const home = join(dir, 'home');
    const cwd = join(dir, 'cwd');
    mkdirSync(home);
    mkdirSync(cwd);
    const r = spawnSync(process.execPath, [BIN, 'sessions', '--json'], { cwd, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: '', GCSCOPE_DB: '' } });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect((JSON.parse(r.stdout.toString()) as { database: string }).database).toBe(join(home, '.config', 'GCScope', 'gcscope.db'));
    expect(existsSync(join(cwd, 'GCScope'))).toBe(false);
  });
});
