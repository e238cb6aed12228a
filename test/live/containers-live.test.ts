/**
 * Profiling a .NET process in a container from the host (issue 41), with real namespaces: the
 * workload runs under `unshare --pid --mount --fork` with a private tmpfs on /tmp, so it is PID 1
 * in its own PID namespace and its diagnostics socket is invisible in the host's /tmp — what a
 * Docker, Podman or Kubernetes container looks like to the host. Where the machine lets the test
 * make a cgroup, the process is also moved into one named the way Docker's systemd driver names a
 * container's (`docker-<64 hex>.scope`), so its container id is read from its real
 * /proc/PID/cgroup. Then, from outside: `gcscope ps` lists it with its inner PID and container;
 * `gcscope record --pid` and `gcscope watch --pid` store exactly the GCs the runtime counted
 * (GC.CollectionCount) while attached; and the CLI run as another user (nobody) says in one line
 * why it cannot reach the process and the command to run instead.
 *
 * Needs root and unshare (CI runs as root): skipped with the reason elsewhere, failed under CI=true.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processStartKey } from '../../src-main/diagnostics/discovery.js';
import { processUid } from '../../src-main/diagnostics/containers.js';
import type { GcRecord } from '../../src-main/shared/gc-record.js';
import { Database } from '../../src-main/store/db.js';
import { getGcRecords } from '../../src-main/store/gc-store.js';
import { getSession } from '../../src-main/store/sessions.js';
import { BIN, runCli } from '../helpers/cli.js';
import { skipOrFail } from '../helpers/environment.js';
import {
  namespacesMissingReason,
  readableWorkloadCommand,
  rootlessMissingReason,
  startNamespacedWorkload,
  type NamespacedWorkload,
} from '../helpers/namespaced-workload.js';
import { cliReadableBy } from '../helpers/readable-cli.js';
import { buildWorkload, dotnetMissingReason, MODE_ENV, parseWorkloadOutput } from '../workloads/workload.js';

const DIR = join(process.cwd(), 'test-output', 'containers-live');
let skip = false;
const started: NamespacedWorkload[] = [];

beforeEach((ctx) => {
  if (skip) ctx.skip();
});

beforeAll(async () => {
  skip = skipOrFail((await dotnetMissingReason()) ?? namespacesMissingReason(), 'profiling a .NET process in its own PID and mount namespaces');
  if (skip) return;
  await buildWorkload();
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
}, 300_000);

afterAll(async () => {
  for (const w of started) await w.kill();
  for (const c of readableClis.values()) c.cleanup();
});

const byGen = (rows: GcRecord[]): number[] => [0, 1, 2].map((g) => rows.filter((x) => x.generation === g).length);

/** Runs the CLI and resolves once its stderr matches `ready`, with the exit still to come. */
function startCli(args: string[], ready: RegExp): { attached: Promise<string>; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let onReady!: (s: string) => void;
  let onFail!: (e: Error) => void;
  const attached = new Promise<string>((res, rej) => ((onReady = res), (onFail = rej)));
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (ready.test(stderr)) onReady(stderr);
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((res) =>
    child.on('close', (code) => {
      onFail(new Error(`gcscope ${args.join(' ')} ended (${code}) before attaching: ${stderr}`));
      res({ code, stdout, stderr });
    }),
  );
  return { attached, done };
}

/** The built CLI as `uid` can run it (a copy when the checkout is private: test/helpers/readable-cli.ts). */
const readableClis = new Map<number, { bin: string; cleanup: () => void }>();
function binFor(uid: number): string {
  let c = readableClis.get(uid);
  if (c === undefined) readableClis.set(uid, (c = cliReadableBy(uid, uid)));
  return c.bin;
}

