/**
 * The oracle (dotnet-gcdump) and the heap workload (test/workloads/HeapWorkload): found or built
 * once, skipped with a printed reason when missing, a failure under CI=true (skipOrFail).
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { dotnetMissingReason } from '../workloads/workload.js';

const exec = promisify(execFile);

export function findDotnetGcdump(): string | undefined {
  const candidates = [join(homedir(), '.dotnet', 'tools', 'dotnet-gcdump')];
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir.length > 0) candidates.push(join(dir, 'dotnet-gcdump'));
  return candidates.find((c) => existsSync(c));
}

/** Why the live heap tests cannot run here, or undefined. */
export async function heapOracleMissingReason(): Promise<string | undefined> {
  const dotnet = await dotnetMissingReason();
  if (dotnet !== undefined) return dotnet;
  if (findDotnetGcdump() === undefined) return 'dotnet-gcdump is not installed (dotnet tool install -g dotnet-gcdump)';
  return undefined;
}

const DIR = fileURLToPath(new URL('../workloads/HeapWorkload/', import.meta.url));

/** Builds the heap workload once per source hash (under its git-ignored bin/); returns its dll. */
export async function buildHeapWorkload(): Promise<string> {
  const h = createHash('sha256');
  for (const f of readdirSync(DIR)
    .filter((x) => /\.(cs|csproj)$/.test(x))
    .sort())
    h.update(f).update(readFileSync(join(DIR, f)));
  const out = join(DIR, 'bin', 'gcscope-build', h.digest('hex').slice(0, 16));
  const dll = join(out, 'HeapWorkload.dll');
  if (existsSync(dll)) return dll;
  mkdirSync(out, { recursive: true });
  await exec('dotnet', ['build', DIR, '-c', 'Release', '-o', out, '--nologo', '-v', 'q'], { timeout: 240_000 });
  return dll;
}

/** The heap workload running: it printed "ready PID" and idles; `send` talks to its stdin. */
export interface Workload {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /** Sends a line and waits for the line the workload answers with. */
  send(line: string, answer: RegExp): Promise<string>;
}

export async function startWorkload(dll: string, customers: number): Promise<Workload> {
  const child = spawn('dotnet', [dll, String(customers)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  const waiters: { re: RegExp; resolve: (s: string) => void }[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const m = w.re.exec(out);
      if (m !== null) {
        out = out.slice(m.index + m[0].length);
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[0]);
      }
    }
  });
  const wait = (re: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      waiters.push({ re, resolve });
      setTimeout(() => reject(new Error(`the workload did not print ${re}`)), 60_000).unref();
    });
  const ready = await wait(/ready (\d+)\n/);
  return {
    child,
    pid: Number(/ready (\d+)/.exec(ready)![1]),
    send: (line, answer) => {
      const p = wait(answer);
      child.stdin.write(line + '\n');
      return p;
    },
  };
}
