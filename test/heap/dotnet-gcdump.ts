/** Finding dotnet-gcdump (the oracle): skip with a reason when it is missing, fail under CI=true. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

export function findDotnetGcdump(): string | undefined {
  const candidates = [join(homedir(), '.dotnet', 'tools', 'dotnet-gcdump')];
  try {
    candidates.push(execFileSync('which', ['dotnet-gcdump'], { encoding: 'utf8' }).trim());
  } catch {
    // not on PATH
  }
  return candidates.find((c) => c.length > 0 && existsSync(c));
}

export function requireOrSkip(ctx: { skip: (note?: string) => void }, tool: string | undefined, what = 'dotnet-gcdump'): boolean {
  if (tool !== undefined) return true;
  const reason = `${what} is not installed (dotnet tool install -g dotnet-gcdump)`;
  if (process.env.CI === 'true') throw new Error(reason);
  console.warn(`skipped: ${reason}`);
  ctx.skip(reason);
  return false;
}
