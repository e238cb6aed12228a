/**
 * The one typed contract between the backend (Electron main, or `gcscope serve`) and the renderer.
 * Written once: the preload, the IPC handlers, the WebSocket bridge and the renderer are all typed
 * from it. Every argument and result survives structured clone / the bridge's JSON encoding (no
 * classes or functions; typed arrays are fine). Errors cross as data: `{ ok: false, error }`.
 * Types only.
 */
import type { Comparison } from './comparison.js';
import type { GcFilter } from './gc-filter.js';
import type { GcRecord } from './gc-record.js';
import type { GcSeries, LiveBatch } from './gc-series.js';
import type { RangeSummary } from './gc-summary.js';
import { PICKER_COLUMN_DEFS, type PickerColumnKey } from './gc-column-registry.js';
import type { HeapBalanceRow, ServerGcData } from './server-gc.js';
import type { Diagnosis, DiagnosisOverrides, DiagnosisSettingInfo, PinnedTypeCount } from './finding.js';
import type { AllocationKindName, AllocationsSummary, CallTreeNode, GcTrigger, StackWeight } from './allocations.js';
import type { SessionInfo } from './session.js';
import type { DotNetProcessInfo } from './trace-process.js';
import type { CaptureInfo, WatchSettings } from './capture.js';
import type { RequestLaneData } from './requests.js';
import type { HeapPathView, HeapRetainerView, HeapSnapshotProgress, HeapSnapshotTaken, HeapTypesQuery, HeapTypesView } from './heap-view.js';
import type { HeapGrowthView, LiveSnapshotTaken, SnapshotMark } from './snapshot-marks.js';

export interface ApiError {
  /** Stable code: 'not-found', 'bad-input', 'no-such-process', 'permission-denied', … */
  code: string;
  /** What happened, what it means, what to do — one or two sentences. */
  message: string;
}

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** The engine whose cgroup naming a container's id was found in (diagnostics/containers.ts). */
export type ContainerEngine = 'docker' | 'podman' | 'containerd' | 'cri-o' | 'kubernetes' | 'unknown';

/** The container a process runs in, as the host sees it. */
export interface ProcessContainer {
  /** The 64-hex container id (from the process's cgroup); shown shortened to 12 like `docker ps`. */
  id: string;
  engine: ContainerEngine;
  /** Docker/Podman's name, or `namespace/pod/container` on a Kubernetes node; null where the host cannot read it. */
  name: string | null;
  image: string | null;
  /** The Kubernetes pod's UID, for a pod's container. */
  podUid: string | null;
}

export interface DotnetProcess {
  /** The PID as GCScope (the host) sees it: what record/watch take. */
  pid: number;
  name: string;
  commandLine: string;
  runtimeVersion: string | null;
  os: string;
  arch: string;
  /** The PID the process has inside its own PID namespace (a container), or null when that is the same namespace as GCScope's. */
  innerPid: number | null;
  /** The container it runs in, or null for a process in none (or in GCScope's own). */
  container: ProcessContainer | null;
}

export interface ProcessList {
  processes: DotnetProcess[];
  /** Shown when the list is empty: why nothing may be listed. */
  hints: string[];
}

export type RecordingProfile = 'gc-collect' | 'gc-verbose' | 'gc-survival' | 'gc-requests';

export interface RecordingInfo {
  sessionId: number;
  pid: number;
  profile: RecordingProfile;
  tracePath: string;
  /** What an older runtime could not do (e.g. turn stacks off). */
  downgrades: string[];
  /** The process was already being recorded: this is that recording, not a new one. */
  alreadyRecording?: boolean;
}

export interface ImportProgress {
  jobId: string;
  fileBytes: number;
  fileSize: number;
  done: boolean;
  /** The session to open: the only one, or of a machine-wide trace the process with most GCs chosen. */
  sessionId?: number;
  /** Every session the import stored (a machine-wide trace: one per process chosen). */
  sessionIds?: number[];
  error?: ApiError;
}

/** Which file `traceProcesses` surveys: a path on the machine running GCScope, or a finished browser upload. */
export type TraceSource = { path: string } | { uploadId: string; fileName: string };

