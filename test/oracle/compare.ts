/**
 * Compares GCScope's per-GC analysis of a trace with TraceEvent's (a golden CSV written by
 * test/oracle/GcOracle). Used by the golden tests and runnable by hand:
 *   npx tsx test/oracle/compare.ts TRACE GOLDEN.csv
 */
import { readFileSync } from 'node:fs';
import { analyzeTraceFile } from '../../src-main/recording/analyze-file.js';
import { gcToOracleRow, ORACLE_COLUMNS } from './oracle-row.js';

export interface Diff {
  number: string;
  column: string;
  ours: string;
  theirs: string;
}

export function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split('\n');
  const cols = head!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [cols[i]!, v])));
}

/** Tolerances: times 0.001 ms, sizes 0.000001 MB, percentages and rates 1e-6 relative. */
function close(column: string, a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return false;
  if (/MSec$/.test(column)) return Math.abs(x - y) <= 0.001;
  if (/MB$/.test(column)) return Math.abs(x - y) <= 0.000001;
  return Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x), Math.abs(y));
}

export async function compareWithOracle(trace: string, goldenCsv: string): Promise<{ diffs: Diff[]; ours: number; theirs: number }> {
  const golden = parseCsv(readFileSync(goldenCsv, 'utf8'));
  const { analyzer } = await analyzeTraceFile(trace);
  const ours = analyzer.gcs.filter((g) => g !== undefined).map((g) => gcToOracleRow(g!));
  const diffs: Diff[] = [];
  const n = Math.max(ours.length, golden.length);
  for (let i = 0; i < n; i++) {
    const o = ours[i];
    const t = golden[i];
    if (o === undefined || t === undefined) {
      diffs.push({ number: o?.Number ?? t?.Number ?? '?', column: 'row', ours: o ? 'present' : 'missing', theirs: t ? 'present' : 'missing' });
      continue;
    }
    for (const c of ORACLE_COLUMNS) {
      if (!close(c, o[c] ?? '', t[c] ?? '')) diffs.push({ number: t.Number!, column: c, ours: o[c] ?? '', theirs: t[c] ?? '' });
    }
  }
  return { diffs, ours: ours.length, theirs: golden.length };
}

if (process.argv[1]?.endsWith('compare.ts') && process.argv.length >= 4) {
  const r = await compareWithOracle(process.argv[2]!, process.argv[3]!);
  console.log(`GCs: ours ${r.ours}, TraceEvent ${r.theirs}; ${r.diffs.length} differences`);
  for (const d of r.diffs.slice(0, 60)) console.log(`  GC ${d.number} ${d.column}: ours ${d.ours}, TraceEvent ${d.theirs}`);
}

/** Rollup values with the GcOracle --rollup CSV's column names. */
export async function compareRollupWithOracle(trace: string, goldenCsv: string): Promise<Diff[]> {
  // The app's own path: GcRecords → columns (the registry's) → rollup, as report and range summaries do.
  const { completedRows, rollup } = await import('../../src-main/gc/rollup.js');
  const { toGcRecord } = await import('../../src-main/gc/to-record.js');
  const { columnsFromRecords } = await import('../../src-main/shared/gc-column-registry.js');
  const golden = parseCsv(readFileSync(goldenCsv, 'utf8'));
  const { analyzer } = await analyzeTraceFile(trace);
  const columns = columnsFromRecords(analyzer.gcs.filter((g) => g !== undefined).map((g) => toGcRecord(g!)));
  const r = rollup(columns, completedRows(columns), analyzer.lastRestartEndTimeRelativeMSec);
  const diffs: Diff[] = [];
  const num = (v: number | null): string => (v === null ? 'NaN' : String(v));
  for (const row of golden) {
    const s = row.Gen === 'ALL' ? r.all : r.generations[Number(row.Gen) as 0 | 1 | 2];
    const ours: Record<string, string> = {
      Count: String(s.count),
      NumInduced: String(s.numInduced),
      TotalPauseTimeMSec: num(s.totalPauseTimeMSec),
      MaxPauseDurationMSec: num(s.maxPauseDurationMSec),
      MeanPauseDurationMSec: num(s.meanPauseDurationMSec),
      MaxSuspendDurationMSec: num(s.maxSuspendDurationMSec),
      TotalAllocatedMB: num(s.totalAllocatedMB),
      MaxAllocRateMBSec: num(s.maxAllocRateMBSec),
      TotalSizeAfterMB: num(s.totalSizeAfterMB),
      MaxSizePeakMB: num(s.maxSizePeakMB),
      TotalPromotedMB: num(s.totalPromotedMB),
      PauseTimePercentage: row.Gen === 'ALL' ? num(r.pauseTimePercentage ?? 0) : '',
    };
    for (const [c, v] of Object.entries(ours))
      if (!close(c, v, row[c] ?? '')) diffs.push({ number: `rollup ${row.Gen}`, column: c, ours: v, theirs: row[c] ?? '' });
  }
  return diffs;
}

if (process.argv[1]?.endsWith('compare.ts') && process.argv.length >= 5) {
  const d = await compareRollupWithOracle(process.argv[2]!, process.argv[4]!);
  console.log(`rollup: ${d.length} differences`);
  for (const x of d) console.log(`  ${x.number} ${x.column}: ours ${x.ours}, TraceEvent ${x.theirs}`);
}
