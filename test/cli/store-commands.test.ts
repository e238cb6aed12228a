/** `gcscope import`, `report`, `sessions`, `delete` as a user runs them, on a real database file. */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRACES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { parseCsv } from '../oracle/compare.js';

const DIR = join(process.cwd(), 'test-output', 'cli-store');
const DB = join(DIR, 'cli.db');
const env = { GCSCOPE_DB: DB };

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
});

describe('gcscope import / sessions / report / delete', () => {
  it('import stores a session and prints a one-paragraph summary', async () => {
    const r = await runCli(['import', TRACES + 'workload-concurrent.nettrace.zip'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Stored session 1 \(complete\)/);
    expect(r.stdout).toMatch(
      /38 GCs \(13 gen0, 8 gen1, 17 gen2; 2 background, 4 induced\); pause total [\d.]+ ms, max [\d.]+ ms, p99 [\d.]+ ms; [\d.]+ % of the time paused \(of the [\d.]+ m?s from the first GC to the last\); peak heap [\d.]+ MB/,
    );
  });

  it('importing the same file again exits 2 and points at --force', async () => {
    const r = await runCli(['import', TRACES + 'workload-concurrent.nettrace.zip'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already imported as session 1.*--force/);
    const f = await runCli(['import', '--force', '--json', TRACES + 'workload-concurrent.nettrace.zip'], { env });
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ sessionId: 2, status: 'complete', summary: { gcCount: 38 } });
  });

  it('sessions lists them, and --check runs the integrity check', async () => {
    const r = await runCli(['sessions', '--check'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+1\s+complete\s+workload-concurrent\.nettrace\.zip\s+GcWorkload\s+38/m);
    expect(r.stdout).toMatch(/Integrity check: ok/);
  });

  it('report --session --format json has the documented shape, with TraceEvent field names', async () => {
    const r = await runCli(['report', '--session', '1', '--format', 'json'], { env });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j)).toEqual([
      'trace',
      'process',
      'summary',
      'generations',
      'gcs',
      'quality',
      'findings',
      'findingsNotMeasured',
      'memory',
      'serverGc',
      'allocations',
      'triggers',
    ]);
    expect(j.process).toMatchObject({ name: 'GcWorkload', runtimeVersion: '10.0.12', gcMode: 'workstation', concurrent: true, heapCount: 1 });
    expect(j.summary).toMatchObject({ gcCount: 38, countByGeneration: [13, 8, 17], backgroundGCs: 2 });
    expect(j.generations.map((g: { generation: unknown }) => g.generation)).toEqual(['ALL', 0, 1, 2]);
    expect(Object.keys(j.gcs[0])).toEqual(
      expect.arrayContaining([
        'number',
        'generation',
        'type',
        'reason',
        'gcGenerationName',
        'pauseStartRelativeMSec',
        'startRelativeMSec',
        'pauseDurationMSec',
        'suspendDurationMSec',
        'durationMSec',
        'heapSizeBeforeMB',
        'heapSizeAfterMB',
        'promotedMB',
        'genSizeAfterMB',
      ]),
    );
    expect(j.quality).toMatchObject({ droppedEvents: 0, incompleteGCs: 0 });
    // What the trace cannot support is listed with the reason, never as NaN.
    expect(j.quality.unavailable.map((u: { metric: string }) => u.metric)).toContain('% time in GC (CPU)');
    expect(r.stdout).not.toMatch(/NaN/);
  });

  it('report FILE (no store) gives the same GCs as the stored session', async () => {
    const a = JSON.parse((await runCli(['report', '--json', TRACES + 'workload-concurrent.nettrace.zip'], { env })).stdout);
    const b = JSON.parse((await runCli(['report', '--session', '1', '--json'], { env })).stdout);
    expect(a.gcs).toEqual(b.gcs);
    expect(a.summary).toEqual(b.summary);
  });

  it('report --format csv gives one row per GC', async () => {
    const r = await runCli(['report', '--session', '1', '--format', 'csv'], { env });
    const rows = parseCsv(r.stdout);
    expect(rows).toHaveLength(38);
    expect(rows[0]).toMatchObject({ number: '1', gcGenerationName: '0N', reason: 'AllocSmall' });
    expect(Object.keys(rows[0]!)).toContain('gen2_survivalPercent');
  });

  it('report --format html writes one self-contained file', async () => {
    const out = join(DIR, 'report.html');
    const r = await runCli(['report', '--session', '1', '--format', 'html', '--out', out], { env });
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toMatch(/<svg[^>]*aria-label="GC pauses over time"/);
    expect(html).not.toMatch(/<script|src="http|href="http/);
    expect((html.match(/<tr class="g\d"/g) ?? []).length).toBe(38);
    // Workstation GC: one heap, said as a person would.
    expect(html).toContain('; 1 heap</dd>');
  });

  it('report text shows the rollup and a row per GC with its generation name', async () => {
    const r = await runCli(['report', '--session', '1'], { env });
    expect(r.stdout).toMatch(/Rollup by generation/);
    expect(r.stdout).toMatch(/^ALL\s+38\s/m);
    expect(r.stdout).toMatch(/^\s+\d+\s+2Bi?\s/m);
  });

  it('delete removes a session; deleting it again exits 2', async () => {
    expect((await runCli(['delete', '2'], { env })).code).toBe(0);
    const again = await runCli(['delete', '2'], { env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no session 2/);
  });

  it('report on a missing session exits 2 with a message', async () => {
    const r = await runCli(['report', '--session', '99'], { env });
    expect(r.code).toBe(2);
    // Names the database it looked in (without --db, the per-user one: which was not obvious).
    expect(r.stderr).toMatch(new RegExp(`no session 99 in the database ${env.GCSCOPE_DB!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('--db puts the data where the user says', async () => {
    const other = join(DIR, 'other.db');
    const r = await runCli(['import', '--db', other, TRACES + 'wait.nettrace'], { env });
    expect(r.code).toBe(0);
    expect(existsSync(other)).toBe(true);
  });
});