/**
 * The .NET processes of a trace before it is imported: a machine-wide trace (ETW .etl) lists each
 * with its GCs, so the user can pick which to import; a one-process trace lists its one process
 * with gcCount -1 (not counted: the survey stops at its first event).
 */
export interface TraceProcesses {
  machineWide: boolean;
  processes: DotNetProcessInfo[];
}

/** pickAndImportTrace's answer for a machine-wide trace with several .NET processes with GCs: which to import is the user's. */
export interface TraceToChoose {
  choose: { path: string; fileName: string } & TraceProcesses;
}

/** A stored session's data for the session view, columnar for charts. */
export interface SessionData {
  session: SessionInfo;
  series: GcSeries;
  /** Time span covered (ms since the trace's sync time). */
  startMSec: number;
  endMSec: number;
  /** Recording in progress: more GCs will arrive as live batches. */
  live: boolean;
}

// The range summary and its rollup rows live with the summary type (gc-summary.ts), which the
// chart series' live batches use too; re-exported here as part of the contract.
export type { GroupRollup, RangeSummary } from './gc-summary.js';

/**
 * Optional GC table columns, fetched when the user shows them (not part of the chart series):
 * the column registry's picker columns (PICKER_COLUMN_DEFS), so a registry entry with `picker`
 * appears here by itself.
 */
export type TableExtraColumn = PickerColumnKey;
export const TABLE_EXTRA_COLUMNS: readonly TableExtraColumn[] = PICKER_COLUMN_DEFS.map((c) => c.key);

export interface TableExtras {
  /** One value per GC, in series order (index = GC index in the session's series); NaN = unavailable. */
  columns: Record<TableExtraColumn, Float64Array>;
  /** Why a column has no value for any GC of this session ("not in this trace: …"); absent when it has data. */
  missing: Partial<Record<TableExtraColumn, string>>;
}

/** What the allocations view asks for (issue 14): a range (null ends: the session's), and how to show it. */
export interface StackAllocationsQuery {
  fromMSec: number | null;
  toMSec: number | null;
  /** Call tree direction: allocating method at the root (bottom-up) or the thread's outermost frame (top-down). */
  direction: 'bottom-up' | 'top-down';
  /** Only ticks of this heap kind. */
  kind: AllocationKindName | null;
  /** Only ticks of this type (a type row's stacks on demand). */
  typeName: string | null;
  /** Only stacks through a frame whose name contains this (case-insensitive). */
  search: string | null;
}

/** Allocation by type and by call stack for a range, from AllocationTick samples and their stacks. */
export interface StackAllocations {
  summary: AllocationsSummary;
  /** The call tree over the matching ticks (children under 0.5 % folded). */
  callTree: CallTreeNode;
  largeObjectStacks: StackWeight[];
  /** False while recording: methods known only from the rundown at the end still show as addresses. */
  namesFinal: boolean;
}

/** Who caused one GC: its GC/Triggered stack, and what was allocated since the previous GC. */
export interface GcWho {
  trigger: GcTrigger | null;
  /** Why there is no trigger stack ("not in this trace: …"); null when there is one. */
  triggerMissing: string | null;
  /** The window the allocations cover: the previous GC's start to this one's (ms since the trace's sync time). */
  fromMSec: number;
  toMSec: number;
  allocations: AllocationsSummary;
  namesFinal: boolean;
}

export interface HeapRow {
  heap: number;
  /** Per generation [gen0, gen1, gen2, LOH, POH]: size before/after (MB), survival %, fragmentation (MB), budget (MB). */
  sizeBeforeMB: number[];
  sizeAfterMB: number[];
  survivalPercent: (number | null)[];
  fragmentationMB: number[];
  budgetMB: number[];
  compactMechanism: string;
  expandMechanism: string;
}

/** Why a GC collected the generation it did (gc/why-generation.ts). */
export interface WhyGeneration {
  /** The trigger reason's name (Induced, AllocSmall, AllocLarge…): always known. */
  trigger: string;
  /** Where the condemned reasons came from; null when the trace has none for this GC. */
  source: 'per-heap' | 'global' | null;
  /** Server GC: the heap whose reasons decided the GC. */
  heap: number | null;
  requestedGeneration: number | null;
  collectedGeneration: number | null;
  /** Plain-words reasons that explain the collected generation. */
  factors: string[];
  /** Why the reasons are not shown ("not in this trace: …"). */
  missing: string | null;
}

