/**
 * The GC workload (test/workloads) in a container as the host sees one, made with util-linux's
 * `unshare` instead of a container engine (none is installed in CI, and none is needed): its own
 * PID namespace (the runtime is PID 1 there), its own mount namespace with a private tmpfs on
 * /tmp (its diagnostics socket is invisible in the host's /tmp), and /proc remounted for the new
 * PID namespace (what every engine does; the runtime reads its start time there to name its
 * socket). Where a cgroup v2 hierarchy can be written, the process is moved into a cgroup named
 * the way Docker's systemd driver names a container's (`docker-<64 hex>.scope`), so its
 * container id comes from its real /proc/PID/cgroup. Needs root.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { makeWorldReadable } from './readable-cli.js';
import { MODE_ENV, workloadCommand, type WorkloadCounts } from '../workloads/workload.js';

/** Why namespaced workloads cannot run here, or undefined when they can. */
export function namespacesMissingReason(): string | undefined {
  if (process.platform !== 'linux') return 'PID and mount namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating PID and mount namespaces (unshare) and mounting a tmpfs needs root';
  try {
    execFileSync('unshare', ['--pid', '--mount', '--fork', '--mount-proc', 'sh', '-c', 'mount -t tmpfs gcscope-probe /tmp'], {
      stdio: 'pipe',
      timeout: 10_000,
    });
    return undefined;
  } catch (e) {
    return `unshare --pid --mount --fork with a tmpfs on /tmp does not work here: ${(e as Error).message.split('\n')[0]}`;
  }
}

export interface NamespacedWorkload {
  child: ChildProcess;
  /** The GCSCOPE-READY line: `pid` is the PID inside the namespace. */
  ready: Promise<WorkloadCounts & { pid: number; runtime: string }>;
  /** The runtime's PID as the host sees it (known once ready resolved). */
  hostPid: number;
  /** The 64-hex id of the docker-named cgroup it was moved into, or undefined where none could be made. */
  containerId: string | undefined;
  output: () => string;
  /** Lets a `--wait-for-input` workload run its scenarios. */
  go: () => void;
  /** Kills it and removes its cgroup. */
  kill: () => Promise<void>;
}

/** Where cgroup v2 is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid system). */
function cgroup2Mount(): string | undefined {
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [pre, post] = line.split(' - ');
    if (post?.startsWith('cgroup2 ') === true) return pre!.split(' ')[4];
  }
  return undefined;
}

let warned = false;

