/**
 * The oracle (dotnet-gcdump) and the heap workload (test/workloads/HeapWorkload): found or built
 * once, skipped with a printed reason when missing, a failure under CI=true (skipOrFail).
 */
import { execFile } from 'node:child_process';
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
