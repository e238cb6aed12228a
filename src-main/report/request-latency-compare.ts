/**
 * The request-latency section of a comparison (compare/request-latency.ts; issue 42) as text and
 * as an HTML fragment: A and B's request-latency percentiles and GC share, side by side, and the
 * p99 verdict in one sentence.
 */
import type { RequestLatencyComparison, RequestLatencyRow } from '../compare/request-latency.js';
import { formatInt, formatMs, formatPercent } from '../shared/format.js';

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function cell(r: RequestLatencyRow, v: number | null): string {
  if (v === null) return 'n/a';
  return r.unit === 'count' ? formatInt(v) : r.unit === 'ms' ? formatMs(v) : formatPercent(100 * v);
}

export function renderRequestLatencyText(c: RequestLatencyComparison): string {
  const out = ['', 'Requests (which requests the GC delayed)'];
  if (c.p99Verdict !== 'not measured') {
    const w = Math.max(...c.rows.map((r) => r.label.length));
    out.push(`  ${''.padEnd(w)}  ${'A'.padStart(11)}  ${'B'.padStart(11)}`);
    for (const r of c.rows) out.push(`  ${r.label.padEnd(w)}  ${cell(r, r.a).padStart(11)}  ${cell(r, r.b).padStart(11)}`);
  }
  out.push(`  ${c.summary}`);
  return out.join('\n') + '\n';
}

export function renderRequestLatencyHtml(c: RequestLatencyComparison): string {
  const rows =
    c.p99Verdict === 'not measured'
      ? ''
      : `<table><tr><th></th><th>A</th><th>B</th></tr>${c.rows.map((r) => `<tr><td>${escapeHtml(r.label)}</td><td>${escapeHtml(cell(r, r.a))}</td><td>${escapeHtml(cell(r, r.b))}</td></tr>`).join('')}</table>`;
  return `<h2>Requests</h2><p>${escapeHtml(c.summary)}</p>${rows}`;
}
