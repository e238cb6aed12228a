/**
 * `report --format html`: one self-contained file — summary, rollup, pause and heap charts as
 * inline SVG, the GC table, data quality; no scripts, no external resources.
 */
import { GEN_LABELS, type GcRecord } from '../shared/gc-column-registry.js';
// The generation palette shared with the app (docs/ui.md).
import { GEN_COLORS } from '../shared/palette.js';
import { formatCount, formatInt, formatMB, formatMs, formatPercent } from '../shared/format.js';
import { describeCounts, type GcReport } from './model.js';
import { GC_ROW_HEADERS, gcRow, memoryLines, pausedOver, qualityLines, serverGcLines } from './text.js';
import { evidenceText } from './findings-text.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// The charts and the GC table read each GC once, by index, and keep only what they draw: the
// report's GC list may build each record as it is read (a stored session's rows), and holding
// them all (filtered, mapped, spread into Math.max) took a 39,000-GC report to ~470 MB.

function pauseChart(gcs: readonly GcRecord[]): string {
  const W = 960;
  const H = 180;
  const pad = 36;
  const n = gcs.length;
  if (n === 0) return '';
  const start = new Float64Array(n);
  const pause = new Float64Array(n);
  const gen: number[] = [];
  const background: boolean[] = [];
  const title: string[] = [];
  for (let i = 0; i < n; i++) {
    const g = gcs[i]!;
    start[i] = g.pauseStartRelativeMSec;
    pause[i] = g.pauseDurationMSec;
    gen.push(g.generation);
    background.push(g.type === 1);
    title.push(`GC ${g.number} ${g.gcGenerationName}: ${formatMs(g.pauseDurationMSec)}`);
  }
  const t0 = start[0]!;
  // Math.max over the values one at a time: the same answer as over all of them spread (NaN included).
  let t1 = t0 + 1;
  let maxP = 0.001;
  for (let i = 0; i < n; i++) {
    t1 = Math.max(t1, start[i]! + pause[i]!);
    maxP = Math.max(maxP, pause[i]!);
  }
  const x = (t: number): number => pad + ((t - t0) / (t1 - t0)) * (W - 2 * pad);
  const y = (p: number): number => H - pad - (p / maxP) * (H - 2 * pad);
  const marks: string[] = [];
  for (let i = 0; i < n; i++) {
    const cx = x(start[i]!).toFixed(1);
    const color = GEN_COLORS[gen[i]!];
    const fill = background[i] ? 'none' : color!;
    marks.push(
      `<line x1="${cx}" x2="${cx}" y1="${(H - pad).toFixed(1)}" y2="${y(pause[i]!).toFixed(1)}" stroke="${color}" stroke-width="2"><title>${title[i]}</title></line><circle cx="${cx}" cy="${y(pause[i]!).toFixed(1)}" r="3" fill="${fill}" stroke="${color}"/>`,
    );
  }
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="GC pauses over time"><text x="4" y="14" class="axis">pause (max ${esc(formatMs(maxP))})</text><line x1="${pad}" x2="${W - pad}" y1="${H - pad}" y2="${H - pad}" class="axisline"/><text x="${pad}" y="${H - 8}" class="axis">${esc(formatMs(t0))}</text><text x="${W - pad}" y="${H - 8}" text-anchor="end" class="axis">${esc(formatMs(t1))}</text>${marks.join('')}</svg>`;
}

function heapChart(gcs: readonly GcRecord[]): string {
  // The GCs with a heap size after, as columns: time, heap after, and each generation's size after.
  const time: number[] = [];
  const heap: number[] = [];
  const genAfter: number[][] = [[], [], [], [], []];
  for (let i = 0; i < gcs.length; i++) {
    const g = gcs[i]!;
    if (g.heapSizeAfterMB === null) continue;
    time.push(g.pauseStartRelativeMSec);
    heap.push(g.heapSizeAfterMB);
    for (let k = 0; k < 5; k++) genAfter[k]!.push(g.genSizeAfterMB[k] ?? 0);
  }
  const n = time.length;
  if (n === 0) return '';
  const W = 960;
  const H = 200;
  const pad = 36;
  const t0 = time[0]!;
  const t1 = Math.max(t0 + 1, time[n - 1]!);
  let maxH = 0.001;
  for (let i = 0; i < n; i++) maxH = Math.max(maxH, heap[i]!);
  const x = (t: number): number => pad + ((t - t0) / (t1 - t0)) * (W - 2 * pad);
  const y = (v: number): number => H - pad - (v / maxH) * (H - 2 * pad);
  const layers: string[] = [];
  const base = new Array<number>(n).fill(0);
  for (let gen = 0; gen < 5; gen++) {
    const top = genAfter[gen]!.map((v, i) => base[i]! + v);
    const upper = top.map((v, i) => `${x(time[i]!).toFixed(1)},${y(v).toFixed(1)}`);
    const lower = base.map((v, i) => `${x(time[i]!).toFixed(1)},${y(v).toFixed(1)}`).reverse();
    layers.push(
      `<polygon points="${[...upper, ...lower].join(' ')}" fill="${GEN_COLORS[gen]}" fill-opacity="0.75"><title>${GEN_LABELS[gen]}</title></polygon>`,
    );
    top.forEach((v, i) => (base[i] = v));
  }
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="Heap size after each GC by generation"><text x="4" y="14" class="axis">heap after GC (max ${esc(formatMB(maxH))})</text>${layers.join('')}<line x1="${pad}" x2="${W - pad}" y1="${H - pad}" y2="${H - pad}" class="axisline"/></svg>`;
}

