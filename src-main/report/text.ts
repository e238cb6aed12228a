/**
 * `gcscope report` for a terminal: process and GC mode, summary, rollup by generation, and one
 * row per GC with the columns of PerfView's "GC Events by Time" table (plus POH), and the
 * data-quality notes that say what the trace cannot support and why.
 */
import { gcReasonName } from '../shared/gc-enums.js';
import type { GcReport } from './model.js';
import { describeCounts, isFramework } from './model.js';
import { findingLines } from './findings-text.js';
import type { GcRecord } from '../shared/gc-record.js';
import { escapeControl, formatCount, formatFixed, formatInt, formatMB, formatMs, formatPercent, formatRate, NA } from '../shared/format.js';

function table(headers: string[], rows: string[][], rightAlign: boolean[] = headers.map((_, i) => i > 0)): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (rightAlign[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)];
}

const f1 = (v: number | null): string => formatFixed(v, 1);
const f2 = (v: number | null): string => formatFixed(v, 2);
const f3 = (v: number | null): string => formatFixed(v, 3);
const pct = (v: number | null): string => (v === null ? NA : formatFixed(v, 0));

export function gcRow(g: GcRecord): string[] {
  const gens = [0, 1, 2, 3, 4].flatMap((i) => [f3(g.genSizeAfterMB[i] ?? null), pct(g.survivalPercent[i] ?? null), pct(g.fragmentationPercent[i] ?? null)]);
  return [
    String(g.number),
    g.gcGenerationName + (g.isComplete ? '' : ' (incomplete)'),
    gcReasonName(g.reason),
    f3(g.pauseStartRelativeMSec),
    f3(g.suspendDurationMSec),
    f3(g.pauseDurationMSec),
    f1(g.pauseTimePercentageSinceLastGC),
    f3(g.gen0AllocatedMB),
    f1(g.gen0AllocatedMB === null || g.durationSinceLastRestartMSec === null ? null : (g.gen0AllocatedMB * 1000) / g.durationSinceLastRestartMSec),
    f3(g.heapSizePeakMB),
    f3(g.heapSizeAfterMB),
    f3(g.promotedMB),
    ...gens,
    f3(g.finalizationPromotedMB),
    g.pinnedObjectCount === null ? NA : String(g.pinnedObjectCount),
  ];
}

export const GC_ROW_HEADERS = [
  'GC#',
  'Gen',
  'Reason',
  'Pause start ms',
  'Suspend ms',
  'Pause ms',
  '% pause',
  'Gen0 alloc MB',
  'Alloc MB/s',
  'Peak MB',
  'After MB',
  'Promoted MB',
  'Gen0 MB',
  'Surv%',
  'Frag%',
  'Gen1 MB',
  'Surv%',
  'Frag%',
  'Gen2 MB',
  'Surv%',
  'Frag%',
  'LOH MB',
  'Surv%',
  'Frag%',
  'POH MB',
  'Surv%',
  'Frag%',
  'Fin surv MB',
  'Pinned',
];

