/**
 * Endpoint discovery when /tmp holds sockets of processes that were killed before they could
 * delete them (every SIGKILLed .NET process leaves one) and the kernel has since handed their PID
 * to another process. The runtime names its socket `dotnet-diagnostic-{pid}-{start time}-socket`,
 * so a socket whose start time is not the current holder's belongs to the earlier process.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findEndpoint, listEndpoints, processStartKey } from '../../src-main/diagnostics/discovery.js';
import { DiagnosticsError } from '../../src-main/diagnostics/transport.js';

const linux = process.platform === 'linux';
const made: string[] = [];
afterEach(() => {
  for (const p of made.splice(0)) rmSync(p, { force: true });
});

/** A file named like the runtime's socket for this (Node) process's PID. */
function fakeSocket(key: string): string {
  const path = join(tmpdir(), `dotnet-diagnostic-${process.pid}-${key}-socket`);
  writeFileSync(path, '');
  made.push(path);
  return path;
}

function thrown(f: () => unknown): DiagnosticsError {
  try {
    f();
  } catch (e) {
    if (e instanceof DiagnosticsError) return e;
    throw e;
  }
  throw new Error('expected a DiagnosticsError');
}

describe.skipIf(!linux)('a stale diagnostics socket left under a reused PID', () => {
  it('reads the start time the runtime puts in its socket name from /proc/{pid}/stat', () => {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const key = processStartKey(process.pid);
    expect(key).toMatch(/^\d+$/);
    // field 22, counted from the end of the parenthesised command name
    expect(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]).toBe(key);
  });

  it('recording a non-.NET process whose PID once had a .NET socket says "not a .NET process", not "not listening"', () => {
    const key = processStartKey(process.pid)!;
    fakeSocket(String(BigInt(key) - 1n));
    const e = thrown(() => findEndpoint(process.pid));
    expect(e.code).toBe('not-dotnet');
    expect(e.message).toMatch(/not a \.NET/);
    expect(listEndpoints().some((ep) => ep.pid === process.pid)).toBe(false);
  });

  it('a socket named with the current process start time is still found', () => {
    const path = fakeSocket(processStartKey(process.pid)!);
    expect(findEndpoint(process.pid).path).toBe(path);
    expect(listEndpoints().find((ep) => ep.pid === process.pid)?.path).toBe(path);
  });
});
