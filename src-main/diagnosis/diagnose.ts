/**
 * The diagnosis: every rule of the table over the completed GCs in view (a selected time range,
 * or the whole recording), each rule's score turned into a severity by JMC's model, findings
 * ordered by score, and an explain trace saying why each rule did or did not fire. Pure: the
 * same function serves `gcscope diagnose`, the report and the app (live sessions included).
 */
import type { Diagnosis, DiagnosisOverrides, Finding, RuleOutcome } from '../shared/finding.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { DiagnosisFacts, Rule, RuleContext, RuleResult } from './rule.js';
import { RULES } from './rule-table.js';
import { roundScore, severityOf } from './scoring.js';
import { resolveRuleSettings, validateOverrides } from './settings.js';

export interface DiagnoseOptions {
  /** Only GCs whose pause starts in [fromMSec, toMSec] (ms since the trace's sync time). */
  range?: { fromMSec: number; toMSec: number };
  overrides?: DiagnosisOverrides;
  /** The rules to run (default: the rule table). */
  rules?: readonly Rule[];
}

/** Completed GCs in the range, in GC order. */
function rowsInView(c: GcColumns, range: DiagnoseOptions['range']): number[] {
  const rows: number[] = [];
  const n = c.index.length;
  for (let i = 0; i < n; i++) {
    if (c.complete[i] !== 1) continue;
    const t = c.time[i]!;
    if (range !== undefined && (t < range.fromMSec || t > range.toMSec)) continue;
    rows.push(i);
  }
  return rows;
}

export function diagnose(columns: GcColumns, facts: DiagnosisFacts, opts: DiagnoseOptions = {}): Diagnosis {
  const rules = opts.rules ?? RULES;
  const overrides = opts.overrides ?? {};
  validateOverrides(overrides, rules);
  const rows = rowsInView(columns, opts.range);
  const first = rows.length > 0 ? columns.time[rows[0]!]! : null;
  const last = rows.length > 0 ? columns.time[rows[rows.length - 1]!]! + columns.pause[rows[rows.length - 1]!]! : null;
  const fromMSec = opts.range?.fromMSec ?? facts.firstEventMSec ?? first ?? 0;
  const toMSec = opts.range?.toMSec ?? Math.max(facts.lastEventMSec ?? Number.NEGATIVE_INFINITY, last ?? 0);
  const findings: Finding[] = [];
  const notMeasured: Diagnosis['notMeasured'] = [];
  const explain: RuleOutcome[] = [];
  for (const rule of rules) {
    const ctx: RuleContext = { columns, rows, facts, s: resolveRuleSettings(rule, overrides), fromMSec, toMSec, wholeRecording: opts.range === undefined };
    let r: RuleResult;
    try {
      // Nothing to judge is neither "fine" nor "not measured".
      r = rows.length === 0 && rule.runsWithoutGcs !== true ? { kind: 'not-applicable', reason: 'no completed GC in view' } : rule.evaluate(ctx);
    } catch (e) {
      // One broken rule must not hide the others' findings; the explain trace says what happened.
      r = { kind: 'not-applicable', reason: `rule failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (r.kind === 'not-measured') {
      notMeasured.push({ id: rule.id, name: rule.name, needs: r.needs });
      explain.push({ id: rule.id, name: rule.name, status: 'not-measured', score: 0, reason: r.reason, needs: r.needs });
      continue;
    }
    if (r.kind === 'not-applicable') {
      explain.push({ id: rule.id, name: rule.name, status: 'not-applicable', score: 0, reason: r.reason });
      continue;
    }
    const score = roundScore(r.score);
    const severity = severityOf(score);
    if (severity !== null && r.finding !== undefined) {
      const ev = r.finding.evidence;
      // Evidence times to the microsecond: the same whether computed from a file or a stored session.
      const evidence = {
        gcs: ev.gcs,
        startMSec: roundUs(ev.startMSec),
        endMSec: roundUs(ev.endMSec),
        ...(ev.requests !== undefined ? { requests: ev.requests } : {}),
      };
      findings.push({
        id: rule.id,
        severity,
        score,
        title: r.finding.title,
        evidence,
        explanation: r.finding.explanation,
        advice: r.finding.advice,
        goal: rule.goal,
      });
      explain.push({ id: rule.id, name: rule.name, status: 'fired', score, reason: `${severity} (score ${score}): ${r.reason}` });
    } else {
      explain.push({ id: rule.id, name: rule.name, status: 'ok', score, reason: `ok (score ${score}): ${r.reason}` });
    }
  }
  findings.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { findings, notMeasured, explain, range: { startMSec: opts.range?.fromMSec ?? null, endMSec: opts.range?.toMSec ?? null, gcCount: rows.length } };
}

function roundUs(v: number | null): number | null {
  return v === null ? null : Math.round(v * 1000) / 1000;
}

/** True when a finding is a warning (what `gcscope diagnose` exits 3 on). */
export function hasWarning(d: Pick<Diagnosis, 'findings'>): boolean {
  return d.findings.some((f) => f.severity === 'warning');
}
