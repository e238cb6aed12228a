/**
 * Findings: what the diagnosis (src-main/diagnosis/) says is wrong with a session's GC, as every
 * consumer sees it — `gcscope diagnose`, the report's `"findings"`, the app's Findings panel.
 * The shape of a finding is a published contract (docs/contract.md): id, severity, score 0–100,
 * title, evidence { gcs, startMSec, endMSec }, advice, plus the explanation. Types only: shared
 * with the renderer.
 */

/** JMC's severities (Severity.java): score ≥ 75 is a warning, ≥ 25 information; below, no finding. */
export type FindingSeverity = 'warning' | 'info';

export const WARNING_SCORE = 75;
export const INFO_SCORE = 25;

/** Which of Maoni's three goals a finding hurts (MEM "Know when to worry"). */
export type FindingGoal = 'throughput' | 'latency' | 'footprint';

export interface FindingEvidence {
  /** GC numbers (TraceEvent's `Number`) the finding is about, in GC order. */
  gcs: number[];
  /** The time window involved (ms since the trace's sync time), or null when it is the GCs alone. */
  startMSec: number | null;
  endMSec: number | null;
  /**
   * Who caused it, when the trace has call stacks and AllocationTick samples (issue 14): the top
   * calling stacks (induced-gcs: callers of GC.Collect; loh-triggered-gen2: the stacks allocating
   * large objects), innermost frame first, each with what it accounts for in words.
   */
  stacks?: { frames: string[]; weight: string }[];
  /** The types allocated most (loh-triggered-gen2: large types; growing-live-set: all), sampled. */
  types?: { typeName: string; kind: 'small' | 'large' | 'pinned'; sampledBytes: number; share: number }[];
  /** How to read the stacks or types when they are only a hint ("allocated is not retained"). */
  hint?: string;
  /**
   * pinning-fragmentation: the types of the objects pinned in its GCs (PinObjectAtGCTime's
   * TypeName), most pinned first: the most objects of the type pinned in one GC, their bytes
   * there, and in how many of the GCs the type was pinned.
   */
  pinned?: { typeName: string; maxObjects: number; bytes: number; gcs: number }[];
  /** The requests involved (request-tail-gc: the slowest ones), with the GC pause time inside each (issue 42). */
  requests?: { startMSec: number; durationMSec: number; gcPauseMSec: number; name: string; gcs: number[] }[];
}

/** Objects pinned in one GC of one type (PinObjectAtGCTime's TypeName): distinct objects and their bytes. */
export interface PinnedTypeCount {
  typeName: string;
  objects: number;
  bytes: number;
}

export interface Finding {
  /** A stable rule id ("induced-gcs"): scripts key on it. */
  id: string;
  severity: FindingSeverity;
  /** 0–100 (JMC's scale), one decimal. */
  score: number;
  /** One line with the number that matters: "391 induced gen2 GCs: 38 % of all pause time". */
  title: string;
  evidence: FindingEvidence;
  /** Why it matters, in a sentence or two. */
  explanation: string;
  /** What to do: a config knob, a code pattern, what to record next. */
  advice: string;
  goal: FindingGoal;
}

/** What a rule concluded: fired (a finding), ok (judged and fine), not measured (the trace lacks an input), not applicable. */
export type RuleStatus = 'fired' | 'ok' | 'not-measured' | 'not-applicable';

/** One line of the explain trace: why a rule did or did not fire. */
export interface RuleOutcome {
  id: string;
  /** The rule's name in plain words ("Induced GCs"). */
  name: string;
  status: RuleStatus;
  /** The score it computed (0 when it could not judge). */
  score: number;
  /** The numbers it looked at against its settings, in words. */
  reason: string;
  /** For 'not-measured': what the trace needs ("needs BGCAllocWait events …"). */
  needs?: string;
}

/** A rule's setting: a named threshold with its documented default. */
export interface DiagnosisSettingInfo {
  /** `rule.threshold`, e.g. "high-pause-time.windowSec". */
  key: string;
  default: number;
  unit: string;
  description: string;
}

/** Overrides of settings by key (`--set key=value`, the app's settings page). */
export type DiagnosisOverrides = Record<string, number>;

export interface Diagnosis {
  /** Findings ordered by score, highest first (ties by id). */
  findings: Finding[];
  /** Rules that could not judge this trace: "not measured: needs X" instead of passing silently. */
  notMeasured: { id: string; name: string; needs: string }[];
  /** Every rule's outcome, in rule-table order. */
  explain: RuleOutcome[];
  /** The range the diagnosis covered (ms; null: the whole session), and the completed GCs in it. */
  range: { startMSec: number | null; endMSec: number | null; gcCount: number };
}
