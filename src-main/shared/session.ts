/** A stored session as every consumer sees it, and what kind it is (shared with the renderer; pure). */

export type SessionStatus = 'recording' | 'complete' | 'incomplete' | 'interrupted' | 'failed';
export type SessionSource = 'import' | 'record';

/**
 * What a session holds: a GC recording ('gc': per-GC rows, stacks, allocation samples) or a heap
 * snapshot ('heap': a .gcdump file and its totals, issue 38). A database may hold
 * a kind this version does not know (written by a newer GCScope): it is read as its name and
 * shown as such, never taken for a GC recording. `string & {}` keeps the known names' completion.
 */
export type SessionKind = 'gc' | (string & {});

/** The kinds this version can show. */
export const KNOWN_SESSION_KINDS: readonly SessionKind[] = ['gc', 'heap'];

export function isKnownSessionKind(kind: SessionKind): boolean {
  return KNOWN_SESSION_KINDS.includes(kind);
}

/**
 * Why a session has no GC view, report or findings, in one sentence (the CLI's one line, the
 * service's error, the app's explanation): its kind, and whether this version knows it at all.
 */
export function notGcSessionMessage(s: Pick<SessionInfo, 'id' | 'kind'>): string {
  return isKnownSessionKind(s.kind)
    ? `session ${s.id} is a ${s.kind} session, not a GC recording: it has no GCs`
    : `session ${s.id} is of kind "${s.kind}", which this version of GCScope does not know (a newer GCScope made it): it has no GCs this version can show`;
}

/**
 * A GC-only computation (summaries, findings, columns, comparisons, reports, exports) asked about
 * a session of another kind: a typed refusal instead of an empty GC view or a crash. The service
 * sends it as `{ code: 'wrong-session-kind' }`; the CLI exits 2 with its message.
 */
export class SessionKindError extends Error {
  override readonly name = 'SessionKindError';
  readonly code = 'wrong-session-kind';
  constructor(
    readonly sessionId: number,
    readonly kind: SessionKind,
  ) {
    super(notGcSessionMessage({ id: sessionId, kind }));
  }
}

/** The session itself when it is a GC recording; a SessionKindError otherwise. */
export function requireGcSession<S extends Pick<SessionInfo, 'id' | 'kind'>>(s: S): S {
  if (s.kind !== 'gc') throw new SessionKindError(s.id, s.kind);
  return s;
}

export interface SessionInfo {
  id: number;
  /** What the session holds; only 'gc' sessions have GCs (see SessionKind). */
  kind: SessionKind;
  name: string;
  source: SessionSource;
  status: SessionStatus;
  /** Why the session is incomplete / interrupted / failed, in words a user can act on. */
  statusReason: string | null;
  createdAt: string;
  updatedAt: string;
  /** The imported file, or the raw .nettrace a recording wrote. */
  tracePath: string | null;
  fileSize: number | null;
  format: string | null;
  traceStartUtc: string | null;
  qpcFrequency: number | null;
  processId: number | null;
  processName: string | null;
  commandLine: string | null;
  runtimeVersion: string | null;
  os: string | null;
  arch: string | null;
  cpuCount: number | null;
  pointerSize: number | null;
  /** 'workstation' | 'server'; null when the trace does not say. */
  gcMode: string | null;
  concurrent: boolean | null;
  /** The most heaps the process had (the trace's heap counts); null when unknown. */
  heapCount: number | null;
  /**
   * The fewest and most heaps the stored GCs had, each GC's own count (heapCountSpan over its
   * rows): under DATAS a range ("1–4 heaps") where heapCount is the top of it alone; null when no
   * GC row says, and for workstation sessions (one heap). What the session view's header shows, so
   * the Sessions list says the same.
   */
  gcHeapCounts: { min: number; max: number } | null;
  eventCount: number;
  droppedEvents: number;
  firstEventMSec: number | null;
  lastEventMSec: number | null;
  lastHeapStatsMSec: number | null;
  hasPerHeapHistory: boolean;
  hasAllocTicks: boolean;
  hasPinEvents: boolean;
  nonGCSuspensions: number;
  undecodableEvents: number;
  /** The process writing a session in state 'recording'. */
  recorderPid: number | null;
  tags: string[];
  notes: string;
  gcCount: number;
  incompleteGCs: number;
  maxPauseMSec: number | null;
  /** Sum of the completed GCs' pauses. */
  totalPauseMSec: number;
  /** Pause start of the first completed GC (ms since the trace's sync time): where the % paused's span begins; null without GCs. */
  firstGcMSec: number | null;
  /** TraceEvent's % of time paused (first GC to last HeapStats); null without GCs. */
  pauseTimePercentage: number | null;
  /**
   * A heap snapshot (kind 'heap'): its objects and bytes, and the live recording it was taken
   * from (null when taken on its own or opened from a file); null for other kinds.
   */
  heapSnapshot: { objects: number; bytes: number; recordingId: number | null } | null;
}
