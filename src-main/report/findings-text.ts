/**
 * Findings as text, the same in `gcscope diagnose` and the text report: one block per finding
 * (severity, score, title; evidence; why it matters; what to do), then what was not measured,
 * and on request the explain trace (every rule's outcome). Finding texts are GCScope's own
 * words and numbers, never trace text.
 */
import { stackEvidenceLines } from './stack-evidence.js';
import { formatInt, formatMs } from '../shared/format.js';
import type { Diagnosis, Finding } from '../shared/finding.js';

/** "GCs #3, #4, #9 … (26 GCs), 1.00 s – 2.30 s". */
export function evidenceText(f: Finding, maxGCs = 12): string {
  const g = f.evidence.gcs;
  const parts: string[] = [];
  if (g.length > 0) {
    const shown = g
      .slice(0, maxGCs)
      .map((n) => `#${n}`)
      .join(', ');
    parts.push(g.length === 1 ? `GC ${shown}` : `GCs ${shown}${g.length > maxGCs ? ` … (${formatInt(g.length)} GCs)` : ''}`);
  }
  if (f.evidence.startMSec !== null && f.evidence.endMSec !== null)
    parts.push(`${formatMs(f.evidence.startMSec)} – ${formatMs(f.evidence.endMSec)} into the trace`);
  return parts.join(', ');
}

export function findingLines(
  d: Pick<Diagnosis, 'findings' | 'notMeasured'> & Partial<Pick<Diagnosis, 'explain' | 'range'>>,
  opts: { explain?: boolean } = {},
): string[] {
  const out: string[] = [];
  const warnings = d.findings.filter((f) => f.severity === 'warning').length;
  const infos = d.findings.length - warnings;
  // No GC is not a clean bill of health: there was nothing to judge.
  const none = d.range?.gcCount === 0 ? 'Findings    none: no GC to diagnose' : 'Findings    none: no rule found a problem';
  out.push(d.findings.length === 0 ? none : `Findings    ${warnings} warning${warnings === 1 ? '' : 's'}, ${infos} info`);
  // With no GC in view, a rule that judges without GCs (request-tail-gc: requests and no pause) still
  // has an answer: said here, not only under --explain.
  if (d.range?.gcCount === 0 && d.findings.length === 0)
    for (const e of d.explain ?? []) if (e.status === 'ok') out.push(`            ${e.id}: ${e.reason.replace(/^ok \(score [\d.]+\): /, '')}`);
  for (const f of d.findings) {
    out.push('');
    out.push(`  ${f.severity === 'warning' ? 'WARNING' : 'info   '}  ${f.score.toFixed(1).padStart(5)}  ${f.title}  [${f.id}]`);
    out.push(`           evidence: ${evidenceText(f)}`);
    out.push(...stackEvidenceLines(f, '           '));
    out.push(`           why: ${f.explanation}`);
    out.push(`           do: ${f.advice}`);
  }
  if (d.notMeasured.length > 0) {
    out.push('');
    out.push('Not measured (the trace lacks what these rules need)');
    for (const n of d.notMeasured) out.push(`  ${n.id}: needs ${n.needs}`);
  }
  if (opts.explain === true && d.explain !== undefined) {
    out.push('');
    out.push('Explain (every rule, why it did or did not fire)');
    const w = Math.max(...d.explain.map((e) => e.id.length));
    for (const e of d.explain) out.push(`  ${e.id.padEnd(w)}  ${e.status.padEnd(14)}  ${e.reason}`);
  }
  return out;
}
