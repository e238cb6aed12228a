/** `gcscope events`: what a user sees on the terminal and in --json, and the exit codes. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRACES, traceBytes } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { gcStartV2, V4Builder, type BuiltEvent } from '../helpers/nettrace-builder.js';

const OUT = join(process.cwd(), 'test-output', 'cli');
mkdirSync(OUT, { recursive: true });

describe('gcscope events', () => {
  it('prints the header and PerfView-named counts for a zipped trace', async () => {
    const r = await runCli(['events', TRACES + 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Format:\s+NetTrace V4/);
    expect(r.stdout).toMatch(/Process id:\s+10064/);
    expect(r.stdout).toMatch(/Pointer size:\s+8 bytes/);
    expect(r.stdout).toMatch(/CPUs:\s+4/);
    expect(r.stdout).toMatch(/Clock:\s+3,124,099 ticks\/s/);
    expect(r.stdout).toMatch(/Start time:\s+2019-06-15T23:56:59\.754Z/);
    expect(r.stdout).toMatch(/^\s+478\s+Microsoft-Windows-DotNETRuntime\/GC\/Start$/m);
    expect(r.stdout).toMatch(/^\s+35,458\s+Microsoft-Windows-DotNETRuntime\/GC\/AllocationTick$/m);
  });

  it('--json gives one object with trace, counts, totalEvents and droppedEvents', async () => {
    const r = await runCli(['events', '--json', TRACES + 'wait.nettrace']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown> & { counts: Record<string, number>; trace: Record<string, unknown> };
    expect(j.totalEvents).toBe(11663);
    expect(j.droppedEvents).toBe(0);
    expect(j.trace).toMatchObject({
      format: 'NetTrace',
      formatName: 'NetTrace V5',
      processId: 72192,
      pointerSize: 8,
      numberOfProcessors: 32,
      qpcFrequency: 10_000_000,
    });
    expect(j.counts['Microsoft-Windows-DotNETRuntime/GC/Start']).toBe(6);
    // EventSource events by the name in their metadata; GCDynamicEvent by its sub-event.
    expect(j.counts['Microsoft-DotNETCore-EventPipe/ProcessInfo']).toBe(1);
    expect(j.counts['Microsoft-Windows-DotNETRuntime/GC/CommittedUsage']).toBeGreaterThan(0);
    expect(Object.values(j.counts).reduce((a, b) => a + b, 0)).toBe(11663);
  });

  it('a broken file exits 2 with one line naming the problem and byte offset', async () => {
    const f = join(OUT, 'broken.nettrace');
    const b = traceBytes('eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip').slice();
    b[0x21] = 0x77; // the Trace object's begin tag
    writeFileSync(f, b);
    const r = await runCli(['events', f]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/broken\.nettrace: bad-tag: expected begin-object tag 5 for the type, found 119 \(at byte offset 33\)$/m);
  });

  it('the NetPerf V2 file exits 2 with "unsupported trace format version 2"', async () => {
    const r = await runCli(['events', TRACES + 'eventpipe-dotnetcore2.0-linux-objver2.netperf.zip']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unsupported trace format version 2/);
  });

  it('a truncated file prints what it read, then exits 2 naming where it stops', async () => {
    const f = join(OUT, 'cut.nettrace');
    const b = traceBytes('wait.nettrace');
    writeFileSync(f, b.subarray(0, 1_000_000));
    const r = await runCli(['events', '--json', f]);
    expect(r.code).toBe(2);
    const j = JSON.parse(r.stdout) as { state: string; totalEvents: number; error: { code: string; offset: number } };
    expect(j.state).toBe('truncated');
    expect(j.totalEvents).toBeGreaterThan(1000);
    expect(j.error.code).toBe('truncated');
    expect(r.stderr).toMatch(/trace is truncated.*at byte offset \d+/);
  });

  it('a file that does not exist exits 2', async () => {
    const r = await runCli(['events', join(OUT, 'missing.nettrace')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file/);
  });

  it('says in the text, as --json does, how many runtime events could not be decoded (a GCStart of 3 bytes)', async () => {
    const RT = 'Microsoft-Windows-DotNETRuntime';
    const ev = (seq: number, t: bigint, payload: Uint8Array): BuiltEvent => ({
      metadataId: 1,
      threadId: 5,
      captureThreadId: 5,
      sequenceNumber: seq,
      timestamp: 1000n + t,
      payload,
    });
    const bytes = new V4Builder()
      .trace({ syncQpc: 1000n, freq: 10_000_000, pointerSize: 8, pid: 42 })
      .metadata([{ id: 1, provider: RT, eventId: 1, version: 2 }])
      .events([ev(1, 10n, gcStartV2(1, 0, 0, 0)), ev(2, 20n, new Uint8Array([1, 2, 3]))])
      .end();
    const file = join(OUT, 'short-gcstart.nettrace');
    writeFileSync(file, bytes);
    const json = JSON.parse((await runCli(['events', '--json', file])).stdout) as { gcDecodeErrors: number };
    expect(json.gcDecodeErrors).toBe(1);
    const r = await runCli(['events', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Undecodable: {2}1 runtime event with a payload that does not fit the event's layout \(the GC analysis skips it\)$/m);
    // A clean trace has no such line.
    expect((await runCli(['events', TRACES + 'wait.nettrace'])).stdout).not.toMatch(/Undecodable/);
  });
});
