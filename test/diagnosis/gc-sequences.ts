/**
 * Hand-built GC sequences for the rule tests: a healthy baseline GC (gen0, blocking, AllocSmall,
 * 1 ms pause, per-heap history present) that each test changes where its rule looks.
 */
import { columnsFromRecords, type GcRecord } from '../../src-main/shared/gc-column-registry.js';
import { diagnose } from '../../src-main/diagnosis/diagnose.js';
import type { DiagnosisFacts } from '../../src-main/diagnosis/rule.js';
import { RULES } from '../../src-main/diagnosis/rule-table.js';
import type { DiagnosisOverrides, FindingSeverity, RuleOutcome } from '../../src-main/shared/finding.js';

type G5 = [number | null, number | null, number | null, number | null, number | null];

export interface GcSpec extends Partial<Omit<GcRecord, 'genSizeAfterMB' | 'fragmentationMB' | 'genBudgetMB'>> {
  genSizeAfterMB?: G5;
  fragmentationMB?: G5;
  genBudgetMB?: G5;
}

/** A healthy GC at `i` (100 ms apart), with `over` applied. */
export function gc(i: number, over: GcSpec = {}): GcRecord {
  const g5 = (v: number | null): G5 => [v, v, v, v, v];
  const t = over.pauseStartRelativeMSec ?? 1000 + i * 100;
  return {
    index: i,
    number: i + 1,
    generation: 0,
    type: 0,
    reason: 0,
    gcGenerationName: '0N',
    isComplete: true,
    pauseStartRelativeMSec: t,
    startRelativeMSec: t,
    suspendDurationMSec: 0.05,
    pauseDurationMSec: 1,
    durationMSec: 1,
    durationSinceLastRestartMSec: 99,
    pauseTimePercentageSinceLastGC: 1,
    heapSizeBeforeMB: 20,
    heapSizeAfterMB: 10,
    heapSizePeakMB: 12,
    promotedMB: 0.5,
    allocedSinceLastGCMB: 10,
    allocRateMBSec: 100,
    gen0AllocatedMB: 10,
    lohAllocatedMB: 0,
    pohAllocatedMB: 0,
    genSizeAfterMB: [1, 1, 6, 2, 0],
    genSizeBeforeMB: g5(1),
    genPromotedMB: g5(0),
    survivalPercent: g5(null),
    fragmentationPercent: g5(0),
    fragmentationMB: [0, 0, 0, 0, 0],
    genBudgetMB: [2, 1, 10, 3, 0],
    finalizationPromotedMB: 0,
    finalizationPromotedCount: 0,
    pinnedObjectCount: 0,
    gcHandleCount: 0,
    pinnedObjectSizes: null,
    pinnedObjectPercentage: null,
    heapCount: 1,
    bgcFinalPauseMSec: null,
    compacted: true,
    globalMechanisms: 2,
    pauseMode: 1,
    memoryLoadPercent: 30,
    condemnReasons0: 0,
    condemnReasons1: 0,
    committedInUseBeforeMB: null,
    committedInUseAfterMB: null,
    finalizersQueued: 0,
    survivedMB: null,
    survivedRanges: null,
    movedMB: null,
    movedRanges: null,
    relocatedMB: null,
    rangeLowAddress: null,
    rangeHighAddress: null,
    gen0FragmentationMB: null,
    lohAllocWaitMaxMSec: null,
    lohAllocWaitTotalMSec: null,
    lohAllocWaitCount: null,
    ...over,
  } as GcRecord;
}

/** `n` healthy GCs, each changed by `f(i)`. */
export function seq(n: number, f: (i: number) => GcSpec = () => ({})): GcRecord[] {
  return Array.from({ length: n }, (_, i) => gc(i, f(i)));
}

export const WORKSTATION: DiagnosisFacts = {
  firstEventMSec: null,
  lastEventMSec: null,
  hasPerHeapHistory: true,
  gcMode: 'workstation',
  heapCount: 1,
  concurrent: true,
};

export interface Judged {
  outcome: RuleOutcome;
  severity: FindingSeverity | null;
  score: number;
  finding: ReturnType<typeof diagnose>['findings'][number] | undefined;
}

/** Runs one rule (by id) over the GCs, as the diagnosis does. */
export function judge(ruleId: string, gcs: GcRecord[], opts: { overrides?: DiagnosisOverrides; facts?: Partial<DiagnosisFacts> } = {}): Judged {
  const rule = RULES.find((r) => r.id === ruleId);
  if (rule === undefined) throw new Error(`no rule ${ruleId}`);
  const d = diagnose(
    columnsFromRecords(gcs),
    { ...WORKSTATION, ...opts.facts },
    { rules: [rule], ...(opts.overrides !== undefined ? { overrides: opts.overrides } : {}) },
  );
  const finding = d.findings[0];
  return { outcome: d.explain[0]!, severity: finding?.severity ?? null, score: d.explain[0]!.score, finding };
}