export function renderTextReport(rep: GcReport, opts: { maxGCs?: number } = {}): string {
  const out: string[] = [];
  const p = rep.process;
  const s = rep.summary;
  out.push(`GCScope report — ${rep.trace.source ?? 'session'}`);
  out.push('');
  const procLine = [
    p.name ?? 'unknown process',
    p.pid !== null ? `pid ${p.pid}` : null,
    p.runtimeVersion !== null ? `.NET ${p.runtimeVersion}` : null,
    [p.os, p.arch].filter((x) => x !== null).join(' ') || null,
  ]
    .filter((x) => x !== null)
    .join(', ');
  // The process name and command line come from the trace: a hostile one must not drive the terminal.
  out.push(`Process     ${escapeControl(procLine)}`);
  if (p.commandLine !== null) out.push(`Command     ${escapeControl(p.commandLine)}`);
  const mode =
    p.gcMode === null
      ? 'unknown (the trace has no runtime information)'
      : `${p.gcMode}${p.concurrent === true ? ', concurrent (background GC)' : p.concurrent === false ? ', non-concurrent' : ''}`;
  const sg = rep.serverGc;
  const heaps =
    sg !== null && sg.minHeapCount !== null && sg.maxHeapCount !== null && sg.minHeapCount !== sg.maxHeapCount
      ? `${sg.minHeapCount}–${sg.maxHeapCount} heaps`
      : p.heapCount !== null
        ? formatCount(p.heapCount, 'heap')
        : null;
  out.push(`GC mode     ${mode}${heaps !== null ? `; ${heaps}` : ''}`);
  out.push(
    `Trace       ${rep.trace.format ?? 'unknown format'}, started ${rep.trace.startTimeUtc ?? 'n/a'}, ${rep.trace.cpuCount ?? '?'} CPUs, ${formatMs(s.traceDurationMSec)} of events`,
  );
  out.push('');
  if (s.gcCount === 0) {
    out.push('No garbage collections in this trace.');
    if (rep.quality.nonGCSuspensions > 0)
      out.push(`(${formatInt(rep.quality.nonGCSuspensions)} runtime suspensions that were not GCs, e.g. for a sampling profiler.)`);
  } else {
    out.push(`Summary     ${formatCount(s.gcCount, 'GC')}: ${describeCounts(rep)}`);
    out.push(
      `            pause total ${formatMs(s.totalPauseMSec)}, max ${formatMs(s.maxPauseMSec)}, mean ${formatMs(s.meanPauseMSec)}; p50 ${formatMs(s.pauseP50MSec)}, p90 ${formatMs(s.pauseP90MSec)}, p99 ${formatMs(s.pauseP99MSec)}`,
    );
    out.push(
      `            ${formatPercent(s.pauseTimePercentage, 2)} of the time paused for GC${pausedOver(s)}; ${formatMB(s.totalAllocatedMB)} allocated; peak heap ${formatMB(s.maxHeapSizeMB)}`,
    );
    out.push(...memoryLines(rep));
    if (rep.serverGc !== null) out.push(...serverGcLines(rep));
    out.push('');
    out.push(...findingLines({ findings: rep.findings, notMeasured: rep.findingsNotMeasured }));
    out.push('');
    out.push('Rollup by generation');
    out.push(
      ...table(
        [
          'Gen',
          'Count',
          'Max pause ms',
          'Mean pause ms',
          'p50 ms',
          'p90 ms',
          'p99 ms',
          'Total pause ms',
          'Alloc MB',
          'Max alloc MB/s',
          'Max peak MB',
          'Promoted MB',
          'Survival %',
          'Induced',
        ],
        rep.generations.map((g) => [
          String(g.generation),
          String(g.count),
          f3(g.count > 0 ? g.maxPauseDurationMSec : null),
          f3(g.meanPauseDurationMSec),
          f3(g.pauseP50MSec),
          f3(g.pauseP90MSec),
          f3(g.pauseP99MSec),
          f3(g.totalPauseTimeMSec),
          f2(g.totalAllocatedMB),
          f1(g.count > 0 ? g.maxAllocRateMBSec : null),
          f2(g.count > 0 ? g.maxSizePeakMB : null),
          f2(g.totalPromotedMB),
          f1(g.survivalPercent),
          String(g.numInduced),
        ]),
      ),
    );
    out.push('');
    const shown = opts.maxGCs !== undefined && rep.gcs.length > opts.maxGCs ? rep.gcs.slice(-opts.maxGCs) : rep.gcs;
    out.push(shown.length < rep.gcs.length ? `GCs (last ${shown.length} of ${rep.gcs.length}; --all shows every one)` : 'GCs');
    out.push(
      ...table(
        GC_ROW_HEADERS,
        shown.map(gcRow),
        GC_ROW_HEADERS.map((_, i) => i !== 1 && i !== 2),
      ),
    );
  }
  out.push('');
  out.push(...qualityLines(rep));
  return out.join('\n') + '\n';
}

/** Heap and committed against the hard limit and the high memory load threshold (M14). */
export function memoryLines(rep: GcReport): string[] {
  const m = rep.memory;
  const limit =
    m.hardLimitBytes === null
      ? m.settingsKnown
        ? 'no hard limit configured'
        : isFramework(rep.process.runtimeVersion)
          ? 'no hard limit (.NET Framework has none)'
          : 'hard limit unknown (the trace has no GCSettingsRundown: .NET 8+ rundown)'
      : `hard limit ${formatMB(m.hardLimitMB)} (${formatInt(m.hardLimitBytes)} bytes)`;
  const gap = m.minHeadroomMB === null ? '' : `; tightest headroom ${formatMB(m.minHeadroomMB)} below the limit (GC #${m.minHeadroomGcNumber})`;
  const load =
    m.maxMemoryLoadPercent === null
      ? 'memory load n/a'
      : `memory load max ${formatFixed(m.maxMemoryLoadPercent, 0)} % (high at ${m.highMemoryLoadPercent} %${m.highMemoryLoadConfigured ? ', configured' : ''}${m.gcsAtHighMemoryLoad > 0 ? `; ${formatCount(m.gcsAtHighMemoryLoad, 'GC')} at or above it` : ''})`;
  return [`Memory      ${limit}; heap after GC max ${formatMB(m.maxHeapAfterMB)}; committed max ${formatMB(m.maxCommittedMB)}${gap}`, `            ${load}`];
}

