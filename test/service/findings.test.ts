/**
 * The Findings panel's service calls on real traces in a real SQLite file: a session's findings
 * are the ones `gcscope diagnose` prints, a selected range narrows them, a finding's GCs can be
 * picked as the table's filter (the tiles then summarise exactly them), and settings changed in
 * the app are validated, saved beside the database and used by the next start.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src-main/diagnosis/rule-table.js';
import { reportFromFile } from '../../src-main/recording/report-source.js';
import { importTrace } from '../../src-main/recording/importer.js';
import { dispatch } from '../../src-main/service/dispatch.js';
import { ProfilerService } from '../../src-main/service/profiler-service.js';
import { formatMs, formatPercent } from '../../src-main/shared/format.js';
import { noFilter } from '../../src-main/shared/gc-filter.js';
import { Database } from '../../src-main/store/db.js';
import { TRACES } from '../helpers/fixtures.js';

const DIR = join(process.cwd(), 'test-output', 'service-findings');
const dbPath = join(DIR, 'findings.db');
const TRACE = 'workload-net9-workstation.nettrace.zip';
let id = 0;
let svc: ProfilerService;
const open = () => ProfilerService.create({ dbPath, tracesDir: join(DIR, 'traces'), uploadDir: join(DIR, 'up'), mode: 'browser', version: 'test' });

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const db = await Database.open(dbPath);
  id = (await importTrace(db, TRACES + TRACE)).sessionId;
  await db.close();
  svc = await open();
});

afterAll(async () => {
  await svc?.close();
});

describe('getFindings', () => {
  it('gives a stored session the findings the report of its file has', async () => {
    const d = await svc.getFindings(id, null, null);
    const rep = await reportFromFile(TRACES + TRACE);
    expect(d.findings).toEqual(rep.findings);
    expect(d.findings.map((f) => f.id)).toEqual(['high-pause-time', 'loh-triggered-gen2', 'induced-gcs', 'finalization-cost']);
    expect(d.notMeasured).toEqual(rep.findingsNotMeasured);
    // Every rule says why it did or did not fire.
    expect(d.explain).toHaveLength(RULES.length);
  });

  it('follows a selected range: only the GCs whose pause starts in it', async () => {
    const all = await svc.getFindings(id, null, null);
    const induced = all.findings.find((f) => f.id === 'induced-gcs')!;
    // A range ending before the first induced GC has no induced-gcs finding.
    const before = await svc.getFindings(id, 0, induced.evidence.startMSec! - 1);
    expect(before.range.gcCount).toBeLessThan(all.range.gcCount);
    expect(before.findings.map((f) => f.id)).not.toContain('induced-gcs');
  });

  it('over a selected range, the % paused finding says the number the Time paused tile shows for that range', async () => {
    const data = await svc.getSessionData(id);
    const from = data.startMSec + (data.endMSec - data.startMSec) * 0.2;
    const to = data.startMSec + (data.endMSec - data.startMSec) * 0.8;
    const tile = await svc.getRangeSummary(id, from, to);
    const f = (await svc.getFindings(id, from, to)).findings.find((x) => x.id === 'high-pause-time')!;
    expect(f, 'high-pause-time fires over the range').toBeDefined();
    expect(f.title).toContain(
      `paused the process ${formatPercent(tile.pauseTimePercentage, 2)} of the time over the selected range (${formatMs(tile.pausedOverMSec)})`,
    );
    expect(f.evidence.startMSec).toBeCloseTo(from, 1);
  });

  it("a finding's GCs as the table's filter: the tiles summarise exactly those GCs", async () => {
    const f = (await svc.getFindings(id, null, null)).findings.find((x) => x.id === 'induced-gcs')!;
    const s = await svc.getRangeSummary(id, -1e12, 1e12, null, { ...noFilter(), gcs: f.evidence.gcs });
    expect(s.completedGCs).toBe(f.evidence.gcs.length);
    // Four count as induced by TraceEvent's IsInduced (Induced, InducedNotForced); the fifth is
    // InducedCompacting, induced all the same for the rule.
    expect(s.inducedGCs).toBe(4);
    expect(s.byReason.map((r) => r.label)).toContain('InducedCompacting');
  });

  it('an unknown session is not-found, bad arguments are refused at the edge', async () => {
    expect(await dispatch(svc, 'getFindings', [999, null, null])).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await dispatch(svc, 'getFindings', [id, 'x', null])).toMatchObject({ ok: false, error: { code: 'bad-request' } });
  });
});

describe('diagnosis settings', () => {
  it('lists every setting with its default, and none changed at first', async () => {
    const s = await svc.getDiagnosisSettings();
    expect(s.overrides).toEqual({});
    expect(s.settings.find((x) => x.key === 'high-pause-time.warnPercent')).toMatchObject({ default: 10, unit: '%' });
  });

  it('a changed threshold re-judges the findings, is saved beside the database and survives a restart', async () => {
    const r = await dispatch(svc, 'setDiagnosisSettings', [{ 'high-pause-time.warnPercent': 50, 'high-pause-time.infoPercent': 40 }]);
    expect(r.ok).toBe(true);
    const d = await svc.getFindings(id, null, null);
    expect(d.findings.find((f) => f.id === 'high-pause-time')).toBeUndefined();
    expect(JSON.parse(readFileSync(`${dbPath}.diagnosis.json`, 'utf8'))).toEqual({ 'high-pause-time.warnPercent': 50, 'high-pause-time.infoPercent': 40 });
    await svc.close();
    svc = await open();
    expect((await svc.getDiagnosisSettings()).overrides).toEqual({ 'high-pause-time.warnPercent': 50, 'high-pause-time.infoPercent': 40 });
    expect((await svc.getFindings(id, null, null)).findings.map((f) => f.id)).not.toContain('high-pause-time');
  });

  it('refuses unknown settings and non-numbers, keeping what was saved', async () => {
    const bad = await dispatch(svc, 'setDiagnosisSettings', [{ 'high-pause-time.nope': 1 }]);
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad-input', message: expect.stringMatching(/^Unknown setting high-pause-time.nope/) } });
    expect(await dispatch(svc, 'setDiagnosisSettings', [{ 'high-pause-time.warnPercent': 'lots' }])).toMatchObject({
      ok: false,
      error: { code: 'bad-request' },
    });
    expect((await svc.getDiagnosisSettings()).overrides).toEqual({ 'high-pause-time.warnPercent': 50, 'high-pause-time.infoPercent': 40 });
  });

  it('resetting (no overrides) brings the defaults back', async () => {
    await svc.setDiagnosisSettings({});
    expect((await svc.getDiagnosisSettings()).overrides).toEqual({});
    expect((await svc.getFindings(id, null, null)).findings[0]!.id).toBe('high-pause-time');
    expect(existsSync(`${dbPath}.diagnosis.json`)).toBe(true);
  });
});

describe('findings of a recording, as far as the view goes', () => {
  it('the columns through a GC number are the prefix of GCs numbered at most that (views, not copies)', async () => {
    const { columnsThrough } = await import('../../src-main/service/session-views.js');
    const { columnsFromRecords } = await import('../../src-main/shared/gc-column-registry.js');
    const { toGcRecord } = await import('../../src-main/gc/to-record.js');
    const { analyzeTraceFile } = await import('../../src-main/recording/analyze-file.js');
    const a = await analyzeTraceFile(TRACES + TRACE);
    const c = columnsFromRecords(a.analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g)));
    const mid = c.number[10]!;
    const cut = columnsThrough(c, mid);
    expect(cut.number.length).toBe(11);
    expect(Array.from(cut.number)).toEqual(Array.from(c.number.subarray(0, 11)));
    expect(cut.pause.buffer).toBe(c.pause.buffer);
    expect(cut.time.length).toBe(11);
    expect(columnsThrough(c, c.number[c.number.length - 1]!)).toBe(c);
  });
});
