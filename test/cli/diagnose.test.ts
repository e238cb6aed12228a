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
import { TRACES } from '../helpers/fixtures.js';
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
  it('exits 3 and prints the warning, its evidence and advice when a finding is a warning', async () => {
    const r = await runCli(['diagnose', INDUCED]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('WARNING');
    expect(r.stdout).toContain('6 induced gen2 GCs: 100 % of all pause time  [induced-gcs]');
    expect(r.stdout).toMatch(/evidence: GCs #1, #2, #3, #4, #5, #6/);
    expect(r.stdout).toMatch(/do: Find the caller/);
    expect(r.stdout).toMatch(/Not measured[\s\S]*loh-alloc-wait: needs BGCAllocWait/);
  });

  it('exits 0 when no finding is a warning', async () => {
    const r = await runCli(['diagnose', QUIET]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Findings    none');
  });

  it('--set changes a threshold (the same trace passes) and --explain says why each rule did or did not fire', async () => {
    const r = await runCli(['diagnose', INDUCED, '--set', 'induced-gcs.warnPauseShare=2', '--set', 'induced-gcs.warnFullBlockingMSec=1000', '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Settings    induced-gcs.warnPauseShare=2, induced-gcs.warnFullBlockingMSec=1000');
    expect(r.stdout).toMatch(/^ {2}info {6}\d+\.\d {2}6 induced gen2 GCs/m);
    expect(r.stdout).toMatch(/Explain/);
    for (const id of ['long-suspension', 'high-pause-time', 'midlife-crisis', 'server-heap-imbalance']) expect(r.stdout).toMatch(new RegExp(`^  ${id} +(ok|fired|not-measured|not-applicable) `, 'm'));
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
    const j = JSON.parse(r.stdout) as { findings: Finding[]; notMeasured: { id: string; needs: string }[]; explain: { id: string; status: string }[]; range: { gcCount: number } };
    expect(j.findings.length).toBeGreaterThan(1);
    for (let k = 1; k < j.findings.length; k++) expect(j.findings[k - 1]!.score).toBeGreaterThanOrEqual(j.findings[k]!.score);
    for (const f of j.findings) {
      expect(Object.keys(f)).toEqual(expect.arrayContaining(['id', 'severity', 'score', 'title', 'evidence', 'advice', 'explanation']));
      expect(['warning', 'info']).toContain(f.severity);
      expect(f.score).toBeGreaterThanOrEqual(25);
      expect(f.score).toBeLessThanOrEqual(100);
      expect(Object.keys(f.evidence).sort()).toEqual(['endMSec', 'gcs', 'startMSec']);
    }
    expect(j.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['high-pause-time', 'loh-triggered-gen2', 'induced-gcs']));
    expect(j.notMeasured.map((n) => n.id)).toContain('loh-alloc-wait');
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
    expect(j.findingsNotMeasured.map((n) => n.id)).toEqual(['loh-alloc-wait']);
  });

  it('the text and HTML reports show the findings', async () => {
    const t = await runCli(['report', INDUCED]);
    expect(t.stdout).toMatch(/Findings {4}1 warning, 0 info\n\n {2}WARNING .*6 induced gen2 GCs/);
    const h = await runCli(['report', '--format', 'html', INDUCED]);
    expect(h.stdout).toMatch(/<h2>Findings<\/h2><div class="finding warning"><h3><span class="sev">warning<\/span>6 induced gen2 GCs: 100 % of all pause time/);
  });
});
