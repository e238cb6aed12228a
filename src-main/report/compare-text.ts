/**
 * `gcscope compare` as text: who is compared (and what differs between them, first), the warm-up,
 * the table of headline metrics with A, B, change (Hodges–Lehmann shift or ratio, said under it),
 * interval and verdict, the changes in plain
 * words, findings in one and not the other, and the method.
 */
import {
  CHANGE_EXPLAINED,
  CHANGE_HEADER,
  changeCell,
  noChangeHeadline,
  VERDICT_LABELS,
  type Comparison,
  type ComparisonMetric,
  type ComparisonSide,
} from '../shared/comparison.js';
import { escapeControl, formatFixed, formatInt, formatMs } from '../shared/format.js';
import { heapCountText } from '../shared/server-gc.js';

export function describeSide(s: ComparisonSide): string {
  const what = [
    s.processName,
    s.runtimeVersion !== null ? `.NET ${s.runtimeVersion}` : null,
    s.gcMode !== null ? `${s.gcMode} GC${s.concurrent === true ? ' (concurrent)' : ''}` : null,
    heapCountText(s.minHeapCount, s.heapCount),
    s.cpuCount !== null ? `${s.cpuCount} CPUs` : null,
  ]
    .filter((x) => x !== null)
    .join(', ');
  return escapeControl(`${s.label}${what !== '' ? ` — ${what}` : ''}`);
}

export function describeWarmup(s: ComparisonSide): string {
  const w = s.warmup;
  if (w.excludedGCs === 0) return `${s.label.slice(0, 1)}: ${w.note}`;
  // In the duration's own unit: a warm-up of one GC a few ms in read "first 0.00 s".
  const span = `first ${formatMs((w.endSec ?? 0) * 1000)}, ${formatInt(w.excludedGCs)} GC${w.excludedGCs === 1 ? '' : 's'}`;
  return `${s.label.slice(0, 1)}: ${w.excluded ? 'excluded' : 'included'} (${span}; ${w.note})`;
}

/** The table's cells for one metric. */
export function metricCells(m: ComparisonMetric): string[] {
  return [m.label, m.aText, m.bText, changeCell(m), m.intervalText, m.pAdjusted !== null ? formatFixed(m.pAdjusted, 4) : '', VERDICT_LABELS[m.verdict]];
}

export const METRIC_HEADERS = (level: number): string[] => ['Metric', 'A', 'B', CHANGE_HEADER, `${Math.round(level * 100)} % CI`, 'p (adj.)', 'Verdict'];

export function renderCompareText(c: Comparison): string {
  const out: string[] = [];
  out.push('GCScope comparison');
  out.push(`Verdict: ${escapeControl(c.verdict.text)}`);
  out.push(`${describeSide(c.a)}: ${formatInt(c.a.usedGCs)} of ${formatInt(c.a.gcCount)} GCs compared`);
  out.push(`${describeSide(c.b)}: ${formatInt(c.b.usedGCs)} of ${formatInt(c.b.gcCount)} GCs compared`);
  for (const d of c.differences) out.push(`NOTE: ${escapeControl(d)} Changes below include its effect.`);
  out.push('');
  out.push(`Warm-up ${c.options.includeWarmup ? 'included (--include-warmup)' : 'excluded (--include-warmup to keep it)'}:`);
  out.push(`  ${describeWarmup(c.a)}`);
  out.push(`  ${describeWarmup(c.b)}`);
  out.push('');
  const headers = METRIC_HEADERS(c.options.level);
  const rows = c.metrics.map((m) => metricCells(m));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((x, i) => (i === 0 || i === 6 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  out.push(line(headers));
  let group = '';
  for (let k = 0; k < rows.length; k++) {
    const m = c.metrics[k]!;
    const g = m.stratum ?? m.group;
    if (g !== group && k > 0) out.push('');
    group = g;
    out.push(line(rows[k]!));
  }
  out.push(`${CHANGE_HEADER}: ${CHANGE_EXPLAINED}`);
  out.push('');
  const changes = c.metrics.filter((m) => m.verdict === 'higher' || m.verdict === 'lower');
  out.push(changes.length === 0 ? `${noChangeHeadline(c.metrics)}.` : 'Changes:');
  for (const m of changes) out.push(`  ${m.direction!.padEnd(6)}  ${m.text}`);
  out.push('');
  if (c.findings.available) {
    const list = (f: { title: string }[]): string => (f.length === 0 ? 'none' : f.map((x) => escapeControl(x.title)).join('; '));
    out.push(`Findings only in A: ${list(c.findings.onlyA)}`);
    out.push(`Findings only in B: ${list(c.findings.onlyB)}`);
    out.push(
      `Findings in both:   ${c.findings.both.length === 0 ? 'none' : c.findings.both.map((f) => `${escapeControl(f.title)} (B: ${escapeControl(f.titleB)})`).join('; ')}`,
    );
    out.push('');
  }
  out.push('Method:');
  for (const m of c.method) out.push(`  ${m}`);
  return out.join('\n') + '\n';
}