/** The built CLI run as another (unprivileged) uid, with a HOME it may write to. */
function asUser(uid: number, home: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, binFor(uid), ...args], {
    env: { ...process.env, HOME: home },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder any user may write a database to. */
function openDir(): string {
  const home = mkdtempSync(join(tmpdir(), 'gcscope-other-user-'));
  chmodSync(home, 0o777);
  return home;
}

async function expectCountsEqual(w: NamespacedWorkload, dbPath: string, sessionId: number): Promise<void> {
  const final = parseWorkloadOutput(w.output()).counts!;
  const ready = await w.ready;
  const d = await Database.open(dbPath);
  try {
    const rows = await getGcRecords(d, sessionId);
    expect(rows.length).toBeGreaterThan(10);
    expect(byGen(rows), 'GCs per generation: GCScope from the host vs GC.CollectionCount inside').toEqual([
      final.exactGen0 - ready.exactGen0,
      final.exactGen1 - ready.exactGen1,
      final.exactGen2 - ready.exactGen2,
    ]);
    expect(rows.every((x) => x.isComplete)).toBe(true);
    const s = await getSession(d, sessionId);
    // The session is like any other: named and keyed by the PID the host sees.
    expect(s.processId).toBe(w.hostPid);
    expect(s.processName).toBe('GcWorkload');
    expect(s.runtimeVersion).toBe(ready.runtime);
  } finally {
    await d.close();
  }
}

describe('a .NET process in its own PID and mount namespaces, seen from the host', () => {
  it('gcscope ps lists it with its PID inside (1) and its container, though its socket is not in the host /tmp', async () => {
    const w = await startNamespacedWorkload(['--scenario', 'churn', '--seconds', '30'], started);
    const ready = await w.ready;
    expect(ready.pid, 'the runtime is PID 1 in its namespace').toBe(1);
    const key = processStartKey(w.hostPid)!;
    expect(existsSync(`/tmp/dotnet-diagnostic-1-${key}-socket`), 'socket hidden from the host /tmp').toBe(false);
    expect(readdirSync('/tmp').some((n) => n.startsWith(`dotnet-diagnostic-${w.hostPid}-`))).toBe(false);

    const js = await runCli(['ps', '--json']);
    expect(js.code, js.stderr).toBe(0);
    const me = (
      JSON.parse(js.stdout) as { processes: { pid: number; innerPid: number | null; name: string; container: { id: string; engine: string } | null }[] }
    ).processes.find((p) => p.pid === w.hostPid);
    expect(me, 'listed by ps --json').toBeDefined();
    expect(me!.name).toBe('GcWorkload');
    expect(me!.innerPid).toBe(1);
    if (w.containerId !== undefined) expect(me!.container).toMatchObject({ id: w.containerId, engine: 'docker' });
    else expect(me!.container).toBeNull();

    const text = await runCli(['ps']);
    const row = text.stdout.split('\n').find((l) => l.trimStart().startsWith(`${w.hostPid} `));
    expect(row, text.stdout).toBeDefined();
    expect(row).toContain(w.containerId !== undefined ? `${w.containerId.slice(0, 12)} (docker), PID 1` : 'own PID namespace, PID 1');
    await w.kill();
  });

  it('gcscope record --pid <host pid> attaches through /proc/PID/root and stores exactly the GCs the runtime counted, per generation', async () => {
    const w = await startNamespacedWorkload(['--scenario', 'mixed', '--iterations', '1', '--wait-for-input'], started);
    await w.ready;
    const dbPath = join(DIR, 'record.db');
    const rec = startCli(['record', '--pid', String(w.hostPid), '--db', dbPath, '--out', join(DIR, 'traces')], /^recording /m);
    const line = await rec.attached;
    expect(line).toContain(`(pid ${w.hostPid}, PID 1 inside its container, .NET`);
    w.go();
    const r = await rec.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Session 1: the process ended/);
    await expectCountsEqual(w, dbPath, 1);
  });

  it('gcscope watch --pid <host pid> stores exactly the GCs the runtime counted, per generation', async () => {
    const w = await startNamespacedWorkload(['--scenario', 'mixed', '--iterations', '1', '--wait-for-input'], started);
    await w.ready;
    const dbPath = join(DIR, 'watch.db');
    const watch = startCli(['watch', '--pid', String(w.hostPid), '--db', dbPath, '--out', join(DIR, 'captures')], /^watching /m);
    expect(await watch.attached).toContain(`(pid ${w.hostPid}, PID 1 inside its container, .NET`);
    w.go();
    const r = await watch.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/watch ended \(the process ended\)/);
    await expectCountsEqual(w, dbPath, 1);
  });

  it('run as another user, the CLI says in one line why it cannot reach the process and what to run instead', async () => {
    const w = await startNamespacedWorkload(['--scenario', 'churn', '--seconds', '30'], started);
    await w.ready;
    const home = openDir();
    try {
      const r = asUser(65534, home, ['record', '--pid', String(w.hostPid), '--db', join(home, 'n.db')]);
      expect(r.code).toBe(2);
      const where = w.containerId !== undefined ? `PID 1 in docker container ${w.containerId.slice(0, 12)}` : 'PID 1 in another PID namespace';
      expect(r.stderr).toBe(
        `gcscope: process ${w.hostPid} (${where}): GCScope reaches its /tmp through /proc/${w.hostPid}/root, which needs root, and GCScope runs as user nobody (uid 65534) — run: sudo gcscope record --pid ${w.hostPid} --db ${join(home, 'n.db')}\n`,
      );
      const watch = asUser(65534, home, ['watch', '--pid', String(w.hostPid), '--db', join(home, 'n.db')]);
      expect(watch.code).toBe(2);
      expect(watch.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
      expect(watch.stderr).toContain(`— run: sudo gcscope watch --pid ${w.hostPid}`);
      // ps: the container it cannot look into is one line on stderr (only a cgroup-named container counts).
      const ps = asUser(65534, home, ['ps']);
      expect(ps.code).toBe(0);
      if (w.containerId !== undefined)
        expect(ps.stderr).toMatch(
          /^gcscope: (1 process in a container|\d+ processes in containers) cannot be looked into as user nobody \(uid 65534\): .* — run: sudo gcscope ps\n$/,
        );
    } finally {
      rmSync(home, { recursive: true, force: true });
      await w.kill();
    }
  });
  it("another user's process, in a container or not, seen by an unprivileged CLI: one line saying why and the sudo command to run", async () => {
    // The runtime runs as nobody; the CLI as uid 65533, a third user.
    const w = await startNamespacedWorkload(['--scenario', 'churn', '--seconds', '30'], started, { uid: 65534 });
    await w.ready;
    const { command, args } = readableWorkloadCommand();
    const plain = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', command, ...args, '--scenario', 'churn', '--seconds', '30'], {
      cwd: '/var/tmp',
      env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', ...MODE_ENV.concurrent },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const home = openDir();
    try {
      let out = '';
      plain.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const end = Date.now() + 60_000;
      while (!/^GCSCOPE-READY /m.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(processUid(w.hostPid), 'the namespaced runtime runs as nobody').toBe(65534);
      expect(processUid(plain.pid!), 'the plain runtime runs as nobody').toBe(65534);
      const db = join(home, 'n.db');
      const inContainer = asUser(65533, home, ['record', '--pid', String(w.hostPid), '--db', db]);
      expect(inContainer.code).toBe(2);
      const where = w.containerId !== undefined ? `PID 1 in docker container ${w.containerId.slice(0, 12)}` : 'PID 1 in another PID namespace';
      expect(inContainer.stderr).toBe(
        `gcscope: process ${w.hostPid} (${where}): GCScope reaches its /tmp through /proc/${w.hostPid}/root, which needs root, and GCScope runs as uid 65533 — run: sudo gcscope record --pid ${w.hostPid} --db ${db}\n`,
      );
      // Not in a container: its socket is in the shared /tmp, but it belongs to nobody.
      const local = asUser(65533, home, ['record', '--pid', String(plain.pid), '--db', db]);
      expect(local.code).toBe(2);
      expect(local.stderr).toMatch(
        new RegExp(
          `^gcscope: permission denied connecting to process ${plain.pid}'s diagnostics socket \\(/tmp/dotnet-diagnostic-${plain.pid}-\\d+-socket\\): it belongs to another user; only that user or root can attach — run: sudo gcscope record --pid ${plain.pid} --db ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`,
        ),
      );
    } finally {
      plain.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
      await w.kill();
    }
  });

  it('a rootless container (its user made the namespaces, as rootless Podman does) is reached by that same user without sudo', async (ctx) => {
    const reason = rootlessMissingReason(65534);
    if (reason !== undefined) {
      console.warn(`SKIPPED rootless container test: ${reason}`);
      ctx.skip();
    }
    const w = await startNamespacedWorkload(['--scenario', 'mixed', '--iterations', '1', '--wait-for-input'], started, { uid: 65534, rootless: true });
    await w.ready;
    expect(processUid(w.hostPid)).toBe(65534);
    const home = openDir();
    try {
      const ps = asUser(65534, home, ['ps', '--json']);
      expect(ps.code, ps.stderr).toBe(0);
      const me = (JSON.parse(ps.stdout) as { processes: { pid: number; innerPid: number | null }[] }).processes.find((p) => p.pid === w.hostPid);
      expect(me?.innerPid).toBe(1);
      const db = join(home, 'rootless.db');
      const rec = spawn(
        'setpriv',
        [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          binFor(65534),
          'record',
          '--pid',
          String(w.hostPid),
          '--db',
          db,
          '--out',
          join(home, 'traces'),
        ],
        {
          env: { ...process.env, HOME: home },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let err = '';
      rec.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const end = Date.now() + 60_000;
      while (!/^recording /m.test(err) && rec.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(err).toContain(`(pid ${w.hostPid}, PID 1 inside its container, .NET`);
      w.go();
      const code = await new Promise<number | null>((r) => rec.on('close', r));
      expect(code, err).toBe(0);
      await expectCountsEqual(w, db, 1);
    } finally {
      rmSync(home, { recursive: true, force: true });
      await w.kill();
    }
  });
});
