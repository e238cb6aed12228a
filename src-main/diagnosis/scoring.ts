/**
 * JDK Mission Control's scoring model (docs/diagnosis.md, "A finding"; JMC `RulesToolkit.java`, `Severity.java`):
 * a rule maps what it measured to a score 0–100 through exponential curves that pass fixed points,
 * and the score alone decides the severity — ≥ 75 warning, ≥ 25 information, below that no
 * finding. One model for every rule, so every threshold is one editable number.
 */
import { INFO_SCORE, WARNING_SCORE, type FindingSeverity } from '../shared/finding.js';

/** `C · (1 − e^{k·v})` with `k = ln(1 − y1/C) / x1`: passes (x1, y1) and tends to C. v ≤ 0 → 0. */
export function mapExp(v: number, C: number, x1: number, y1: number): number {
  if (!(v > 0)) return 0;
  const k = Math.log(1 - y1 / C) / x1;
  return C * (1 - Math.exp(k * v));
}

/** JMC's one-limit curve: 75 at the limit, ~100 at 3–4× it. */
export function mapExp100(v: number, limit: number): number {
  return mapExp(v, 100, limit, 75);
}

/**
 * JMC's two-limit curve: linear 0 → 25 up to the info limit, then exponential through 75 at the
 * warning limit. So "at the info threshold" is exactly an info finding and "at the warning
 * threshold" exactly a warning (scores are rounded to one decimal before they are judged).
 */
export function mapExp100Two(v: number, infoLimit: number, warnLimit: number): number {
  if (!(v > 0)) return 0;
  if (v < infoLimit) return (INFO_SCORE * v) / infoLimit;
  return INFO_SCORE + mapExp(v - infoLimit, 75, warnLimit - infoLimit, 50);
}

/**
 * Scores are published with one decimal, rounded down (so 24.95 reads 24.9, not a 25 that would
 * look like a finding) but forgiving floating-point error (a value computed at its limit as
 * 24.9999999 is 25). Severity is judged on this value.
 */
export function roundScore(s: number): number {
  return Math.floor(Math.min(100, Math.max(0, s)) * 10 + 1e-6) / 10;
}

export function severityOf(score: number): FindingSeverity | null {
  if (score >= WARNING_SCORE) return 'warning';
  if (score >= INFO_SCORE) return 'info';
  return null;
}