export interface GcDetail {
  record: GcRecord;
  reasonName: string;
  typeName: string;
  why: WhyGeneration;
  globalMechanisms: string[];
  pauseModeName: string | null;
  heaps: HeapRow[];
  /**
   * Who is pinned (issue 39): the objects this GC found pinned, by type (PinObjectAtGCTime), most
   * objects first — at most 20 types; [] when it pinned none; null when the trace has no such events.
   */
  pinned: PinnedTypeCount[] | null;
  /** Plain-words notes on what this GC lacks and why. */
  notes: string[];
}

/** One side of a comparison: a stored session, or a time range of one (ms since the trace's sync time; null = open end). */
export interface CompareTarget {
  sessionId: number;
  fromMSec: number | null;
  toMSec: number | null;
}

/** 'nettrace': the session's raw file as stored — a recording's trace, an imported .etl.zip, a heap snapshot's .gcdump. */
export type ExportFormat = 'csv' | 'json' | 'html' | 'nettrace';

/** The part of a session an export holds: a time range and the table's filter (issue 39). */
export interface ExportScope {
  fromMSec: number;
  toMSec: number;
  filter: GcFilter | null;
}

export interface ExportResult {
  /** Where it was written (desktop), or the file name offered for download (browser). */
  fileName: string;
  path: string | null;
  /** Browser mode: the content to download (base64 for the raw trace). */
  content: string | null;
  encoding: 'utf8' | 'base64' | null;
}

/** The diagnosis' settings: every threshold with its default, and the user's overrides (saved). */
export interface DiagnosisSettings {
  settings: DiagnosisSettingInfo[];
  overrides: DiagnosisOverrides;
}

export interface AppInfo {
  version: string;
  /** 'desktop' (Electron) or 'browser' (gcscope serve). */
  mode: 'desktop' | 'browser';
  databasePath: string;
  hasSampleTrace: boolean;
  platform: string;
}

