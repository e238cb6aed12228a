/**
 * Finding the diagnostics endpoint of .NET processes (docs/formats.md §1.1):
 * - Unix: `dotnet-diagnostic-{pid}-{key}-socket` in the target's TMPDIR (read from
 *   /proc/{pid}/environ where allowed; else our own temp dir and /tmp); the newest match wins
 *   (a `dotnet-diagnostic-dsrouter-{pid}-*` socket is preferred when newer).
 *   On Linux `{key}` is the process's start time (field 22 of /proc/{pid}/stat, clock ticks since
 *   boot: the runtime's "disambiguation key"). A socket whose key is not the start time of the
 *   process now holding that PID was left by an earlier process (killed before it could delete it)
 *   whose PID has been reused: it is ignored, or a non-.NET process would be reported as "not
 *   listening" instead of "not a .NET process".
 * - Linux, a process in another PID or mount namespace (a container): the runtime names its socket
 *   with the PID it has inside its namespace (the last value of `NSpid:` in /proc/{pid}/status) and
 *   puts it in its own /tmp (or TMPDIR), which the host reaches through /proc/{pid}/root (ptrace-read
 *   access: the same user without a setuid/capability change, or root). Processes that share a mount
 *   namespace share a /tmp, so each namespace's directories are read once, through one of them.
 *   Connecting to `/proc/{pid}/root/tmp/dotnet-diagnostic-…` works like any socket path.
 * - Windows: the named pipe `\\.\pipe\dotnet-diagnostic-{pid}` (dsrouter's preferred if present).
 * When a PID has no endpoint, `explainMissing` says why in words the user can act on.
 */
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticsError, type Endpoint } from './transport.js';
import { containerOf, processUid, readCgroupContainer } from './containers.js';
import { rerunAsRoot } from './rerun.js';

const SOCKET_RE = /^dotnet-diagnostic-(dsrouter-)?(\d+)-(\d+)-socket$/;
const PIPE_RE = /^dotnet-diagnostic-(dsrouter-)?(\d+)$/;

function readEnviron(pid: number): Map<string, string> | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
    const m = new Map<string, string>();
    for (const kv of raw.split('\0')) {
      const i = kv.indexOf('=');
      if (i > 0) m.set(kv.slice(0, i), kv.slice(i + 1));
    }
    return m;
  } catch {
    return undefined;
  }
}

/** Directories where Unix endpoints may be: ours, /tmp, and every TMPDIR we can read from /proc. */
function candidateDirs(pid?: number): string[] {
  const dirs = new Set<string>();
  if (pid !== undefined) {
    const t = readEnviron(pid)?.get('TMPDIR');
    if (t !== undefined && t !== '') dirs.add(t);
  } else if (process.platform === 'linux') {
    try {
      for (const p of readdirSync('/proc')) {
        if (!/^\d+$/.test(p)) continue;
        const t = readEnviron(Number(p))?.get('TMPDIR');
        if (t !== undefined && t !== '') dirs.add(t);
      }
    } catch {
      // no /proc: only the defaults
    }
  }
  dirs.add(tmpdir());
  dirs.add('/tmp');
  return [...dirs];
}

/** The start time of a Linux process in clock ticks since boot, or undefined where it cannot be read. */
export function processStartKey(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and ')': the fields
  // after the last ')' start at field 3 (state), so the start time (field 22) is the 20th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const key = fields[19];
  return key !== undefined && /^\d+$/.test(key) ? key : undefined;
}

/** The PID inside the process's innermost PID namespace (last `NSpid:` value), or undefined (no such line before Linux 4.1, or gone). */
export function innerPidOf(pid: number): number | undefined {
  try {
    const m = /^NSpid:\s*([\d\s]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m === null) return undefined;
    const ids = m[1]!.trim().split(/\s+/);
    return Number(ids[ids.length - 1]);
  } catch {
    return undefined;
  }
}

