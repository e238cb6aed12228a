/**
 * `gcscope report` of a .NET Framework 4.5.2 process (net.4.5.2.x64.etl.zip, Test.x64.exe): said
 * to be .NET Framework with its CLR build (its BCL version, 4.0.0.0 for every 4.x, read as
 * ".NET 4.0.0"), and what a .NET Framework trace cannot have (a hard limit, the newer heap-history
 * layouts) is not blamed on how it was recorded.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess as gcscope } from '../helpers/cli-in-process.js';
import { FIXTURES } from '../helpers/fixtures.js';

const FILE = `${FIXTURES}etl/net.4.5.2.x64.etl.zip`;

describe('report of a .NET Framework process from an ETL', () => {
  it('names the runtime .NET Framework with its CLR build, says it has no hard limit, and does not tell the user to record again for what Framework lacks', async () => {
    const r = await gcscope(['report', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Process {5}Test\.x64\.exe, pid 3676, \.NET Framework 4\.0\.30319\.34209$/m);
    expect(r.stdout).toMatch(/^Memory {6}no hard limit \(\.NET Framework has none\);/m);
    const notMeasured = r.stdout.slice(r.stdout.indexOf('Not measured'), r.stdout.indexOf('Rollup by generation'));
    expect(notMeasured).toMatch(/gen0-budget-peak: needs .*\.NET Framework writes GCPerHeapHistory in an older, private layout/);
    expect(notMeasured).toMatch(/hard-limit-headroom: needs a GC hard limit, which \.NET Framework does not have/);
    expect(notMeasured).not.toMatch(/record with gc-collect|\.NET 8\+ rundown/);
  });

  it('diagnose says the same', async () => {
    const r = await gcscope(['diagnose', FILE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hard-limit-headroom: needs a GC hard limit, which \.NET Framework does not have/);
    expect(r.stdout).not.toMatch(/record with gc-collect/);
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
