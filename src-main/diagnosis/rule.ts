/**
 * What a rule is: an id (a stable contract), the rule of docs/diagnosis.md it implements, its named
 * settings with documented defaults, and a pure evaluation over the GCs in view. A rule returns a
 * score (the diagnosis turns it into a severity) with the words for its finding, or says it
 * cannot judge this trace ("not measured: needs X") or that it does not apply.
 */
import type { FindingEvidence, FindingGoal } from '../shared/finding.js';
import type { GcColumns } from '../shared/gc-column-registry.js';
import type { PauseInterval, RequestSpan } from '../shared/requests.js';
import type { ServerGcData } from '../shared/server-gc.js';

/** A named threshold: its key is `<rule id>.<name>` (`--set induced-gcs.warnPauseShare=0.2`). */
export interface SettingDef {
  name: string;
  default: number;
  unit: string;
  description: string;
}

/** What the trace says beside the per-GC columns. */
export interface DiagnosisFacts {
  /** The trace's first and last event times (ms): the recording's span. */
  firstEventMSec: number | null;
  lastEventMSec: number | null;
  /**
   * The last HeapStats event (ms): where TraceEvent's % of time paused — the session's "Time
   * paused" tile and `report` — ends its span; absent or null when not known (a recording in progress).
   */
  lastHeapStatsMSec?: number | null;
  hasPerHeapHistory: boolean;
  /** 'workstation' | 'server' | null, and the heap count, as the session row says. */
  gcMode: string | null;
  heapCount: number | null;
  concurrent: boolean | null;
  /** Promoted MB per heap (GCMarkWithType per heap), by the GC's row; absent when not decoded. */
  perHeapPromotedMB?: ReadonlyMap<number, readonly number[]>;
  /** DATAS / Server GC data (shared/server-gc.ts: samples, decisions, change pauses, GC settings); absent when not read. */
  serverGc?: ServerGcData;
  /** Logical CPUs of the traced machine (trace header); null when unknown. */
  cpuCount?: number | null;
  /**
   * Server GC: MB that survived on each heap, per generation [gen0, gen1, gen2, LOH, POH] (pinned
   * and non-pinned survivors of GCPerHeapHistory), by GC index; absent without per-heap history.
   */
  perHeapSurvivedMB?: ReadonlyMap<number, readonly (readonly number[])[]>;
  /** Request spans and GC pause intervals (issue 42), when the source has request events. */
  requests?: { spans: readonly RequestSpan[]; pauses: readonly PauseInterval[] };
  /**
   * GC numbers GCScope itself induced in this recording: the gen2 GC each heap snapshot taken
   * while it ran made the runtime do to walk the heap (issue 38). Not the app's doing.
   */
  snapshotGcNumbers?: readonly number[];
}

export interface RuleContext {
  columns: GcColumns;
  /** Indexes of the completed GCs in view, in GC order. */
  rows: readonly number[];
  facts: DiagnosisFacts;
  /** This rule's settings, resolved (defaults plus overrides). */
  s: Readonly<Record<string, number>>;
  /** The window in view (ms): the selected range, or the recording's span. */
  fromMSec: number;
  toMSec: number;
  /** No range selected: the rules judge the whole recording. */
  wholeRecording: boolean;
}

export interface FindingText {
  title: string;
  evidence: FindingEvidence;
  explanation: string;
  advice: string;
}

export type RuleResult =
  /** Judged: the score decides (≥ 25 a finding); `reason` says what was measured against what. */
  | { kind: 'judged'; score: number; reason: string; finding?: FindingText }
  | { kind: 'not-measured'; needs: string; reason: string }
  | { kind: 'not-applicable'; reason: string };

export interface Rule {
  /** Stable id: scripts, goldens and the app key on it. */
  id: string;
  /** Plain-words name for the explain trace and the settings page. */
  name: string;
  /** Where the rule comes from (its id in docs/diagnosis.md, and source). */
  source: string;
  goal: FindingGoal;
  settings: readonly SettingDef[];
  /**
   * The rule judges something other than the GCs in view, so it runs when there are none: a window
   * of requests without a GC is an answer (the tail is not the GC's doing), not "nothing to judge".
   * Every other rule is not applicable without a completed GC in view.
   */
  runsWithoutGcs?: true;
  evaluate(ctx: RuleContext): RuleResult;
}

export const judged = (score: number, reason: string, finding?: FindingText): RuleResult => ({
  kind: 'judged',
  score,
  reason,
  ...(finding !== undefined ? { finding } : {}),
});
export const notMeasured = (needs: string, reason = `not measured: ${needs}`): RuleResult => ({ kind: 'not-measured', needs, reason });
export const notApplicable = (reason: string): RuleResult => ({ kind: 'not-applicable', reason });
