/** A stored session as every consumer sees it (types only; shared with the renderer). */

export type SessionStatus = 'recording' | 'complete' | 'incomplete' | 'interrupted' | 'failed';
export type SessionSource = 'import' | 'record';

export interface SessionInfo {
  id: number;
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
  heapCount: number | null;
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
}