/** Heap counts per GC and what DATAS decided (Server GC only). */
export function serverGcLines(rep: GcReport): string[] {
  const s = rep.serverGc;
  if (s === null) return [];
  const changes = s.heapCountChanges.length === 0 ? 'no heap-count change' : s.heapCountChanges.map((c) => `${c.from}→${c.to} at GC #${c.gcNumber}`).join(', ');
  const out = [`Server GC   heaps per GC ${s.minHeapCount ?? NA}${s.maxHeapCount !== s.minHeapCount ? `–${s.maxHeapCount ?? NA}` : ''}; ${changes}`];
  if (s.samples > 0 || s.tunings > 0) {
    out.push(
      `            DATAS: ${formatCount(s.samples, 'sample')}, ${formatCount(s.tunings, 'decision')}, ${formatCount(s.fullGcTunings, 'gen2 decision')}; median throughput cost ${s.medianTcpPercent === null ? NA : `${formatFixed(s.medianTcpPercent, 2)} %`} (target ${s.targetTcpPercent} %)` +
        `; ${formatCount(s.changePauses.count, 'heap-count change pause')}${s.changePauses.count > 0 ? ` (${formatMs(s.changePauses.totalMSec)} total, max ${formatMs(s.changePauses.maxMSec)})` : ''}`,
    );
  } else if (s.missingDynamicEvents) out.push('            DATAS: no dynamic events — DATAS is off, or the trace lacks the GC keyword at Informational');
  const raw = Object.entries(s.rawDynamicEvents);
  if (raw.length > 0) out.push(`            dynamic events kept raw (unknown layout): ${raw.map(([n, c]) => `${n} ×${c}`).join(', ')}`);
  return out;
}

export function qualityLines(rep: GcReport): string[] {
  const q = rep.quality;
  const out = ['Data quality'];
  out.push(
    `  dropped events: ${formatInt(q.droppedEvents)}${q.droppedEvents > 0 ? ' — the runtime lost events (buffers full); GCs around the gaps may be incomplete' : ''}`,
  );
  out.push(
    `  incomplete GCs: ${formatInt(q.incompleteGCs)}${q.incompleteGCs > 0 ? ' — still running when the trace ended, or their events were lost; shown but not in the rollup' : ''}`,
  );
  if (q.truncated) out.push(`  the trace is incomplete: ${q.statusReason ?? 'it ends early'}`);
  for (const m of q.missingEvents) out.push(`  missing: ${m}`);
  for (const u of q.unavailable) out.push(`  unavailable: ${u.metric} — ${u.reason}`);
  return out;
}

/**
 * What the % of time paused is over, said beside it: TraceEvent's span (first GC to the last
 * HeapStats), often much shorter than the trace's events (683 ms of events, GCs over 33.3 ms).
 */
export function pausedOver(s: Pick<GcReport['summary'], 'processDurationMSec'>): string {
  return s.processDurationMSec > 0 ? ` (of the ${formatMs(s.processDurationMSec)} from the first GC to the last)` : '';
}

export function renderSummaryParagraph(rep: Pick<GcReport, 'summary' | 'quality'>): string {
  const s = rep.summary;
  if (s.gcCount === 0) return 'No garbage collections in this trace.';
  return (
    `${formatCount(s.gcCount, 'GC')} (${describeCounts(rep)}); pause total ${formatMs(s.totalPauseMSec)}, max ${formatMs(s.maxPauseMSec)}, ` +
    `p99 ${formatMs(s.pauseP99MSec)}; ${formatPercent(s.pauseTimePercentage, 2)} of the time paused${pausedOver(s)}; peak heap ${formatMB(s.maxHeapSizeMB)}; ` +
    `${formatMB(s.totalAllocatedMB)} allocated${s.totalAllocatedMB > 0 && s.traceDurationMSec ? ` (${formatRate((s.totalAllocatedMB * 1000) / s.traceDurationMSec)})` : ''}.`
  );
}
