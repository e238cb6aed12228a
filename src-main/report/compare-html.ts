/**
 * `gcscope compare --format html`: one self-contained file (no scripts, no external resources):
 * the sides and what differs between them, the metric table with verdicts, overlaid pause ECDFs
 * per stratum on a log axis, and heap after GC over a shared time axis (seconds since each side's
 * first GC), as inline SVG.
 */
import { CHANGE_EXPLAINED, CHANGE_HEADER, noChangeHeadline, type Comparison, type HeapSeries, type PauseDistribution } from '../shared/comparison.js';
import { formatInt, formatMB, formatMs } from '../shared/format.js';
// A and B: the blue/orange pair of the one palette, apart under common colour blindness.
import { SIDE_COLORS } from '../shared/palette.js';
import { describeSide, describeWarmup, METRIC_HEADERS, metricCells } from './compare-text.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function ecdf(d: PauseDistribution): string {
  const W = 460;
  const H = 220;
  const pad = 40;
  const all = [...d.a, ...d.b].filter((v) => v > 0);
  if (all.length === 0) return '';
  const lo = Math.log10(Math.min(...all));
  const hi = Math.max(lo + 0.5, Math.log10(Math.max(...all)));
  const x = (v: number): number => pad + ((Math.log10(Math.max(v, 10 ** lo)) - lo) / (hi - lo)) * (W - 2 * pad);
  const y = (p: number): number => H - pad - p * (H - 2 * pad);
  const path = (v: number[]): string => v.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p).toFixed(1)},${y(i / Math.max(1, v.length - 1)).toFixed(1)}`).join('');
  // A single GC is a dot at 100 %.
  const lines = [d.a, d.b]
    .map((v, k) =>
      v.length > 1
        ? `<path d="${path(v)}" fill="none" stroke="${SIDE_COLORS[k]}" stroke-width="2"/>`
        : v.length === 1
          ? `<circle cx="${x(v[0]!).toFixed(1)}" cy="${y(1).toFixed(1)}" r="3" fill="${SIDE_COLORS[k]}"/>`
          : '',
    )
    .join('');
  return `<figure><svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${d.label} pause distribution`)}"><text x="4" y="14" class="axis">${esc(d.label)} pauses: share ≤ x (A ${formatInt(d.nA)}, B ${formatInt(d.nB)} GCs)</text><line x1="${pad}" x2="${W - pad}" y1="${H - pad}" y2="${H - pad}" class="axisline"/><text x="${pad}" y="${H - 20}" class="axis">${esc(formatMs(10 ** lo))}</text><text x="${W - pad}" y="${H - 20}" text-anchor="end" class="axis">${esc(formatMs(10 ** hi))} (log)</text>${lines}</svg></figure>`;
}

function heapChart(a: HeapSeries, b: HeapSeries): string {
  const W = 960;
  const H = 220;
  const pad = 40;
  const tMax = Math.max(1e-3, ...a.t, ...b.t);
  const hMax = Math.max(1e-3, ...a.heapMB, ...b.heapMB);
  const x = (t: number): number => pad + (t / tMax) * (W - 2 * pad);
  const y = (v: number): number => H - pad - (v / hMax) * (H - 2 * pad);
  const line = (s: HeapSeries, k: number): string =>
    s.t.length === 0
      ? ''
      : `<path d="${s.t.map((t, i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(s.heapMB[i]!).toFixed(1)}`).join('')}" fill="none" stroke="${SIDE_COLORS[k]}" stroke-width="1.5"/>`;
  const mark = (s: HeapSeries, k: number): string =>
    s.warmupEndSec === null
      ? ''
      : `<line x1="${x(s.warmupEndSec).toFixed(1)}" x2="${x(s.warmupEndSec).toFixed(1)}" y1="${pad}" y2="${H - pad}" stroke="${SIDE_COLORS[k]}" stroke-dasharray="4 3"><title>end of warm-up</title></line>`;
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Heap after GC over time, A and B"><text x="4" y="14" class="axis">heap after GC (max ${esc(formatMB(hMax))}); seconds since each side's first GC; dashed: end of warm-up</text><line x1="${pad}" x2="${W - pad}" y1="${H - pad}" y2="${H - pad}" class="axisline"/><text x="${pad}" y="${H - 20}" class="axis">0 s</text><text x="${W - pad}" y="${H - 20}" text-anchor="end" class="axis">${tMax.toFixed(1)} s</text>${line(a, 0)}${line(b, 1)}${mark(a, 0)}${mark(b, 1)}</svg>`;
}

