/** GCScope's TraceGC as a row with the GcOracle CSV's columns and value formats. */
import { Gen, type TraceGC } from '../../src-main/gc/trace-gc.js';
import { gcReasonName, GC_TYPE_NAMES } from '../../src-main/shared/gc-enums.js';

export const ORACLE_COLUMNS = [
  'Number', 'Generation', 'Type', 'Reason', 'GCGenerationName', 'IsComplete', 'PauseStartRelativeMSec', 'StartRelativeMSec', 'SuspendDurationMSec',
  'PauseDurationMSec', 'DurationMSec', 'DurationSinceLastRestartMSec', 'PauseTimePercentageSinceLastGC', 'HeapSizeBeforeMB', 'HeapSizeAfterMB', 'HeapSizePeakMB',
  'PromotedMB', 'AllocedSinceLastGCMB', 'AllocRateMBSec', 'Gen0AllocMB', 'LohAllocMB', 'Gen0SizeAfterMB', 'Gen1SizeAfterMB', 'Gen2SizeAfterMB', 'LohSizeAfterMB',
  'PohSizeAfterMB', 'Gen0SizeBeforeMB', 'Gen1SizeBeforeMB', 'Gen2SizeBeforeMB', 'LohSizeBeforeMB', 'PohSizeBeforeMB', 'Gen0SurvivalPercent', 'Gen1SurvivalPercent',
  'Gen2SurvivalPercent', 'LohSurvivalPercent', 'PohSurvivalPercent', 'Gen0FragmentationPercent', 'Gen1FragmentationPercent', 'Gen2FragmentationPercent',
  'LohFragmentationPercent', 'PohFragmentationPercent', 'Gen0BudgetMB', 'FinalizationPromotedMB', 'PinnedObjectCount', 'HeapCount', 'PerHeapHistories',
] as const;

const f = (n: number): string => (Number.isNaN(n) ? 'NaN' : String(n));
const GENS = [Gen.Gen0, Gen.Gen1, Gen.Gen2, Gen.Loh, Gen.Poh];

export function gcToOracleRow(gc: TraceGC): Record<string, string> {
  const hs = gc.heapStats;
  const cols: string[] = [
    String(gc.number), String(gc.generation), GC_TYPE_NAMES[gc.type] ?? String(gc.type), gcReasonName(gc.reason), gc.gcGenerationName, gc.isComplete ? 'True' : 'False',
    f(gc.pauseStartRelativeMSec), f(gc.startRelativeMSec), f(gc.suspendDurationMSec), f(gc.pauseDurationMSec), f(gc.durationMSec), f(gc.durationSinceLastRestartMSec),
    f(gc.pauseTimePercentageSinceLastGC), f(gc.heapSizeBeforeMB), f(gc.heapSizeAfterMB), f(gc.heapSizePeakMB), f(gc.promotedMB), f(gc.allocedSinceLastGCMB),
    f(gc.allocRateMBSec), f(gc.userAllocated[Gen.Gen0]!), f(gc.userAllocated[Gen.Loh]!),
    ...GENS.map((g) => f(gc.genSizeAfterMB(g))),
    ...GENS.map((g) => f(gc.genSizeBeforeMB[g]!)),
    ...GENS.map((g) => f(gc.survivalPercent(g))),
    ...GENS.map((g) => f(gc.genFragmentationPercent(g))),
    f(gc.genBudgetMB(Gen.Gen0)),
    hs === undefined ? '' : f(hs.finalizationPromotedSize / 1e6),
    hs === undefined ? '' : String(hs.pinnedObjectCount),
    String(gc.processHeapCount),
    String(gc.perHeapHistories.length),
  ];
  return Object.fromEntries(ORACLE_COLUMNS.map((c, i) => [c, cols[i]!]));
}
