/**
 * Who caused it (issue 14) on the command line, as a user runs it (the built CLI), on the
 * who-allocates workload trace (its only GC.Collect() caller is WhoAllocates+ReportCache.Flush):
 * `report --format json` "triggers" and "allocations", `gcscope allocs` by type and by stack, from
 * the file and from a stored session, with its stacks stored deduplicated.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GcReport } from '../../src-main/report/model.js';
import type { CallTreeNode } from '../../src-main/shared/allocations.js';
import { Database } from '../../src-main/store/db.js';
import { TRACES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';

const DIR = join(process.cwd(), 'test-output', 'cli-allocs');
const DB = join(DIR, 'allocs.db');
const TRACE = TRACES + 'who-allocates.nettrace.zip';

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

describe('report --format json: who triggered each GC, what was allocated', () => {
  it("names ReportCache.Flush as the caller of every induced GC, below the runtime's GC.Collect frame", async () => {
    const r = await runCli(['report', TRACE, '--format', 'json']);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as GcReport;
    const induced = rep.gcs.filter((g) => g.reason === 1);
    expect(induced).toHaveLength(8);
    for (const g of induced) {
      const t = rep.triggers.find((x) => x.gcNumber === g.number)!;
      expect(t.frames.slice(0, 2)).toEqual(['System.GC.Collect()', 'WhoAllocates+ReportCache.Flush()']);
      expect(t.caller).toBe('WhoAllocates+ReportCache.Flush()');
    }
    expect(rep.triggers).toHaveLength(16);
    const a = rep.allocations!;
    expect(a.ticks).toBe(640);
    expect(a.sizeSource).toBe('object-size');
    expect(a.byType[0]).toMatchObject({ typeName: 'System.Double[]', kind: 'large', ticks: 384 });
    expect(a.largeObjectStacks[0]!.frames[0]).toBe('WhoAllocates+ImageBuffers.Render(int32)');
    expect(a.resolution).toMatchObject({ unresolvedFrames: 0, methodsFromRundown: 1674 });
  });

  it('--no-stacks leaves the stacks out: no "allocations", no "triggers"', async () => {
    const rep = JSON.parse((await runCli(['report', TRACE, '--format', 'json', '--no-stacks'])).stdout) as GcReport;
    expect(rep.allocations).toBeNull();
    expect(rep.triggers).toEqual([]);
    expect(rep.gcs).toHaveLength(16);
  });

  it('a trace recorded without AllocationTick (gc-collect level) has "allocations": null', async () => {
    const r = await runCli(['report', TRACES + 'compare-server.nettrace.zip', '--format', 'json']);
    const rep = JSON.parse(r.stdout) as GcReport;
    expect(rep.allocations).toBeNull();
  });
});

describe('gcscope diagnose: findings name who caused them', () => {
  it("induced-gcs shows the caller's stack; loh-triggered-gen2 the large type and the stack allocating it", async () => {
    const r = await runCli(['diagnose', TRACE]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /\[induced-gcs\]\n.*evidence: .*\n\s+stack \(8 of 8 induced GCs\):\n\s+System\.GC\.Collect\(\)\n\s+WhoAllocates\+ReportCache\.Flush\(\)/,
    );
    expect(r.stdout).toMatch(
      /\[loh-triggered-gen2\]\n.*evidence: .*\n\s+types: System\.Double\[\] 46\.1 MB\n\s+stack \(46\.1 MB of large objects \(384 samples\)\):\n\s+WhoAllocates\+ImageBuffers\.Render\(int32\)/,
    );
  });
});

describe('gcscope allocs', () => {
  it("--by type lists the types by sampled bytes, with the LOH type's allocating stack", async () => {
    const r = await runCli(['allocs', TRACE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/640 AllocationTicks \(640 with a call stack\)/);
    expect(r.stdout).toMatch(/System\.Double\[\]\s+large\s+384\s+46\.1 MB\s+62\.8 %/);
    expect(r.stdout).toMatch(/OrderLine\s+small\s+241/);
    expect(r.stdout).toMatch(/Large object heap \(LOH\): the stacks allocating most\n\s+46\.1 MB\s+384 ticks\n\s+WhoAllocates\+ImageBuffers\.Render\(int32\)/);
    expect(r.stdout).toMatch(/all resolved; methods known: 175 from load events, 1,674 from the rundown/);
  });

  it('--by stack --json gives the bottom-up call tree; --search keeps only the stacks through a method', async () => {
    const r = await runCli(['allocs', TRACE, '--by', 'stack', '--json']);
    const j = JSON.parse(r.stdout) as { callTree: CallTreeNode; sampledBytes: number };
    expect(j.callTree.totalBytes).toBe(j.sampledBytes);
    expect(j.callTree.children.slice(0, 2).map((c) => c.name)).toEqual(['WhoAllocates+ImageBuffers.Render(int32)', 'WhoAllocates+Orders.Build(int32)']);
    const s = JSON.parse((await runCli(['allocs', TRACE, '--by', 'stack', '--search', 'orders.build', '--json'])).stdout) as { callTree: CallTreeNode };
    expect(s.callTree.children.map((c) => c.name)).toEqual(['WhoAllocates+Orders.Build(int32)']);
  });

  it('--range keeps the ticks in the window; bad options exit 2 with a one-line reason', async () => {
    const all = JSON.parse((await runCli(['allocs', TRACE, '--json'])).stdout) as { ticks: number };
    const part = JSON.parse((await runCli(['allocs', TRACE, '--json', '--range', '0:0.47'])).stdout) as { ticks: number };
    expect(part.ticks).toBeGreaterThan(0);
    expect(part.ticks).toBeLessThan(all.ticks);
    // Past the trace's end: no sample there, and no advice to record another way.
    const past = await runCli(['allocs', TRACE, '--range', '500:600']);
    expect(past.code).toBe(0);
    expect(past.stdout).toMatch(/No AllocationTick sample in 500:600 s; the trace has them elsewhere/);
    expect(past.stdout).not.toMatch(/gc-verbose/);
    const bad = await runCli(['allocs', TRACE, '--by', 'color']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown --by color: use type or stack/);
  });

  it('from a trace file, counts every pinned-object event by stack and sums samples to the answer the whole range gives one by one', async () => {
    // A gc-verbose pinning trace: one GC/PinObjectAtGCTime per pinned object per GC. `allocs`
    // counts them per stack and sums the samples per stack, type and kind as it reads (a 1.1 GB
    // trace's 1.8 M pin events and 12 M samples kept one by one took it to 1.8 GB); `--range 0:`
    // still keeps each sample with its time, so the two must agree.
    const pinning = TRACES + 'problem-pinning-fragmentation.nettrace.zip';
    const events = await runCli(['events', pinning]);
    const pins = Number(/([\d,]+)\s+Microsoft-Windows-DotNETRuntime\/GC\/PinObjectAtGCTime/.exec(events.stdout)![1]!.replaceAll(',', ''));
    expect(pins).toBeGreaterThan(10_000);
    const whole = JSON.parse((await runCli(['allocs', pinning, '--json'])).stdout) as {
      pinningStacks: { event: string; count: number }[];
      range: unknown;
      ticks: number;
    };
    expect(whole.pinningStacks.filter((p) => p.event === 'PinObjectAtGCTime').reduce((n, p) => n + p.count, 0)).toBe(pins);
    const ranged = JSON.parse((await runCli(['allocs', pinning, '--json', '--range', '0:'])).stdout) as typeof whole;
    expect(ranged.range).toEqual({ fromMSec: 0, toMSec: null });
    expect({ ...whole, range: null }).toEqual({ ...ranged, range: null });
    const byStack = (extra: string[]): Promise<string> =>
      runCli(['allocs', pinning, '--by', 'stack', '--json', ...extra]).then((r) => JSON.stringify({ ...(JSON.parse(r.stdout) as object), range: null }));
    expect(await byStack([])).toBe(await byStack(['--range', '0:']));
  });

  it('a stored session gives the same answer, its stacks and frames kept once each', async () => {
    const imp = await runCli(['import', TRACE, '--db', DB, '--json']);
    expect(imp.code).toBe(0);
    const id = (JSON.parse(imp.stdout) as { sessionId: number }).sessionId;
    const fromFile = JSON.parse((await runCli(['allocs', TRACE, '--json'])).stdout) as Record<string, unknown>;
    const fromSession = JSON.parse((await runCli(['allocs', '--session', String(id), '--db', DB, '--json'])).stdout) as Record<string, unknown>;
    // Everything but the handle events' stacks, which only a trace file has (sessions do not keep them).
    expect(fromSession.pinningStacks).toBeNull();
    expect({ ...fromSession, source: '', pinningStacks: null }).toEqual({ ...fromFile, source: '', pinningStacks: null });
    const rep = JSON.parse((await runCli(['report', '--session', String(id), '--db', DB, '--format', 'json'])).stdout) as GcReport;
    expect(rep.triggers.filter((t) => t.caller === 'WhoAllocates+ReportCache.Flush()')).toHaveLength(8);
    // --no-stacks does for a session what it does for a file (the samples are not even read).
    const bare = JSON.parse((await runCli(['report', '--session', String(id), '--db', DB, '--format', 'json', '--no-stacks'])).stdout) as GcReport;
    expect(bare.allocations).toBeNull();
    expect(bare.triggers).toEqual([]);
    expect(bare.gcs).toEqual(rep.gcs);
    const db = await Database.open(DB, { readonly: true });
    try {
      const n = async (t: string): Promise<number> => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t} WHERE session_id = ?`, [id]))!.n;
      // 640 samples and 16 triggers share 19 distinct stacks over 96 distinct frames.
      expect((await db.get<{ n: number }>('SELECT SUM(n) AS n FROM alloc_ticks WHERE session_id = ?', [id]))!.n).toBe(640);
      expect(await n('gc_triggers')).toBe(16);
      expect(await n('stacks')).toBe(19);
      expect(await n('stack_frames')).toBe(96);
    } finally {
      await db.close();
    }
  });
});