/** What the renderer can call. */
export interface ProfilerApi {
  appInfo(): Promise<AppInfo>;
  listProcesses(): Promise<ProcessList>;
  startRecording(pid: number, profile: RecordingProfile): Promise<RecordingInfo>;
  stopRecording(sessionId: number): Promise<void>;
  /**
   * Watch mode (the flight recorder): every GC stored, and a .nettrace capture of the seconds
   * around each GC that fires a trigger. Stopped with stopRecording, like a recording.
   */
  startWatch(pid: number, settings: WatchSettings): Promise<RecordingInfo>;
  /** A watch session's captures (marks on its time axis), in time order. */
  listCaptures(sessionId: number): Promise<CaptureInfo[]>;
  /** The heap's size at the process's last GC (runtime counters, no pause); null when they do not answer. Said before a snapshot pauses it. */
  heapSizeAtLastGc(pid: number): Promise<number | null>;
  /** A heap snapshot (issue 38): a blocking gen2 GC walks the heap; stored as a session of kind 'heap'. */
  takeHeapSnapshot(pid: number, heapAtLastGcBytes: number | null): Promise<HeapSnapshotTaken>;
  /** A live recording's heap size at its last GC (bytes; null before any GC): said before a snapshot from it pauses the process. */
  liveHeapAtLastGc(sessionId: number): Promise<number | null>;
  /**
   * A heap snapshot of the process a live recording is recording, the recording going on (a
   * second EventPipe session): stored as a session of kind 'heap' and linked to the recording at
   * its induced gen2 GC.
   */
  takeLiveHeapSnapshot(sessionId: number, heapAtLastGcBytes: number | null): Promise<LiveSnapshotTaken>;
  /** The snapshots taken while a recording ran: marks on its time axis, labels for their GCs. */
  listSnapshotMarks(sessionId: number): Promise<SnapshotMark[]>;
  /** The growing-live-set finding's cause: the diff of the recorded process's last two snapshots and the top grower's path; null with fewer than two. */
  getHeapGrowth(sessionId: number): Promise<HeapGrowthView | null>;
  /** A snapshot's types: count, bytes, retained bytes; searched, sorted, and with a diff's deltas. */
  getHeapTypes(sessionId: number, query: HeapTypesQuery): Promise<HeapTypesView>;
  /** The biggest retainers: what freeing each would free, with what they hold. */
  getHeapDominators(sessionId: number, top: number): Promise<HeapRetainerView[]>;
  /** Paths from a root to instances of a type (by its name), one per chain of types. */
  getHeapPaths(sessionId: number, typeName: string): Promise<HeapPathView[]>;
  /** The capture a session was imported from (null for any other session): its trigger, GC and watch session. */
  captureOf(sessionId: number): Promise<CaptureInfo | null>;
  /**
   * Imports a trace by path on the machine running GCScope (desktop dialogs, drag-and-drop).
   * `processIds`: of a machine-wide trace, the processes to store, a session each (default:
   * every .NET process with GCs).
   */
  importTracePath(path: string, force: boolean, processIds?: number[]): Promise<{ jobId: string }>;
  /** Browser mode: upload a file in chunks, then import it. */
  uploadChunk(uploadId: string, offset: number, base64: string): Promise<void>;
  importUpload(uploadId: string, fileName: string, force: boolean, processIds?: number[]): Promise<{ jobId: string }>;
  /** The .NET processes of a trace file or of a finished upload, before importing it (the process picker). */
  traceProcesses(source: TraceSource): Promise<TraceProcesses>;
  cancelImport(jobId: string): Promise<void>;
  /**
   * Desktop mode: show the open dialog and import the chosen file; null when cancelled. A
   * machine-wide trace with several .NET processes with GCs is not imported: its processes come
   * back for the user to choose (then importTracePath with their ids).
   */
  pickAndImportTrace(): Promise<{ jobId: string } | TraceToChoose | null>;
  openSampleTrace(): Promise<{ jobId: string } | { sessionId: number }>;
  listSessions(): Promise<SessionInfo[]>;
  getSessionData(sessionId: number): Promise<SessionData>;
  /**
   * Rollup of the completed GCs whose pause starts in [from, to]. `throughNumber` (live views)
   * counts only GCs up to that GC number, so the tiles agree with the GCs the view has received;
   * `filter` counts only the GCs that pass the table's filter (shared/gc-filter.ts).
   */
  getRangeSummary(sessionId: number, fromMSec: number, toMSec: number, throughNumber?: number | null, filter?: GcFilter): Promise<RangeSummary>;
  getGcDetail(sessionId: number, gcIndex: number): Promise<GcDetail>;
  /** Fragmentation, pinning and survival by generation per GC, for the table's optional columns. */
  getTableExtras(sessionId: number): Promise<TableExtras>;
  /** Allocation by type and call tree for a range or the whole session (AllocationTick samples with stacks). */
  getStackAllocations(sessionId: number, query: StackAllocationsQuery): Promise<StackAllocations>;
  /** Who triggered a GC (its GC/Triggered stack) and what was allocated since the previous GC, by type. */
  getGcWho(sessionId: number, gcIndex: number): Promise<GcWho>;
  /** DATAS / Server GC data (samples, tuning decisions, heap-count change pauses) and GC settings for the Server GC and headroom lanes. */
  getServerGc(sessionId: number): Promise<ServerGcData>;
  /** The session's requests with the GC pause time in each, for the Requests lane (issue 42; empty without request events). */
  getRequestSpans(sessionId: number): Promise<RequestLaneData>;
  /** One GC's per-heap balance: survived bytes and mark by root kind per heap. */
  getHeapBalance(sessionId: number, gcIndex: number): Promise<HeapBalanceRow[]>;
  /**
   * Two sessions (or two ranges of one) compared: headline metrics with change, interval and
   * verdict, pause distributions and heap over time (compare/comparison.ts). The warm-up is
   * excluded unless `includeWarmup`.
   */
  compareSessions(a: CompareTarget, b: CompareTarget, options: { includeWarmup: boolean }): Promise<Comparison>;
  updateSession(sessionId: number, changes: { name?: string; tags?: string[]; notes?: string }): Promise<SessionInfo>;
  deleteSession(sessionId: number): Promise<void>;
  reimportSession(sessionId: number): Promise<{ jobId: string }>;
  /**
   * `scope`: what the session view shows — the GCs whose pause starts in [fromMSec, toMSec] (ms
   * since the trace's sync time, as every time here) that pass `filter` (the table's). Absent:
   * the whole session. A raw trace is always whole.
   */
  exportSession(sessionId: number, format: ExportFormat, scope?: ExportScope): Promise<ExportResult>;
  /**
   * The findings of the completed GCs whose pause starts in [from, to] (null: the whole session),
   * with the saved settings (docs/diagnosis.md). A recording is diagnosed as far as it has got.
   */
  /** `throughNumber`: while recording, the newest GC the view has (no later GC is diagnosed). */
  getFindings(sessionId: number, fromMSec: number | null, toMSec: number | null, throughNumber?: number | null): Promise<Diagnosis>;
  getDiagnosisSettings(): Promise<DiagnosisSettings>;
  /** Replaces the saved overrides (an empty object resets every setting to its default). */
  setDiagnosisSettings(overrides: DiagnosisOverrides): Promise<DiagnosisSettings>;
}

