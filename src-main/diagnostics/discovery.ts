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
 * - Windows: the named pipe `\\.\pipe\dotnet-diagnostic-{pid}` (dsrouter's preferred if present).
 * When a PID has no endpoint, `explainMissing` says why in words the user can act on.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticsError, type Endpoint } from './transport.js';

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

/** The newest endpoint per PID (a dsrouter endpoint only when it is at least as new). */
function newestPerPid(found: Found[]): Endpoint[] {
  const best = new Map<number, Found>();
  for (const f of found) {
    const b = best.get(f.pid);
    if (b === undefined || f.mtimeMs > b.mtimeMs || (f.mtimeMs === b.mtimeMs && f.dsrouter)) best.set(f.pid, f);
  }
  return [...best.values()].sort((a, b) => a.pid - b.pid).map(({ path, pid }) => ({ path, pid }));
}

/** Every endpoint visible to this user (stale ones from exited processes included; callers probe). */
export function listEndpoints(): Endpoint[] {
  return newestPerPid(process.platform === 'win32' ? scanPipes() : scanUnix(candidateDirs()));
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
  const found = newestPerPid(process.platform === 'win32' ? scanPipes(pid) : scanUnix(candidateDirs(pid), pid));
  if (found.length > 0 && processExists(pid)) return found[0]!;
  throw explainMissing(pid);
}

export function explainMissing(pid: number): DiagnosticsError {
  if (!processExists(pid)) return new DiagnosticsError('no-such-process', `no process with id ${pid} is running`);
  if (process.platform === 'linux') {
    const env = readEnviron(pid);
    if (env === undefined) {
      return new DiagnosticsError(
        'permission-denied',
        `cannot inspect process ${pid}: it runs as another user (or in another container). Run GCScope as that user, or as root.`,
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
    const tmp = env.get('TMPDIR');
    return new DiagnosticsError(
      'not-listening',
      `process ${pid} has no diagnostics socket${tmp !== undefined ? ` in its TMPDIR (${tmp})` : ' in /tmp'}. If it runs in a container, run GCScope in the same container or share its /tmp.`,
    );
  }
  return new DiagnosticsError(
    'not-listening',
    `process ${pid} has no diagnostics endpoint: it is not a .NET process, or it runs with DOTNET_EnableDiagnostics=0`,
  );
}