/** Moves `pid` into a new docker-named cgroup; returns its id and folder, or undefined (with a printed reason, once). */
function intoContainerCgroup(pid: number): { id: string; dir: string } | undefined {
  const mnt = cgroup2Mount();
  const id = randomBytes(32).toString('hex');
  const dir = mnt === undefined ? '' : join(mnt, 'gcscope-test', `docker-${id}.scope`);
  try {
    if (mnt === undefined) throw new Error('no cgroup2 hierarchy is mounted');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cgroup.procs'), String(pid));
    return { id, dir };
  } catch (e) {
    if (!warned) console.warn(`NOTE: the namespaced workload is in no container-named cgroup (${(e as Error).message}): only its inner PID is checked`);
    warned = true;
    try {
      if (dir !== '') rmdirSync(dir);
    } catch {
      // not made
    }
    return undefined;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts the (built) .NET 10 workload in its own PID and mount namespaces, in workstation GC with background GCs. */
/**
 * Why an unprivileged user cannot make its own user, PID and mount namespaces here (what rootless
 * Podman does), or undefined when it can. Some kernels forbid it by policy
 * (kernel.unprivileged_userns_clone=0, Ubuntu's kernel.apparmor_restrict_unprivileged_userns=1).
 */
export function rootlessMissingReason(uid: number): string | undefined {
  const base = namespacesMissingReason();
  if (base !== undefined) return base;
  try {
    execFileSync(
      'setpriv',
      [
        `--reuid=${uid}`,
        `--regid=${uid}`,
        '--clear-groups',
        'unshare',
        '--user',
        '--map-root-user',
        '--pid',
        '--mount',
        '--fork',
        '--mount-proc',
        'sh',
        '-c',
        'mount -t tmpfs gcscope-probe /tmp',
      ],
      { stdio: 'pipe', timeout: 10_000 },
    );
    return undefined;
  } catch (e) {
    return `this kernel does not let an unprivileged user create user namespaces (a policy, not a missing tool): ${(e as Error).message.split('\n')[0]}`;
  }
}

let readableDir: string | undefined;
/**
 * The workload's command, run from a world-readable copy outside /tmp. The namespaced runtime
 * gets a private tmpfs on /tmp, which hides a checkout cloned under /tmp (`mktemp -d`), and a
 * runtime run as another user cannot read a checkout in a private (mode 700) folder: both made
 * every test here fail from a fresh clone in `mktemp -d`. /var/tmp is not under /tmp.
 */
export function readableWorkloadCommand(): { command: string; args: string[] } {
  const { command, args } = workloadCommand();
  const file = args[0] ?? command;
  const src = dirname(file);
  if (readableDir === undefined) {
    const dst = join('/var/tmp', `gcscope-ns-workload-${process.pid}`);
    if (!existsSync(dst)) cpSync(src, dst, { recursive: true });
    makeWorldReadable(dst);
    chmodSync(dst, 0o755);
    readableDir = dst;
  }
  const moved = (p: string): string => (p.startsWith(src) ? join(readableDir!, relative(src, p)) : p);
  return { command: moved(command), args: args.map(moved) };
}

export async function startNamespacedWorkload(
  args: string[],
  started?: NamespacedWorkload[],
  opts: { uid?: number; rootless?: boolean } = {},
): Promise<NamespacedWorkload> {
  const { command, args: pre } = readableWorkloadCommand();
  // Another user's process: the namespaces and the mount are made as root, then the runtime runs as
  // that uid. Rootless (rootless Podman's way): that user makes the namespaces itself, in a user
  // namespace where it is root.
  const asUser = opts.uid !== undefined ? ['setpriv', `--reuid=${opts.uid}`, `--regid=${opts.uid}`, '--clear-groups'] : [];
  const child = spawn(
    opts.rootless === true ? asUser[0]! : 'unshare',
    [
      ...(opts.rootless === true ? [...asUser.slice(1), 'unshare', '--user', '--map-root-user'] : []),
      '--pid',
      '--mount',
      '--fork',
      '--mount-proc',
      '--kill-child',
      'sh',
      '-c',
      'mount -t tmpfs -o size=64m,mode=1777 gcscope-tmp /tmp && exec "$@"',
      'sh',
      ...(opts.rootless === true ? [] : asUser),
      command,
      ...pre,
      ...args,
    ],
    // Its working folder outside /tmp too: the dotnet host reads it, and a checkout under /tmp is gone once the tmpfs is mounted.
    { cwd: readableDir, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', ...MODE_ENV.concurrent }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const w: NamespacedWorkload = {
    child,
    hostPid: 0,
    containerId: undefined,
    output: () => out,
    go: () => void child.stdin.write('\n'),
    ready: undefined as unknown as NamespacedWorkload['ready'],
    kill: async () => {
      if (w.hostPid > 0) {
        try {
          process.kill(w.hostPid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      if (cg !== undefined) {
        // The cgroup can be removed once its last process has been reaped.
        for (let i = 0; i < 50; i++) {
          try {
            rmdirSync(cg.dir);
            break;
          } catch {
            await sleep(100);
          }
        }
        try {
          // The shared parent too, once no other test's cgroup is in it.
          rmdirSync(dirname(cg.dir));
        } catch {
          // another one is still there
        }
        cg = undefined;
      }
    },
  };
  let cg: { id: string; dir: string } | undefined;
  started?.push(w);
  w.ready = (async () => {
    const end = Date.now() + 60_000;
    let m: RegExpExecArray | null = null;
    while ((m = /^GCSCOPE-READY (.*)$/m.exec(out)) === null) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the namespaced workload exited before it was ready: ${err}`);
      if (Date.now() > end) throw new Error(`the namespaced workload was not ready within 60 s: ${err}`);
      await sleep(50);
    }
    // unshare --fork's one child (the shell, which exec'd the runtime) is the runtime.
    const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    w.hostPid = Number(kids[0]);
    cg = intoContainerCgroup(w.hostPid);
    w.containerId = cg?.id;
    return JSON.parse(m[1]!) as WorkloadCounts & { pid: number; runtime: string };
  })();
  return w;
}
