/**
 * Heap snapshots from a live recording (issue 38): while the app records a process, a Snapshot
 * takes a heap snapshot of that process in a second EventPipe session (the runtime runs several at
 * once; the recording goes on), says first how big the heap was at the recording's last GC, and
 * links the snapshot to the recording at its induced gen2 GC (number and time on the recording's
 * clock, stored: migration 14). The recording's marks and GC labels, and the growing-live-set
 * finding's diff of the process's last two snapshots, are read here too.
 */
import type { GcColumns } from '../shared/gc-column-registry.js';
import { gcTimeByNumber, lastGcHeapBytes, resolveMarkTimes, type HeapGrowthView, type LiveSnapshotTaken, type SnapshotMark } from '../shared/snapshot-marks.js';
import type { Database } from '../store/db.js';
import { heapSnapshotsOfProcess, heapSnapshotsOfRecording, linkHeapSnapshot, setHeapSnapshotLinkTime } from '../store/heap-snapshots.js';
import { getSession } from '../store/sessions.js';
import { ApiFailure } from './errors.js';
import type { HeapViews } from './heap-views.js';

export interface LiveSnapshotDeps {
  /** The pid a session is recording, or undefined when it is not recording. */
  recordingPid(sessionId: number): number | undefined;
  /** A recording's columns so far (undefined once it has ended). */
  liveColumns(sessionId: number): GcColumns | undefined;
  /** A stored session's columns (a recording reviewed later). */
  storedColumns(sessionId: number): Promise<GcColumns>;
}

/** How long to wait for the recording to receive the snapshot's GC (its batches come a few times a second). */
const GC_WAIT_MS = 8000;

export class LiveSnapshots {
  constructor(
    private readonly db: Database,
    private readonly heap: HeapViews,
    private readonly deps: LiveSnapshotDeps,
  ) {}

  private pid(sessionId: number): number {
    const pid = this.deps.recordingPid(sessionId);
    if (pid === undefined)
      throw new ApiFailure(
        'not-recording',
        `Session ${sessionId} is not recording: a snapshot from a recording needs the recording running. Use Snapshot on the process in the home list.`,
      );
    return pid;
  }

  heapAtLastGc(sessionId: number): number | null {
    this.pid(sessionId);
    const c = this.deps.liveColumns(sessionId);
    return c === undefined ? null : lastGcHeapBytes(c);
  }

  async take(sessionId: number, heapAtLastGc: number | null): Promise<LiveSnapshotTaken> {
    const pid = this.pid(sessionId);
    const r = await this.heap.take(pid, heapAtLastGc);
    const atMSec = await this.waitForGc(sessionId, r.gcNumber);
    await linkHeapSnapshot(this.db, { snapshotSessionId: r.sessionId, recordingSessionId: sessionId, gcNumber: r.gcNumber, atMSec });
    const mark = (await this.marks(sessionId)).find((m) => m.snapshotSessionId === r.sessionId);
    if (mark === undefined) throw new Error(`snapshot ${r.sessionId} was linked to session ${sessionId} but is not among its marks`);
    return { sessionId: r.sessionId, objects: r.objects, bytes: r.bytes, mark };
  }

  /** The induced GC's time on the recording's clock, once its batch has arrived; null if it does not within GC_WAIT_MS. */
  private async waitForGc(sessionId: number, gcNumber: number): Promise<number | null> {
    const until = Date.now() + GC_WAIT_MS;
    for (;;) {
      const c = this.deps.liveColumns(sessionId);
      const t = c === undefined ? null : gcTimeByNumber(c, gcNumber);
      if (t !== null || c === undefined || Date.now() > until) return t;
      await new Promise((res) => setTimeout(res, 200));
    }
  }

  /** A recording's snapshot marks; a time still unknown is looked up in its GCs (and kept). */
  async marks(sessionId: number): Promise<SnapshotMark[]> {
    const rows = await heapSnapshotsOfRecording(this.db, sessionId);
    const marks: SnapshotMark[] = rows.map((r) => ({
      snapshotSessionId: r.snapshotSessionId,
      name: r.name,
      gcNumber: r.gcNumber,
      atMSec: r.atMSec,
      objects: r.objects,
      bytes: r.bytes,
      takenAt: r.takenAtUtc,
    }));
    if (!marks.some((m) => m.atMSec === null && m.gcNumber !== null)) return marks;
    const c = this.deps.liveColumns(sessionId) ?? (await this.deps.storedColumns(sessionId).catch(() => undefined));
    if (c === undefined) return marks;
    const resolved = resolveMarkTimes(marks, c);
    for (let k = 0; k < resolved.length; k++)
      if (marks[k]!.atMSec === null && resolved[k]!.atMSec !== null)
        await setHeapSnapshotLinkTime(this.db, resolved[k]!.snapshotSessionId, resolved[k]!.atMSec!);
    return resolved;
  }

  /**
   * The last two snapshots of the recorded process — those taken from this recording, else also
   * those of its pid taken (from the home list) since the recording began — diffed.
   */
  async growth(sessionId: number): Promise<HeapGrowthView | null> {
    const ids = (await heapSnapshotsOfRecording(this.db, sessionId)).map((r) => r.snapshotSessionId);
    if (ids.length < 2) {
      const s = await getSession(this.db, sessionId);
      if (s.processId !== null) {
        const since = s.traceStartUtc !== null ? Date.parse(s.traceStartUtc) : Number.NEGATIVE_INFINITY;
        for (const h of await heapSnapshotsOfProcess(this.db, s.processId)) {
          if (ids.includes(h.sessionId)) continue;
          const taken = (await getSession(this.db, h.sessionId)).traceStartUtc;
          if (taken !== null && Date.parse(taken) >= since) ids.push(h.sessionId);
        }
        ids.sort((a, b) => a - b);
      }
    }
    if (ids.length < 2) return null;
    return this.heap.growth(ids[ids.length - 2]!, ids[ids.length - 1]!);
  }
}
