/**
 * `gcscope compare` as a user (or a CI job) runs it: trace files or stored sessions, text / JSON /
 * HTML, `--fail-if` exiting 3 only on a significant regression, warm-up excluded unless asked.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'cli-compare');
const DB = join(DIR, 'compare.db');
const WS1 = TRACES + 'compare-ws-1.nettrace.zip';
const WS2 = TRACES + 'compare-ws-2.nettrace.zip';
const SERVER = TRACES + 'compare-server.nettrace.zip';

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

describe('gcscope compare', () => {
  it('prints the table with verdicts, the GC-mode difference at the top, and exits 0 by default', async () => {
    const r = await runCli(['compare', WS1, SERVER]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // One verdict line first (issue 39), then the sides and what differs between them.
    expect(lines[1]).toMatch(/^Verdict: Mixed: B is worse on .*peak heap 2\.2×.*, and better on .*GCs per GB allocated −60 %/);
    expect(lines[4]).toMatch(/^NOTE: GC mode differs: A workstation \(non-concurrent\), B server/);
    expect(r.stdout).toMatch(/^GCs per GB allocated\s+17\.5 \/GB\s+7\.1 \/GB\s+−60 %\s+−78 % to −32 %\s+0\.\d+\s+lower in B$/m);
    expect(r.stdout).toMatch(/^ {2}worse {3}peak heap 2\.2× higher in B \(95 % CI/m);
    // The Change column says what it holds: the medians' Hodges–Lehmann shift (marked HL, not B's
    // median minus A's: 201 − 2.33 ms would be +199 ms) and the other rows' ratio B/A.
    expect(r.stdout).toMatch(/^Metric\s+A\s+B\s+Change \(B vs A\)\s+95 % CI\s+p \(adj\.\)\s+Verdict$/m);
    expect(r.stdout).toMatch(/^gen0 median pause\s+2\.33 ms\s+201 ms\s+\+150 ms \(HL\)\s+\+137 ms to \+258 ms\s/m);
    expect(r.stdout).toMatch(
      /^Change \(B vs A\): \(HL\): the Hodges–Lehmann shift of a tested median — the median of all pairwise differences B − A, robust to outliers, and not B's median minus A's\. Other rows: the ratio B\/A/m,
    );
    expect(r.stdout).toMatch(/Warm-up excluded \(--include-warmup to keep it\):\n {2}A: excluded \(first 161 ms, 8 GCs;/);
  });

  it('--fail-if exits 3 on a significant regression beyond the limit, and says which condition failed', async () => {
    const r = await runCli(['compare', WS1, SERVER, '--fail-if', 'p50-pause-gen0 > +10%', '--fail-if', 'gcs-per-gb > +10%']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/--fail-if "p50-pause-gen0 > \+10%": FAILED — gen0 median pause .* longer in B/);
    expect(r.stderr).toMatch(/--fail-if "gcs-per-gb > \+10%": passed — not a significant increase/);
  });

  it('--fail-if passes (exit 0) on the same run recorded twice', async () => {
    const r = await runCli([
      'compare',
      WS1,
      WS2,
      '--fail-if',
      'p50-pause-gen0 > +10%',
      '--fail-if',
      'p90-pause-gen0 > +10%',
      '--fail-if',
      'pause-time-percent > +10%',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No detectable change on any metric\./);
  });

  it('--fail-if is undecided (exit 4), not passed, when a side has too little data: a CI gate must not go green on a broken recording', async () => {
    // A p99 needs 1,000 gen0 GCs a side; these traces have far fewer.
    const r = await runCli(['compare', WS1, WS2, '--fail-if', 'p99-pause-gen0 > +10%']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/--fail-if "p99-pause-gen0 > \+10%": UNDECIDED — cannot be decided on this data: .*insufficient data/);
    // A range past the end of the recording is a mistake, as for diagnose: exit 2, saying where the events are.
    const past = await runCli(['compare', WS1, WS1, '--range-b', '100:200', '--fail-if', 'pause-time-percent > +10%']);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/--range-b 100:200: the trace's events run from 0 s to 15\.\d+ s since it started/);
    // A regression still wins: exit 3 when one condition fails and another is undecided.
    const both = await runCli(['compare', WS1, SERVER, '--fail-if', 'p50-pause-gen0 > +10%', '--fail-if', 'p99-pause-gen0 > +10%']);
    expect(both.stderr).toMatch(/"p99-pause-gen0 > \+10%": UNDECIDED/);
    expect(both.code).toBe(3);
  });

  it('refuses an unknown metric or a malformed condition with exit 2, listing the metrics', async () => {
    const r = await runCli(['compare', WS1, WS2, '--fail-if', 'p99-pauses > 10%']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no metric "p99-pauses"; the metrics are .*p99-pause-gen0/);
    const m = await runCli(['compare', WS1, WS2, '--fail-if', 'slower']);
    expect(m.code).toBe(2);
    expect(m.stderr).toMatch(/cannot read --fail-if "slower"/);
  });

  it('--json gives every metric with its interval and verdict; --include-warmup keeps the warm-up', async () => {
    const r = await runCli(['compare', WS1, WS2, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as {
      metrics: { id: string; verdict: string; interval: unknown }[];
      a: { warmup: { excluded: boolean }; usedGCs: number; gcCount: number };
    };
    expect(j.metrics.find((m) => m.id === 'p50-pause-gen0')).toMatchObject({ verdict: 'inconclusive', interval: { kind: 'shift' } });
    expect(j.a.warmup.excluded).toBe(true);
    const w = JSON.parse((await runCli(['compare', WS1, WS2, '--json', '--include-warmup'])).stdout) as typeof j;
    expect(w.a.warmup.excluded).toBe(false);
    expect(w.a.usedGCs).toBe(w.a.gcCount);
  });

  it('compares stored sessions (--session twice) and two ranges of one session, the same as the files', async () => {
    for (const f of [WS1, WS2]) expect((await runCli(['import', f, '--db', DB])).code).toBe(0);
    const s = await runCli(['compare', '--session', '1', '--session', '2', '--db', DB, '--json']);
    expect(s.code).toBe(0);
    const f = await runCli(['compare', WS1, WS2, '--json']);
    // The store keeps times to the nanosecond: values agree to 9 significant digits.
    const verdicts = (o: string) =>
      (JSON.parse(o) as { metrics: { id: string; verdict: string; a: number | null }[] }).metrics.map((m) => [m.id, m.verdict, m.a?.toPrecision(9)]);
    expect(verdicts(s.stdout)).toEqual(verdicts(f.stdout));
    const ranges = await runCli(['compare', '--session', '1', '--db', DB, '--range-a', '0:7', '--range-b', '7:', '--json']);
    expect(ranges.code).toBe(0);
    const j = JSON.parse(ranges.stdout) as { a: { range: { toMSec: number } }; b: { range: { fromMSec: number } } };
    expect(j.a.range.toMSec).toBe(7000);
    expect(j.b.range.fromMSec).toBe(7000);
    // The two sides are one session: the labels say which range each is.
    const text = await runCli(['compare', '--session', '1', '--db', DB, '--range-a', '0:7', '--range-b', '7:']);
    expect(text.stdout).toMatch(/^A: session 1 \(.*\), 0 s – 7 s/m);
    expect(text.stdout).toMatch(/^B: session 1 \(.*\), 7 s – end/m);
  });

  it('says each side\'s heap count as the session view does: "1–2 heaps" where DATAS changed it in the range, "1 heap" where it stayed (issue 39)', async () => {
    // The .NET 10 DATAS run: GC #1–12 on 1 heap, #13–147 on 2, from #148 (23.4 s) on 1 again.
    const DATAS = TRACES + 'workload-net10-datas-phases.nettrace.zip';
    const args = ['compare', DATAS, DATAS, '--range-a', '0:20', '--range-b', '30:'];
    const text = await runCli(args);
    expect(text.code, text.stderr).toBe(0);
    // Not the most heaps any GC of the whole recording had ("2 heaps" on both sides).
    expect(text.stdout).toMatch(/^A: .*server \(DATAS\) GC \(concurrent\), 1–2 heaps, 2 CPUs/m);
    expect(text.stdout).toMatch(/^B: .*server \(DATAS\) GC \(concurrent\), 1 heap, 2 CPUs/m);
    expect(text.stdout).toMatch(/^NOTE: GC heap count differs: A 1–2 heaps, B 1 heap\./m);
    const json = JSON.parse((await runCli([...args, '--json'])).stdout) as Record<'a' | 'b', { heapCount: number; minHeapCount: number }>;
    expect([json.a.minHeapCount, json.a.heapCount, json.b.minHeapCount, json.b.heapCount]).toEqual([1, 2, 1, 1]);
    const out = join(DIR, 'heaps.html');
    expect((await runCli([...args, '--format', 'html', '--out', out])).code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('server (DATAS) GC (concurrent), 1–2 heaps');
    expect(html).toContain('server (DATAS) GC (concurrent), 1 heap,');
  });

  it('--format html writes one self-contained page with the table and the overlaid charts', async () => {
    const out = join(DIR, 'cmp.html');
    const r = await runCli(['compare', WS1, SERVER, '--format', 'html', '--out', out]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/<p class="note">GC mode differs/);
    expect(html).toMatch(/<tr class="worse" title="peak heap 2\.2× higher in B/);
    expect(html).toMatch(/aria-label="gen0 pause distribution"/);
    expect(html).toMatch(/aria-label="Heap after GC over time, A and B"/);
    expect(html).not.toMatch(/<script/);
  });

  it('lists the findings present in one recording and not the other (the diagnosis of each side)', async () => {
    const r = await runCli(['compare', WS1, SERVER, '--json']);
    const f = (
      JSON.parse(r.stdout) as {
        findings: { available: boolean; onlyA: { id: string }[]; onlyB: { id: string }[]; both: { id: string; title: string; titleB: string }[] };
      }
    ).findings;
    expect(f.available).toBe(true);
    expect(f.onlyA.map((x) => x.id)).toContain('random-long-pause');
    // compare-server is .NET 10 Server GC with DATAS turned off: the DATAS rules say so (info).
    expect(f.onlyB.map((x) => x.id)).toEqual(['datas-missing-data']);
    const both = f.both.find((x) => x.id === 'high-pause-time')!;
    expect(both.title).toMatch(/40\.49 % of the time/);
    expect(both.titleB).toMatch(/24\.14 % of the time/);
    const t = await runCli(['compare', WS1, SERVER]);
    expect(t.stdout).toMatch(/^Findings only in A: GC #149 paused 229 ms/m);
  });

  it('says so when too few GCs leave nothing to test, rather than "no change"', async () => {
    const r = await runCli(['compare', TRACES + 'jit.nettrace', TRACES + 'wait.nettrace']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Too few GCs on one side or both to test any metric\.$/m);
    expect(r.stdout).not.toMatch(/No detectable change/);
  });

  it('needs two recordings', async () => {
    const r = await runCli(['compare', WS1]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give two recordings to compare/);
  });
});
