/** Access to the real traces in test/fixtures/traces (copied from shared/traces, see PROVENANCE.md). */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const TRACES = FIXTURES + 'traces/';

/** Every fixture trace (zip name as stored) and whether the reader must accept it. */
export const ALL_TRACES = [
  'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip',
  'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip',
  'eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip',
  'eventpipe-dotnetcore2.1-linux-x64-tracelogging.netperf.zip',
  'eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace.zip',
  'eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace.zip',
  'HeartRateMonitor.10068.nettrace.zip',
  'only_managed_samples.nettrace.zip',
  'wait.nettrace',
  'threadpool.nettrace',
  'exceptions.nettrace',
  'activity.nettrace',
  'jit.nettrace',
] as const;

/**
 * A trace recorded from test/workloads on a runtime in a GC mode (see test/oracle/README.md), with
 * its workload's own counts beside it (same name, .counts.json). The .NET 10 traces came first and
 * keep their names without a runtime.
 */
export function workloadTraceName(runtime: 'net8.0' | 'net9.0' | 'net10.0', mode: 'workstation' | 'concurrent' | 'server' | 'datas'): string {
  return runtime === 'net10.0' ? `workload-${mode}.nettrace.zip` : `workload-${runtime.replace('.0', '')}-${mode}.nettrace.zip`;
}

/** Every workload trace: .NET 10, then .NET 8 and .NET 9, each in four GC modes. */
export const WORKLOAD_TRACES = (['net10.0', 'net8.0', 'net9.0'] as const).flatMap((r) =>
  (['workstation', 'concurrent', 'server', 'datas'] as const).map((m) => workloadTraceName(r, m)),
);

/**
 * The problem traces (issue 13): one per workload problem mode (test/workloads PROBLEM_MODES),
 * recorded on .NET 10 by `npm run record-workload -- --problems all --fixtures`.
 */
export function problemTraceName(mode: string): string {
  return `problem-${mode}.nettrace.zip`;
}

/** Every problem trace (the modes of test/workloads PROBLEM_MODES, in that order). */
export const PROBLEM_TRACES = [
  'healthy',
  'induced-gcs',
  'loh-triggered-gen2',
  'growing-live-set',
  'pinning-fragmentation',
  'midlife-crisis',
  'long-suspension',
  'loh-alloc-wait',
].map(problemTraceName);

/**
 * Issue 39's matrix: every problem mode (test/workloads PROBLEM_MODES) recorded on an idle machine
 * (`problem-<mode>.nettrace.zip`, at the highest priority) and while other work loaded both cores
 * (`problem-<mode>-loaded.nettrace.zip`, `record-workload -- --problems all --loaded --fixtures`).
 */
export function problemMatrixTraceName(mode: string, loaded: boolean): string {
  return `problem-${mode}${loaded ? '-loaded' : ''}.nettrace.zip`;
}

/**
 * The traces whose call stacks and allocation sums are held to TraceEvent's TraceLog (issue 14:
 * test/symbols/stacks-oracle.test.ts; goldens `<trace>.stacks.jsonl` and `.alloc-types.csv`).
 */
export const STACK_ORACLE_TRACES = ['who-allocates.nettrace.zip', 'eventpipe-dotnetcore2.1-win-x86-objver3.netperf.zip'] as const;

const cache = new Map<string, Uint8Array>();

/** The trace's bytes (unzipped). */
export function traceBytes(name: string): Uint8Array {
  let b = cache.get(name);
  if (b === undefined) {
    const raw = new Uint8Array(readFileSync(TRACES + name));
    if (name.endsWith('.zip')) {
      const files = Object.values(unzipSync(raw));
      if (files.length !== 1) throw new Error(`${name}: expected one file in the zip`);
      b = files[0]!;
    } else b = raw;
    cache.set(name, b);
  }
  return b;
}

export function unzippedName(name: string): string {
  return name.replace(/\.zip$/, '');
}
