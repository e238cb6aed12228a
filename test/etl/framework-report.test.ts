/**
 * `gcscope report` of a .NET Framework 4.5.2 process (net.4.5.2.x64.etl.zip, Test.x64.exe): said
 * to be .NET Framework with its CLR build (its BCL version, 4.0.0.0 for every 4.x, read as
 * ".NET 4.0.0"), what a .NET Framework trace cannot have (a hard limit) is not blamed on how it was
 * recorded, and its per-heap histories (private provider) are in the GC table and the findings.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess as gcscope } from '../helpers/cli-in-process.js';
import { FIXTURES, TRACES } from '../helpers/fixtures.js';

const FILE = `${FIXTURES}etl/net.4.5.2.x64.etl.zip`;

describe('report of a .NET Framework process from an ETL', () => {
  it('names the runtime .NET Framework with its CLR build, says it has no hard limit, and does not tell the user to record again for what Framework lacks', async () => {
    const r = await gcscope(['report', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Process {5}Test\.x64\.exe, pid 3676, \.NET Framework 4\.0\.30319\.34209$/m);
    expect(r.stdout).toMatch(/^Memory {6}no hard limit \(\.NET Framework has none\);/m);
    const notMeasured = r.stdout.slice(r.stdout.indexOf('Not measured'), r.stdout.indexOf('Rollup by generation'));
    expect(notMeasured).toMatch(/hard-limit-headroom: needs a GC hard limit, which \.NET Framework does not have/);
    expect(notMeasured).not.toMatch(/record with gc-collect|\.NET 8\+ rundown/);
    // The private provider's per-heap histories are read: the rules that need them measure.
    expect(notMeasured).not.toMatch(/GCPerHeapHistory|gen0-budget-peak|pinning-fragmentation|gen2-fragmentation/);
    expect(r.stdout).toMatch(/^ {2}info .*a gen0 budget of 4\.19 MB on 58\.7 KB of live heap {2}\[gen0-budget-peak\]$/m);
  });

  it('the GC table shows each GC’s per-heap survival and fragmentation, and the log its sweep', async () => {
    const r = await gcscope(['report', FILE]);
    expect(r.code).toBe(0);
    // GC #2: gen0 survival 0 %, gen1 fragmentation 15 % (3,224 of 21,984 bytes free), LOH 0 %; no POH in .NET Framework.
    expect(r.stdout).toMatch(
      /^ {2}2 {2}0N {3}AllocSmall .* 0\.000 {6}0 {6}0 {4}0\.022 {4}n\/a {5}15 {4}0\.000 {4}n\/a {6}0 {3}0\.037 {4}n\/a {6}0 {3}0\.000 {4}n\/a {4}n\/a /m,
    );
    expect(r.stdout).not.toMatch(/unavailable: (survivalPercent|fragmentationPercent|genBudgetMB|per-heap detail)/);
    const log = await gcscope(['log', FILE]);
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(/^\S+ GC#2 gen0 blocking AllocSmall sweeping suspend /m);
    // .NET Framework has no pinned object heap: the log lists four generations (it said "POH 0.00->0.00").
    expect(log.stdout).toMatch(/\[gen0 \S+ gen1 \S+ gen2 \S+ LOH \S+\]/);
    expect(log.stdout).not.toMatch(/POH/);
  });
  it('a .NET 5+ trace still logs its POH', async () => {
    const log = await gcscope(['log', `${TRACES}workload-workstation.nettrace.zip`]);
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(/ LOH \S+ POH \S+\]/);
  });

  it('diagnose says the same', async () => {
    const r = await gcscope(['diagnose', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hard-limit-headroom: needs a GC hard limit, which \.NET Framework does not have/);
    expect(r.stdout).not.toMatch(/record with gc-collect/);
  });

  it('events checks each process’s CLR events with its own pointer size: none of the 32-bit PerfView’s is counted undecodable', async () => {
    const r = await gcscope(['events', '--format', 'json', FILE]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { gcDecodeErrors: number; counts: Record<string, number> };
    // PerfView (pid 3988) writes 4-byte pointers: read as 8-byte ones, its 8 GenerationRange and 49 FinalizeObject events do not fit.
    expect(j.counts['Microsoft-Windows-DotNETRuntime/GC/FinalizeObject']).toBe(54);
    expect(j.gcDecodeErrors).toBe(0);
  });

  it('the JSON report carries the runtime as "Framework <CLR build>"', async () => {
    const r = await gcscope(['report', '--format', 'json', FILE]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { process: { runtimeVersion: string } };
    expect(j.process.runtimeVersion).toBe('Framework 4.0.30319.34209');
  });
});

describe('compare of a .NET Framework ETL against a .NET 10 .nettrace', () => {
  it('compares them and names both runtimes as .NET engineers say them', async () => {
    const r = await gcscope(['compare', FILE, `${FIXTURES}traces/compare-ws-1.nettrace.zip`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^A: net\.4\.5\.2\.x64\.etl\.zip PID 3676 — Test\.x64\.exe, \.NET Framework 4\.0\.30319\.34209, workstation GC/m);
    expect(r.stdout).toMatch(/^NOTE: Runtime differs: A \.NET Framework 4\.0\.30319\.34209, B \.NET 10\.0\.12\./m);
    expect(r.stdout).toMatch(/^gen0 median pause +94 µs/m);
  });
});