/** The mount namespace's identity (`mnt:[4026531840]`), or undefined where it cannot be read (another user's process, without root). */
function mountNamespace(pid: number | 'self'): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/mnt`);
  } catch {
    return undefined;
  }
}

/** Where a process lives relative to GCScope: its inner PID and whether its /tmp is not ours. */
export interface ProcessNamespace {
  pid: number;
  innerPid: number;
  /** Another PID namespace (innerPid ≠ pid) or another mount namespace: its sockets are found through /proc/{pid}/root. */
  foreign: boolean;
  /** The mount namespace, or undefined when unreadable (then /proc/{pid}/root is unreadable too). */
  mnt: string | undefined;
}

export function namespaceOf(pid: number, selfMnt = mountNamespace('self')): ProcessNamespace | undefined {
  if (process.platform !== 'linux') return undefined;
  const inner = innerPidOf(pid);
  if (inner === undefined) return undefined;
  const mnt = mountNamespace(pid);
  return { pid, innerPid: inner, mnt, foreign: inner !== pid || (mnt !== undefined && selfMnt !== undefined && mnt !== selfMnt) };
}

interface Found extends Endpoint {
  mtimeMs: number;
  dsrouter: boolean;
}

function scanUnix(dirs: string[], pid?: number): Found[] {
  const out: Found[] = [];
  const startKeys = new Map<number, string | undefined>();
  const startKey = (p: number): string | undefined => {
    if (!startKeys.has(p)) startKeys.set(p, processStartKey(p));
    return startKeys.get(p);
  };
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      const m = SOCKET_RE.exec(n);
      if (m === null) continue;
      const p = Number(m[2]);
      if (pid !== undefined && p !== pid) continue;
      // dsrouter names its socket after its own start, not the target's: only the runtime's own is checked.
      const key = startKey(p);
      if (m[1] === undefined && key !== undefined && key !== m[3]) continue;
      const path = join(dir, n);
      try {
        out.push({ path, pid: p, mtimeMs: statSync(path).mtimeMs, dsrouter: m[1] !== undefined });
      } catch {
        // vanished
      }
    }
  }
  return out;
}

function scanPipes(pid?: number): Found[] {
  let names: string[] = [];
  try {
    names = readdirSync('\\\\.\\pipe\\');
  } catch {
    return [];
  }
  const out: Found[] = [];
  for (const n of names) {
    const m = PIPE_RE.exec(n);
    if (m === null) continue;
    const p = Number(m[2]);
    if (pid === undefined || p === pid) out.push({ path: `\\\\.\\pipe\\${n}`, pid: p, mtimeMs: 0, dsrouter: m[1] !== undefined });
  }
  return out;
}

/**
 * Sockets of processes in other namespaces, read through /proc/{pid}/root: per mount namespace, its
 * members' TMPDIRs and /tmp, each socket matched to the member whose inner PID names it and whose
 * start time is its key (a socket left by an earlier process with that inner PID is ignored).
 */
function scanForeign(targets: ProcessNamespace[]): Found[] {
  const groups = new Map<string, ProcessNamespace[]>();
  for (const t of targets) {
    if (!t.foreign || t.mnt === undefined) continue;
    const g = groups.get(t.mnt);
    if (g === undefined) groups.set(t.mnt, [t]);
    else g.push(t);
  }
  const out: Found[] = [];
  for (const members of groups.values()) {
    const dirs = new Set<string>();
    for (const m of members) {
      const t = readEnviron(m.pid)?.get('TMPDIR');
      if (t !== undefined && t.startsWith('/')) dirs.add(t.replace(/\/+$/, ''));
    }
    dirs.add('/tmp');
    for (const dir of dirs) {
      let names: string[] = [];
      let via: ProcessNamespace | undefined;
      // Through the first member whose root can be read (any of them: they share the mount namespace).
      for (const m of members) {
        try {
          names = readdirSync(`/proc/${m.pid}/root${dir}`);
          via = m;
          break;
        } catch {
          // exited, or not readable: try the next
        }
      }
      if (via === undefined) continue;
      for (const n of names) {
        const sm = SOCKET_RE.exec(n);
        if (sm === null) continue;
        const inner = Number(sm[2]);
        const owner = members.find((m) => m.innerPid === inner && (sm[1] !== undefined || processStartKey(m.pid) === sm[3]));
        if (owner === undefined) continue;
        const path = `/proc/${owner.pid}/root${dir}/${n}`;
        try {
          out.push({ path, pid: owner.pid, innerPid: inner, mtimeMs: statSync(path).mtimeMs, dsrouter: sm[1] !== undefined });
        } catch {
          // vanished
        }
      }
    }
  }
  return out;
}

/** Every process's namespace (Linux), skipping GCScope's own. */
function allNamespaces(): ProcessNamespace[] {
  if (process.platform !== 'linux') return [];
  const selfMnt = mountNamespace('self');
  const out: ProcessNamespace[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const p of pids) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    const ns = namespaceOf(Number(p), selfMnt);
    if (ns !== undefined) out.push(ns);
  }
  return out;
}

/** The newest endpoint per PID (a dsrouter endpoint only when it is at least as new). */
function newestPerPid(found: Found[]): Endpoint[] {
  const best = new Map<number, Found>();
  for (const f of found) {
    const b = best.get(f.pid);
    if (b === undefined || f.mtimeMs > b.mtimeMs || (f.mtimeMs === b.mtimeMs && f.dsrouter)) best.set(f.pid, f);
  }
  return [...best.values()]
    .sort((a, b) => a.pid - b.pid)
    .map(({ path, pid, innerPid }) => (innerPid !== undefined && innerPid !== pid ? { path, pid, innerPid } : { path, pid }));
}

/** Every endpoint visible to this user, those in containers included (stale ones from exited processes too; callers probe). */
export function listEndpoints(): Endpoint[] {
  if (process.platform === 'win32') return newestPerPid(scanPipes());
  return newestPerPid([...scanUnix(candidateDirs()), ...scanForeign(allNamespaces())]);
}

/**
 * How many processes in containers this user cannot look into (their /proc/{pid}/root is
 * unreadable), with the one line saying why and what to run; undefined when there are none.
 * Only processes whose cgroup names a container count: a browser's sandbox has its own PID
 * namespace too, and is no .NET process anyone wants to profile.
 */
export function unreachableContainers(): { count: number; message: string } | undefined {
  if (process.platform !== 'linux') return undefined;
  let count = 0;
  for (const ns of allNamespaces()) {
    if (ns.innerPid === ns.pid || ns.mnt !== undefined) continue;
    if (readCgroupContainer(ns.pid) !== null) count++;
  }
  if (count === 0) return undefined;
  return {
    count,
    message: `${count === 1 ? '1 process in a container' : `${count} processes in containers`} cannot be looked into as ${userName()}: their diagnostics sockets are reached through /proc/PID/root, which needs root — run: ${rerunAsRoot()}`,
  };
}

export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The endpoint for one PID, or a DiagnosticsError that says why there is none. */
export function findEndpoint(pid: number): Endpoint {
  const ns = namespaceOf(pid);
  const found = newestPerPid(process.platform === 'win32' ? scanPipes(pid) : ns?.foreign === true ? scanForeign([ns]) : scanUnix(candidateDirs(pid), pid));
  if (found.length > 0 && processExists(pid)) return found[0]!;
  throw explainMissing(pid);
}

export function explainMissing(pid: number): DiagnosticsError {
  if (!processExists(pid)) return new DiagnosticsError('no-such-process', `no process with id ${pid} is running`);
  if (process.platform === 'linux') {
    const ns = namespaceOf(pid);
    const inner = ns !== undefined && ns.innerPid !== pid ? ns.innerPid : undefined;
    const where = whereIs(pid, inner);
    if (ns !== undefined && ns.mnt === undefined && (inner !== undefined || readCgroupContainer(pid) !== null)) {
      return new DiagnosticsError('permission-denied', `${where}: GCScope reaches its /tmp through /proc/${pid}/root, which ${deniedBecause()}`);
    }
    const env = readEnviron(pid);
    if (env === undefined) {
      const uid = processUid(pid);
      if (process.geteuid?.() === 0)
        return new DiagnosticsError('permission-denied', `${where}: GCScope cannot read /proc/${pid}/environ nor its /tmp, which ${deniedBecause()}`);
      return new DiagnosticsError(
        'permission-denied',
        `process ${pid} runs as ${uid === undefined ? 'another user' : userName(uid)} and GCScope as ${userName()}: only that user or root can attach — run: ${rerunAsRoot()}`,
      );
    }
    const disabled = ['DOTNET_EnableDiagnostics', 'COMPlus_EnableDiagnostics', 'DOTNET_EnableDiagnostics_IPC'].find((k) => env.get(k) === '0');
    if (disabled !== undefined) {
      return new DiagnosticsError(
        'diagnostics-disabled',
        `process ${pid} has diagnostics turned off (${disabled}=0). Restart it without that setting to attach.`,
      );
    }
    let maps = '';
    try {
      maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
    } catch {
      // unreadable: fall through to the generic answer
    }
    if (maps !== '' && !/libcoreclr\.so|libclrjit\.so|System\.Private\.CoreLib/.test(maps)) {
      return new DiagnosticsError('not-dotnet', `process ${pid} is not a .NET (Core 3.0 or later) process: it has no .NET runtime loaded`);
    }
    const tmp = env.get('TMPDIR') || '/tmp';
    const seen = ns?.foreign === true ? `/proc/${pid}/root${tmp}` : tmp;
    return new DiagnosticsError(
      'not-listening',
      `${where} has no diagnostics socket in its ${tmp === '/tmp' ? '/tmp' : `TMPDIR (${tmp})`}${seen !== tmp ? `, seen from here as ${seen}` : ''}: it may still be starting, or its runtime may predate .NET Core 3.0.`,
    );
  }
  return new DiagnosticsError(
    'not-listening',
    `process ${pid} has no diagnostics endpoint: it is not a .NET process, or it runs with DOTNET_EnableDiagnostics=0`,
  );
}

/** `uid 1000 (alice)` for a uid, GCScope's own by default. */
function userName(uid: number | undefined = process.geteuid?.()): string {
  if (uid === undefined) return 'this user';
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length >= 3 && Number(f[2]) === uid) return `user ${f[0]} (uid ${uid})`;
    }
  } catch {
    // no passwd
  }
  return `uid ${uid}`;
}

/** Why /proc/{pid}/root cannot be read by this process. */
function deniedBecause(): string {
  if (process.geteuid?.() !== 0) return `needs root, and GCScope runs as ${userName()} — run: ${rerunAsRoot()}`;
  // Root without ptrace-read access: GCScope in a container of its own (or a debug container)
  // without CAP_SYS_PTRACE, or Yama's ptrace_scope 3 (no attaching at all).
  return 'root may not read here without CAP_SYS_PTRACE — give GCScope that capability (docker run --cap-add=SYS_PTRACE --pid=host, kubectl debug --profile=general) or run it on the host';
}

/** "process 4242 (PID 1 in docker container web)" — the words every message about a process in a container starts with. */
function whereIs(pid: number, inner: number | undefined): string {
  const c = containerOf(pid);
  if (c === null) return inner === undefined ? `process ${pid}` : `process ${pid} (PID ${inner} in another PID namespace)`;
  const label = `${c.engine === 'unknown' ? '' : `${c.engine} `}container ${c.name ?? c.id.slice(0, 12)}`;
  return `process ${pid} (${inner === undefined ? '' : `PID ${inner} `}in ${label})`;
}
