/**
 * `gcscope diagnose` and the findings in `gcscope report`, run as a user runs them (the built
 * CLI): exit 3 on a warning and 0 without one (what a CI job gates on), `--set` and `--explain`,
 * a stored session, and the report's JSON `"findings"` ordered by score.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src-main/diagnosis/rule-table.js';
import type { Finding } from '../../src-main/shared/finding.js';
import { formatMs, formatPercent } from '../../src-main/shared/format.js';
import { problemTraceName, TRACES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';

const DIR = join(process.cwd(), 'test-output', 'cli-diagnose');
const DB = join(DIR, 'diagnose.db');

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

// wait.nettrace (.NET 10, filtrace): 6 GCs, every one an induced gen2.
const INDUCED = TRACES + 'wait.nettrace';
// HeartRateMonitor: one GC, nothing wrong with it.
const QUIET = TRACES + 'HeartRateMonitor.10068.nettrace.zip';

describe('gcscope diagnose', () => {
  it('says the % of time paused the report (and the Time paused tile) says when it judges the whole span, and what the % is over', async () => {
    // 478 GCs over 33 s, shorter than the 60 s window: it said "23.3 %" (to the trace's last
    // event) where the report and the session's tile say 23.59 % (to the last HeapStats, TraceEvent's).
    for (const t of ['eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip', 'workload-net8-server.nettrace.zip']) {
      const r = JSON.parse((await runCli(['report', '--json', TRACES + t])).stdout) as {
        summary: { pauseTimePercentage: number; processDurationMSec: number };
        findings: Finding[];
      };
      const f = r.findings.find((x) => x.id === 'high-pause-time')!;
      expect(f.title, t).toBe(
        `GC paused the process ${formatPercent(r.summary.pauseTimePercentage, 2)} of the time from its first GC to its last (${formatMs(r.summary.processDurationMSec)})`,
      );
    }
    // The report says which span its % is over: who-allocates has 683 ms of events, GCs over 33.3 ms.
    const text = (await runCli(['report', TRACES + 'who-allocates.nettrace.zip'])).stdout;
    expect(text).toContain('683 ms of events');
    expect(text).toContain('40.97 % of the time paused for GC (of the 33.3 ms from the first GC to the last);');
    // Shorter than the 1 s minimum window: judged over that second, and the title says so beside the report's 24.88 %.
    const short = JSON.parse((await runCli(['report', '--json', TRACES + 'workload-server.nettrace.zip'])).stdout) as { findings: Finding[] };
    expect(short.findings.find((x) => x.id === 'high-pause-time')!.title).toBe(
      'GC paused the process 11.44 % of the time (judged over 1.00 s: its GCs span only 460 ms)',
    );
  });

  it('exits 3 and prints the warning, its evidence and advice when a finding is a warning', async () => {
    const r = await runCli(['diagnose', INDUCED]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('WARNING');
    expect(r.stdout).toContain('6 induced gen2 GCs: 100 % of all pause time  [induced-gcs]');
    expect(r.stdout).toMatch(/evidence: GCs #1, #2, #3, #4, #5, #6/);
    expect(r.stdout).toMatch(/do: Find the caller/);
    // No background GC in this trace: LOH allocation waits do not apply (nothing "not measured").
    expect(r.stdout).not.toMatch(/loh-alloc-wait/);
  });

  it('exits 0 when no finding is a warning', async () => {
    const r = await runCli(['diagnose', QUIET]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Findings    none');
    // A .NET Core 3.1 trace has no GCSettingsRundown: the hard limit's headroom is not measured, and says what it needs.
    expect(r.stdout).toMatch(/Not measured[\s\S]*hard-limit-headroom: needs GCSettingsRundown/);
    expect(r.stdout).toContain('Findings    none: no rule found a problem');
  });

  it('a trace with no GC says there was nothing to diagnose, not that no rule found a problem', async () => {
    const r = await runCli(['diagnose', TRACES + 'only_managed_samples.nettrace.zip']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Findings    none: no GC to diagnose');
  });

  it('--set changes a threshold (the same trace passes) and --explain says why each rule did or did not fire', async () => {
    const r = await runCli(['diagnose', INDUCED, '--set', 'induced-gcs.warnPauseShare=2', '--set', 'induced-gcs.warnFullBlockingMSec=1000', '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Settings    induced-gcs.warnPauseShare=2, induced-gcs.warnFullBlockingMSec=1000');
    expect(r.stdout).toMatch(/^ {2}info {6}\d+\.\d {2}6 induced gen2 GCs/m);
    expect(r.stdout).toMatch(/Explain/);
    for (const id of ['long-suspension', 'high-pause-time', 'midlife-crisis', 'server-heap-imbalance'])
      expect(r.stdout).toMatch(new RegExp(`^  ${id} +(ok|fired|not-measured|not-applicable) `, 'm'));
  });

  it('refuses an unknown setting or a bad value with exit 2 and a message naming it', async () => {
    const a = await runCli(['diagnose', INDUCED, '--set', 'induced-gcs.nope=1']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/unknown setting induced-gcs.nope: induced-gcs has infoPauseShare, warnPauseShare, warnFullBlockingMSec/);
    const b = await runCli(['diagnose', INDUCED, '--set', 'induced-gcs.warnPauseShare=lots']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/is not a number/);
  });

  it('--format json gives findings ordered by score with the published fields, the not-measured list and --explain', async () => {
    const r = await runCli(['diagnose', TRACES + 'workload-net9-workstation.nettrace.zip', '--format', 'json', '--explain']);
    expect(r.code).toBe(3);
    const j = JSON.parse(r.stdout) as {
      findings: Finding[];
      notMeasured: { id: string; needs: string }[];
      explain: { id: string; status: string }[];
      range: { gcCount: number };
    };
    expect(j.findings.length).toBeGreaterThan(1);
    for (let k = 1; k < j.findings.length; k++) expect(j.findings[k - 1]!.score).toBeGreaterThanOrEqual(j.findings[k]!.score);
    for (const f of j.findings) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'severity', 'score', 'title', 'evidence', 'advice', 'explanation']));
      expect(['warning', 'info']).toContain(f.severity);
      expect(f.score).toBeGreaterThanOrEqual(25);
      expect(f.score).toBeLessThanOrEqual(100);
      expect(Object.keys(f.evidence)).toEqual(expect.arrayContaining(['endMSec', 'gcs', 'startMSec']));
      // Who caused it (issue 14): the optional stack/type evidence only, nothing else.
      expect(Object.keys(f.evidence).filter((k) => !['endMSec', 'gcs', 'startMSec', 'stacks', 'types', 'hint'].includes(k))).toEqual([]);
    }
    expect(j.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['high-pause-time', 'loh-triggered-gen2', 'induced-gcs']));
    // Workstation GC without background GCs: LOH allocation waits do not apply; nothing is unmeasured.
    expect(j.notMeasured).toEqual([]);
    expect(j.explain.find((e) => e.id === 'loh-alloc-wait')!.status).toBe('not-applicable');
    expect(j.explain).toHaveLength(RULES.length); // every rule of the table (M1–M16, midlife-crisis, hard-limit-headroom, the DATAS rules)
    expect(j.range.gcCount).toBe(26);
  });

  it('diagnoses a stored session (--session ID) as it does the file', async () => {
    const imp = await runCli(['import', '--db', DB, '--json', INDUCED]);
    expect(imp.code).toBe(0);
    const id = (JSON.parse(imp.stdout) as { sessionId: number }).sessionId;
    const fromFile = JSON.parse((await runCli(['diagnose', INDUCED, '--json'])).stdout) as { findings: Finding[] };
    const r = await runCli(['diagnose', '--session', String(id), '--db', DB, '--json']);
    expect(r.code).toBe(3);
    expect((JSON.parse(r.stdout) as { findings: Finding[] }).findings).toEqual(fromFile.findings);
  });

  it('--range diagnoses only the GCs in that time range: the induced GCs after 1 s are not found in 0:1, and the text and JSON say which range', async () => {
    // problem-induced-gcs: 39 GCs over 6.4 s; the first induced one (#9) pauses at 1.14 s.
    const TRACE = TRACES + problemTraceName('induced-gcs');
    const whole = await runCli(['diagnose', TRACE, '--no-stacks', '--json']);
    expect((JSON.parse(whole.stdout) as { findings: Finding[] }).findings.map((f) => f.id)).toContain('induced-gcs');
    const t = await runCli(['diagnose', TRACE, '--no-stacks', '--range', '0:1']);
    expect(t.stderr).toBe('');
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('(7 completed GCs in the range, 6.38 s of events)');
    expect(t.stdout).toMatch(/^Range {7}0 s – 1 s since the trace started \(--range 0:1\)/m);
    expect(t.stdout).toContain('Findings    none');
    expect(t.stdout).not.toMatch(/\[induced-gcs\]/);
    const j = await runCli(['diagnose', TRACE, '--no-stacks', '--range', '0:1', '--json']);
    const jd = JSON.parse(j.stdout) as { findings: Finding[]; range: { startMSec: number; endMSec: number; gcCount: number } };
    expect(jd.range).toEqual({ startMSec: 0, endMSec: 1000, gcCount: 7 });
    expect(jd.findings.map((f) => f.id)).not.toContain('induced-gcs');
    // An open end is the trace's last event; from 1 s on, all six induced GCs are there.
    const open = JSON.parse((await runCli(['diagnose', TRACE, '--no-stacks', '--range', '1:', '--json'])).stdout) as typeof jd;
    expect(open.range.startMSec).toBe(1000);
    expect(open.range.endMSec).toBeGreaterThan(6000);
    expect(open.findings.find((f) => f.id === 'induced-gcs')!.evidence.gcs).toEqual([9, 15, 21, 27, 33, 39]);
  });

  it("--range: the findings' allocation evidence is the range's (what allocs --range counts), not the whole trace's, from a file and from a session", async () => {
    const TRACE = TRACES + problemTraceName('loh-triggered-gen2');
    type Types = { findings: (Finding & { evidence: { types?: { typeName: string; sampledBytes: number }[] } })[] };
    const lohTypes = (out: string) => (JSON.parse(out) as Types).findings.find((f) => f.id === 'loh-triggered-gen2')!.evidence.types!;
    const whole = lohTypes((await runCli(['diagnose', TRACE, '--json'])).stdout);
    const ranged = lohTypes((await runCli(['diagnose', TRACE, '--json', '--range', '0:3'])).stdout);
    const allocs = JSON.parse((await runCli(['allocs', TRACE, '--json', '--kind', 'large', '--range', '0:3'])).stdout) as {
      byType: { typeName: string; sampledBytes: number }[];
    };
    expect(ranged[0]!.typeName).toBe('System.Byte[]');
    expect(ranged[0]!.sampledBytes).toBe(allocs.byType[0]!.sampledBytes);
    expect(ranged[0]!.sampledBytes).toBeLessThan(whole[0]!.sampledBytes / 2);
    const imp = await runCli(['import', '--db', DB, '--json', TRACE]);
    expect(imp.code).toBe(0);
    const id = (JSON.parse(imp.stdout) as { sessionId: number }).sessionId;
    const fromSession = lohTypes((await runCli(['diagnose', '--session', String(id), '--db', DB, '--json', '--range', '0:3'])).stdout);
    expect(fromSession).toEqual(ranged);
  });

  it('a bad --range exits 2 with one line saying what to fix', async () => {
    const TRACE = TRACES + problemTraceName('induced-gcs');
    const cases: [string, RegExp][] = [
      ['abc', /^gcscope: --range needs FROM:TO in seconds since the trace started \(e\.g\. 10:40, or 30: for 30 s to the end\), not "abc"\n$/],
      ['5:1', /^gcscope: --range "5:1": the range ends before it starts\n$/],
      // Past the end of a 6.4 s trace: minutes taken for seconds, not a clean bill of health.
      ['100:200', /^gcscope: --range 100:200: the trace's events run from 0 s to 6\.385 s since it started; give a range that overlaps them\n$/],
    ];
    for (const [range, message] of cases) {
      const r = await runCli(['diagnose', TRACE, '--no-stacks', '--range', range]);
      expect(r.code, range).toBe(2);
      expect(r.stdout, range).toBe('');
      expect(r.stderr, range).toMatch(message);
    }
  });

  it('needs a FILE or --session', async () => {
    const r = await runCli(['diagnose']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give a trace FILE or --session ID/);
  });
});

describe('gcscope report carries the findings', () => {
  it('report --format json gains "findings" ordered by score and "findingsNotMeasured"', async () => {
    const r = await runCli(['report', '--format', 'json', TRACES + 'workload-net9-workstation.nettrace.zip']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { findings: Finding[]; findingsNotMeasured: { id: string }[] };
    expect(j.findings[0]!.id).toBe('high-pause-time');
    for (let k = 1; k < j.findings.length; k++) expect(j.findings[k - 1]!.score).toBeGreaterThanOrEqual(j.findings[k]!.score);
    expect(j.findings.find((f) => f.id === 'induced-gcs')!.evidence.gcs).toHaveLength(5);
    expect(j.findingsNotMeasured).toEqual([]);
    const quiet = JSON.parse((await runCli(['report', '--format', 'json', QUIET])).stdout) as { findingsNotMeasured: { id: string; needs: string }[] };
    expect(quiet.findingsNotMeasured.map((n) => n.id)).toEqual(['hard-limit-headroom']);
  });

  it('the text and HTML reports show the findings', async () => {
    const t = await runCli(['report', INDUCED]);
    expect(t.stdout).toMatch(/Findings {4}1 warning, 0 info\n\n {2}WARNING .*6 induced gen2 GCs/);
    const h = await runCli(['report', '--format', 'html', INDUCED]);
    expect(h.stdout).toMatch(/<h2>Findings<\/h2><div class="finding warning"><h3><span class="sev">warning<\/span>6 induced gen2 GCs: 100 % of all pause time/);
  });
});
