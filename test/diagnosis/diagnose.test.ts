/**
 * The diagnosis as a whole: JMC's score curves and severities, findings ordered by score, the
 * selected time range, named settings (defaults, overrides, refusal of unknown ones), the
 * explain trace covering every rule, and "not measured" instead of a silent pass.
 */
import { describe, expect, it } from 'vitest';
import { diagnose, hasWarning } from '../../src-main/diagnosis/diagnose.js';
import { RULES } from '../../src-main/diagnosis/rule-table.js';
import { mapExp100, mapExp100Two, roundScore, severityOf } from '../../src-main/diagnosis/scoring.js';
import { DiagnosisSettingsError, parseOverrides, settingInfos } from '../../src-main/diagnosis/settings.js';
import { columnsFromRecords } from '../../src-main/shared/gc-column-registry.js';
import { gc, seq, WORKSTATION } from './gc-sequences.js';

describe('JMC scoring', () => {
  it('passes 25 at the info limit and 75 at the warning limit, rising towards 100', () => {
    expect(roundScore(mapExp100Two(5, 5, 10))).toBe(25);
    expect(roundScore(mapExp100Two(10, 5, 10))).toBe(75);
    expect(mapExp100Two(2.5, 5, 10)).toBeCloseTo(12.5, 12);
    expect(mapExp100Two(40, 5, 10)).toBeGreaterThan(99);
    expect(mapExp100Two(-1, 5, 10)).toBe(0);
    expect(roundScore(mapExp100(1, 1))).toBe(75);
  });
  it('maps scores to severities: ≥ 75 warning, ≥ 25 info, else none; 24.95 is not rounded up', () => {
    expect(severityOf(75)).toBe('warning');
    expect(severityOf(74.9)).toBe('info');
    expect(severityOf(25)).toBe('info');
    expect(severityOf(24.9)).toBeNull();
    expect(roundScore(24.95)).toBe(24.9);
  });
});

describe('diagnose', () => {
  // 10 induced gen2 GCs (30 % of pause), 3 LOH-triggered background gen2s, the rest healthy.
  const gcs = seq(100, (i) => (i < 10 ? { generation: 2, reason: 1, pauseDurationMSec: 5 } : i >= 90 && i < 93 ? { generation: 2, type: 1, reason: 4 } : {}));

  it('orders findings by score, highest first, and runs every rule of the table', () => {
    const d = diagnose(columnsFromRecords(gcs), WORKSTATION);
    expect(d.findings.length).toBeGreaterThan(1);
    for (let k = 1; k < d.findings.length; k++) expect(d.findings[k - 1]!.score).toBeGreaterThanOrEqual(d.findings[k]!.score);
    expect(d.explain.map((e) => e.id)).toEqual(RULES.map((r) => r.id));
    expect(d.findings.map((f) => f.id)).toContain('induced-gcs');
    expect(hasWarning(d)).toBe(true);
  });

  it('lists rules the trace cannot judge as not measured, with what they need', () => {
    const d = diagnose(columnsFromRecords(gcs), WORKSTATION);
    expect(d.notMeasured.map((n) => n.id)).toContain('loh-alloc-wait');
    expect(d.notMeasured.every((n) => n.needs.length > 0)).toBe(true);
  });

  it('follows the selected time range: only GCs whose pause starts in it count', () => {
    // GCs #11–#90 pause at 2.0–9.9 s: no induced GC among them.
    const d = diagnose(columnsFromRecords(gcs), WORKSTATION, { range: { fromMSec: 2000, toMSec: 9900 } });
    expect(d.range.gcCount).toBe(80);
    expect(d.findings.map((f) => f.id)).not.toContain('induced-gcs');
    expect(hasWarning(d)).toBe(false);
  });

  it('skips GCs that never completed', () => {
    const d = diagnose(columnsFromRecords([...seq(5), gc(5, { isComplete: false, reason: 1 })]), WORKSTATION);
    expect(d.range.gcCount).toBe(5);
    expect(d.findings.map((f) => f.id)).not.toContain('induced-gcs');
  });

  it('applies overrides by name and refuses unknown settings or non-numbers', () => {
    const strict = diagnose(columnsFromRecords(gcs), WORKSTATION, { overrides: { 'induced-gcs.warnPauseShare': 0.9, 'induced-gcs.infoPauseShare': 0.5 } });
    expect(strict.findings.find((f) => f.id === 'induced-gcs')!.severity).toBe('info');
    expect(() => diagnose(columnsFromRecords(gcs), WORKSTATION, { overrides: { 'induced-gcs.nope': 1 } })).toThrow(DiagnosisSettingsError);
    expect(() => parseOverrides(['induced-gcs.warnPauseShare=abc'])).toThrow(/not a number/);
    expect(() => parseOverrides(['nope.x=1'])).toThrow(/unknown setting nope.x/);
    expect(parseOverrides(['high-pause-time.windowSec=30'])).toEqual({ 'high-pause-time.windowSec': 30 });
  });

  it('documents every setting with a default, a unit and a description, keyed rule.name', () => {
    const infos = settingInfos();
    expect(infos.length).toBeGreaterThan(30);
    for (const s of infos) {
      expect(s.key).toMatch(/^[a-z0-9-]+\.[A-Za-z0-9]+$/);
      expect(Number.isFinite(s.default)).toBe(true);
      expect(s.description.length).toBeGreaterThan(10);
    }
    expect(new Set(infos.map((s) => s.key)).size).toBe(infos.length);
  });

  it('has the rule ids the issue publishes, each once', () => {
    expect(RULES.map((r) => r.id)).toEqual([
      'long-suspension',
      'random-long-pause',
      'full-blocking-gcs',
      'induced-gcs',
      'loh-triggered-gen2',
      'loh-alloc-wait',
      'high-pause-time',
      'promotion-spike',
      'growing-live-set',
      'gen0-budget-peak',
      'pinning-fragmentation',
      'gen2-fragmentation-bgc',
      'finalization-cost',
      'high-memory-load',
      'server-heap-imbalance',
      'long-bgc-pause',
      'midlife-crisis',
      'hard-limit-headroom',
      'request-tail-gc',
      'datas-oscillation',
      'datas-capped',
      'datas-alloc-wait',
      'datas-change-cost',
      'datas-missing-data',
    ]);
  });

  it('an empty session has no findings and no warning', () => {
    const d = diagnose(columnsFromRecords([]), WORKSTATION);
    expect(d.findings).toEqual([]);
    expect(d.range.gcCount).toBe(0);
  });
});

describe("RollingMedian (promotion-spike's rolling window)", () => {
  it('is the median of the last `window` values', async () => {
    const { RollingMedian } = await import('../../src-main/diagnosis/stats.js');
    const r = new RollingMedian(3);
    expect(r.median()).toBeNaN();
    for (const v of [5, 1, 9]) r.push(v);
    expect(r.median()).toBe(5);
    r.push(2); // window 1, 9, 2
    expect(r.median()).toBe(2);
    r.push(10); // 9, 2, 10
    expect(r.median()).toBe(9);
    const even = new RollingMedian(4);
    for (const v of [4, 1, 3, 2]) even.push(v);
    expect(even.median()).toBe(2.5);
  });
});