/** Pushed from the backend. */
export interface ProfilerEvents {
  'live-batch': LiveBatch;
  'import-progress': ImportProgress;
  'sessions-changed': { reason: string };
  /** A trace was opened from outside (file association, second instance, menu). */
  'open-session': { sessionId: number };
  /** A watch wrote a capture (or failed to). */
  capture: CaptureInfo;
  /** A heap snapshot being taken: objects and bytes walked so far, then the steps after the walk. */
  'heap-snapshot-progress': HeapSnapshotProgress;
}

export type ProfilerMethod = keyof ProfilerApi;
export type ProfilerEvent = keyof ProfilerEvents;

/** Every method name, in one list: preload, IPC handlers and the web bridge are checked against it. */
export const PROFILER_METHODS = [
  'appInfo',
  'listProcesses',
  'startRecording',
  'stopRecording',
  'startWatch',
  'listCaptures',
  'captureOf',
  'getRequestSpans',
  'heapSizeAtLastGc',
  'takeHeapSnapshot',
  'getHeapTypes',
  'getHeapDominators',
  'getHeapPaths',
  'liveHeapAtLastGc',
  'takeLiveHeapSnapshot',
  'listSnapshotMarks',
  'getHeapGrowth',
  'importTracePath',
  'uploadChunk',
  'importUpload',
  'traceProcesses',
  'cancelImport',
  'pickAndImportTrace',
  'openSampleTrace',
  'listSessions',
  'getSessionData',
  'getRangeSummary',
  'getGcDetail',
  'getStackAllocations',
  'getGcWho',
  'getTableExtras',
  'getServerGc',
  'getHeapBalance',
  'compareSessions',
  'updateSession',
  'deleteSession',
  'reimportSession',
  'exportSession',
  'getFindings',
  'getDiagnosisSettings',
  'setDiagnosisSettings',
] as const satisfies readonly ProfilerMethod[];

export const PROFILER_EVENTS = [
  'live-batch',
  'import-progress',
  'sessions-changed',
  'open-session',
  'capture',
  'heap-snapshot-progress',
] as const satisfies readonly ProfilerEvent[];

/** Compile-time check that PROFILER_METHODS lists every method exactly. */
type Missing = Exclude<ProfilerMethod, (typeof PROFILER_METHODS)[number]>;
export const _methodsComplete: Missing extends never ? true : Missing = true;

/** The IPC channel of a method or event. */
export function channelOf(name: string): string {
  return `profiler:${name}`;
}

/** What the renderer gets: each method returns an envelope; events subscribe with an unsubscribe. */
export type BridgeApi = {
  [K in ProfilerMethod]: (...args: Parameters<ProfilerApi[K]>) => Promise<ApiResult<Awaited<ReturnType<ProfilerApi[K]>>>>;
} & {
  on<E extends ProfilerEvent>(event: E, cb: (payload: ProfilerEvents[E]) => void): () => void;
};