export function renderCompareHtml(c: Comparison): string {
  const headers = METRIC_HEADERS(c.options.level);
  const rows = c.metrics
    .map((m) => {
      const cls = m.direction ?? m.verdict;
      return `<tr class="${cls}" title="${esc(m.text)}">${metricCells(m)
        .map((x) => `<td>${esc(x)}</td>`)
        .join('')}</tr>`;
    })
    .join('');
  const changes = c.metrics.filter((m) => m.verdict === 'higher' || m.verdict === 'lower');
  const findings = c.findings.available
    ? `<h2>Findings</h2><ul><li>Only in A: ${esc(c.findings.onlyA.map((f) => f.title).join('; ') || 'none')}</li><li>Only in B: ${esc(c.findings.onlyB.map((f) => f.title).join('; ') || 'none')}</li><li>In both: ${esc(c.findings.both.map((f) => `${f.title} (B: ${f.titleB})`).join('; ') || 'none')}</li></ul>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>GCScope comparison</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}td:first-child,th:first-child,td:last-child,th:last-child{text-align:left}
tr.worse td{background:#fde2e1}tr.better td{background:#e1f3e4}tr.change td{background:#e3ecfa}tr.insufficient td,tr.not-tested td{color:#888}.verdict{font-size:16px;padding:6px 10px;border-left:4px solid #999}.verdict.worse{border-color:#d9534f}.verdict.better{border-color:#3c9a4f}.verdict.mixed{border-color:#e6a700}.note{background:#fff4ce;padding:6px 10px;border-left:4px solid #e6a700}
svg{max-width:100%;height:auto}.axis{font-size:11px;fill:#555}.axisline{stroke:#999}figure{display:inline-block;width:460px;max-width:100%;margin:0 12px 12px 0;vertical-align:top}figure svg{width:100%}.a{color:${SIDE_COLORS[0]}}.b{color:${SIDE_COLORS[1]}}
</style></head><body>
<h1>GC comparison</h1>
<p class="verdict ${c.verdict.kind}" data-testid="compare-verdict"><b>Verdict:</b> ${esc(c.verdict.text)}</p>
<p><b class="a">■</b> ${esc(describeSide(c.a))}: ${formatInt(c.a.usedGCs)} of ${formatInt(c.a.gcCount)} GCs compared<br><b class="b">■</b> ${esc(describeSide(c.b))}: ${formatInt(c.b.usedGCs)} of ${formatInt(c.b.gcCount)} GCs compared</p>
${c.differences.map((d) => `<p class="note">${esc(d)} Changes below include its effect.</p>`).join('')}
<p>Warm-up ${c.options.includeWarmup ? 'included' : 'excluded'}: ${esc(describeWarmup(c.a))}; ${esc(describeWarmup(c.b))}.</p>
<h2>${changes.length === 0 ? esc(noChangeHeadline(c.metrics)) : 'Changes'}</h2>
<ul>${changes.map((m) => `<li class="${m.direction}">${esc(m.text)}</li>`).join('')}</ul>
<table><thead><tr>${headers.map((h) => `<th${h === CHANGE_HEADER ? ` title="${esc(CHANGE_EXPLAINED)}"` : ''}>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table>
<p class="axis">${esc(`${CHANGE_HEADER}: ${CHANGE_EXPLAINED}`)}</p>
<h2>Pause distributions</h2>${c.distributions.map(ecdf).join('')}
<h2>Heap after GC</h2>${heapChart(c.heap.a, c.heap.b)}
${findings}
<h2>Method</h2><ul>${c.method.map((m) => `<li>${esc(m)}</li>`).join('')}</ul>
</body></html>
`;
}