/** The GC table, each GC's row made from one read of it, yielded 512 rows at a time. */
function* gcTablePieces(gcs: readonly GcRecord[]): Generator<string, void, void> {
  yield tableHead(GC_ROW_HEADERS);
  let rows: string[] = [];
  for (let i = 0; i < gcs.length; i++) {
    const g = gcs[i]!;
    rows.push(tableRow(gcRow(g), g.isComplete ? `g${g.generation}` : 'incomplete'));
    if (rows.length === 512) {
      yield rows.join('');
      rows = [];
    }
  }
  yield `${rows.join('')}${TABLE_END}`;
}

function htmlTable(headers: string[], rows: string[][]): string {
  return `${tableHead(headers)}${rows.map((r) => tableRow(r)).join('')}${TABLE_END}`;
}

function tableHead(headers: readonly string[]): string {
  return `<table><thead><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>`;
}

function tableRow(cells: readonly string[], cls?: string): string {
  return `<tr${cls !== undefined ? ` class="${cls}"` : ''}>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
}

const TABLE_END = '</tbody></table>';

function findingsHtml(rep: GcReport): string {
  const cards = rep.findings
    .map(
      (f) =>
        `<div class="finding ${f.severity}"><h3><span class="sev">${f.severity}</span>${esc(f.title)} <span class="axis">score ${f.score.toFixed(1)} · ${esc(f.id)}</span></h3>` +
        `<p><b>Evidence</b>: ${esc(evidenceText(f))}</p><p><b>Why it matters</b>: ${esc(f.explanation)}</p><p><b>What to do</b>: ${esc(f.advice)}</p></div>`,
    )
    .join('');
  const none = rep.findings.length === 0 ? '<p>No rule found a problem.</p>' : '';
  const nm =
    rep.findingsNotMeasured.length > 0
      ? `<p class="axis">Not measured: ${rep.findingsNotMeasured.map((n) => `${esc(n.id)} (needs ${esc(n.needs)})`).join('; ')}</p>`
      : '';
  return none + cards + nm;
}

/** The report as one HTML text (the joined htmlReportPieces). */
export function renderHtmlReport(rep: GcReport): string {
  return [...htmlReportPieces(rep)].join('');
}

/**
 * The report's HTML in pieces, in order: the page up to the GC table, the table a few hundred
 * rows at a time, the rest. A long trace's table is tens of MB of text; written as it is
 * produced, it is never held whole (with the copies writing it makes).
 */
export function* htmlReportPieces(rep: GcReport): Generator<string, void, void> {
  const s = rep.summary;
  const p = rep.process;
  const legend = GEN_LABELS.map((l, i) => `<span class="sw" style="background:${GEN_COLORS[i]}"></span>${l}`).join(' ');
  const rollupRows = rep.generations.map((g) => [
    String(g.generation),
    formatInt(g.count),
    formatMs(g.count > 0 ? g.maxPauseDurationMSec : null),
    formatMs(g.meanPauseDurationMSec),
    formatMs(g.pauseP50MSec),
    formatMs(g.pauseP90MSec),
    formatMs(g.pauseP99MSec),
    formatMs(g.totalPauseTimeMSec),
    formatMB(g.totalAllocatedMB),
    formatMB(g.totalPromotedMB),
    formatPercent(g.survivalPercent),
    formatInt(g.numInduced),
  ]);
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GCScope report — ${esc(p.name ?? rep.trace.source ?? 'trace')}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root{color-scheme:light dark;--fg:#1d2330;--bg:#fff;--muted:#667;--line:#dde}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ee;--bg:#15181e;--muted:#99a;--line:#334}}
body{font:14px/1.4 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:24px;max-width:1400px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}dl{display:grid;grid-template-columns:140px 1fr;gap:4px 12px}dt{color:var(--muted)}
table{border-collapse:collapse;font:12px/1.3 ui-monospace,monospace}th,td{border-bottom:1px solid var(--line);padding:3px 6px;text-align:right;white-space:nowrap}
th{position:sticky;top:0;background:var(--bg)}td:nth-child(2),td:nth-child(3){text-align:left}.scroll{overflow:auto;max-height:70vh}
svg{width:100%;height:auto;border:1px solid var(--line)}.axis{font:11px sans-serif;fill:var(--muted)}.axisline{stroke:var(--muted)}
.finding{border-left:4px solid var(--muted);padding:4px 10px;margin:10px 0}.finding.warning{border-color:#d1495b}.finding.info{border-color:#4e79a7}.finding h3{font-size:14px;margin:0 0 4px}.finding p{margin:2px 0}.sev{font:600 11px sans-serif;text-transform:uppercase;margin-right:6px}
.sw{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}.g0{}.g2 td{font-weight:600}.incomplete td{color:var(--muted);font-style:italic}
</style></head><body>
<h1>GCScope report — ${esc(p.name ?? 'unknown process')}</h1>
<dl>
<dt>Process</dt><dd>${esc([p.pid !== null ? `pid ${p.pid}` : '', p.runtimeVersion !== null ? `.NET ${p.runtimeVersion}` : '', p.os ?? '', p.arch ?? ''].filter((x) => x).join(', '))}</dd>
<dt>Command line</dt><dd>${esc(p.commandLine ?? 'n/a')}</dd>
<dt>GC mode</dt><dd>${esc(p.gcMode ?? 'unknown')}${p.concurrent === true ? ', concurrent' : ''}${rep.serverGc !== null && rep.serverGc.minHeapCount !== null && rep.serverGc.minHeapCount !== rep.serverGc.maxHeapCount ? `; ${rep.serverGc.minHeapCount}–${rep.serverGc.maxHeapCount} heaps` : p.heapCount !== null ? `; ${formatCount(p.heapCount, 'heap')}` : ''}</dd>
<dt>Trace</dt><dd>${esc(rep.trace.source ?? '')} — ${esc(rep.trace.format ?? '')}, started ${esc(rep.trace.startTimeUtc ?? 'n/a')}</dd>
<dt>GCs</dt><dd>${formatInt(s.gcCount)}: ${esc(describeCounts(rep))}</dd>
<dt>Pauses</dt><dd>total ${formatMs(s.totalPauseMSec)}, max ${formatMs(s.maxPauseMSec)}, p50 ${formatMs(s.pauseP50MSec)}, p90 ${formatMs(s.pauseP90MSec)}, p99 ${formatMs(s.pauseP99MSec)}</dd>
<dt>Time paused</dt><dd>${formatPercent(s.pauseTimePercentage, 2)}${esc(pausedOver(s))}</dd>
<dt>Allocated</dt><dd>${formatMB(s.totalAllocatedMB)}; peak heap ${formatMB(s.maxHeapSizeMB)}</dd>
<dt>Memory</dt><dd>${memoryLines(rep)
    .map((l) => esc(l.replace(/^Memory\s+/, '').trim()))
    .join('<br>')}</dd>
${
  rep.serverGc !== null
    ? `<dt>Server GC</dt><dd>${serverGcLines(rep)
        .map((l) => esc(l.replace(/^Server GC\s+/, '').trim()))
        .join('<br>')}</dd>`
    : ''
}
</dl>
<h2>Findings</h2>${findingsHtml(rep)}
<h2>Pauses</h2><p>${legend}; hollow marks are background GCs.</p>${pauseChart(rep.gcs)}
<h2>Heap after each GC</h2>${heapChart(rep.gcs)}
<h2>Rollup by generation</h2>${htmlTable(['Gen', 'Count', 'Max pause', 'Mean pause', 'p50', 'p90', 'p99', 'Total pause', 'Allocated', 'Promoted', 'Survival', 'Induced'], rollupRows)}
<h2>GC events by time</h2><div class="scroll">`;
  yield* gcTablePieces(rep.gcs);
  yield `</div>
<h2>Data quality</h2><ul>${qualityLines(rep)
    .slice(1)
    .map((l) => `<li>${esc(l.trim())}</li>`)
    .join('')}</ul>
<p class="axis">Numbers follow TraceEvent's GCStats definitions (sizes in MB of 10^6 bytes, times in ms since the trace started). Generated by GCScope.</p>
</body></html>
`;
}
