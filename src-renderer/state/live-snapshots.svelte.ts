/**
 * Heap snapshots of a recording (issue 38): the marks of the open recording's snapshots and the
 * labels of their GCs, the Snapshot action on a live recording (it says the heap at the
 * recording's last GC before the pause; the recording goes on), the growing-live-set finding's
 * "a snapshot now and another in N s", and that finding's cause (the diff of the last two).
 * One instance: the state outlives a view switch, so a pair under way still completes.
 */
import { formatMB } from '../../src-main/shared/format';
import { snapshotsByGcNumber, type HeapGrowthView, type SnapshotMark } from '../../src-main/shared/snapshot-marks';
import { api, errorMessage } from '../lib/api';
import { app } from './app.svelte';
import { sessions } from './lists.svelte';

/** The default wait between the finding's two snapshots: long enough for a leak to show, short enough to wait for. */
export const PAIR_DEFAULT_SEC = 30;

export interface PairProgress {
  sessionId: number;
  phase: 'first' | 'waiting' | 'second';
  /** When the second snapshot is due (Date.now() clock), while waiting. */
  dueAt: number;
}

class LiveSnapshotState {
  /** The marks of session `marksFor`. */
  marks = $state<SnapshotMark[]>([]);
  marksFor = $state(0);
  /** GC number → its snapshot, for the session whose marks are loaded. */
  byGc = $derived(snapshotsByGcNumber(this.marks));
  /** The recording a snapshot is being taken from. */
  taking = $state<number | null>(null);
  pair = $state<PairProgress | null>(null);
  growth = $state<HeapGrowthView | null>(null);
  growthFor = $state(0);
  growthError = $state<string | null>(null);
  /** Date.now(), ticked every 250 ms while a pair waits for its second snapshot (the countdown). */
  now = $state(Date.now());

  /**
   * What a pair under way for `sessionId` is doing, in words, or null. Said in the finding and on
   * the Heap snapshots lane's button: the finding may leave the list meanwhile (the first
   * snapshot's induced gen2 GC can flatten the trend it saw), and the user must still see it.
   */
  pairStatus(sessionId: number): string | null {
    const p = this.pair;
    if (p === null || p.sessionId !== sessionId) return null;
    if (p.phase === 'first') return 'Taking the first snapshot…';
    if (p.phase === 'waiting') return `Second snapshot in ${Math.max(0, Math.ceil((p.dueAt - this.now) / 1000))} s…`;
    return 'Taking the second snapshot…';
  }

  /** The GC labelled as a snapshot's in session `sessionId`, if any. */
  snapshotOfGc(sessionId: number, gcNumber: number): SnapshotMark | undefined {
    return this.marksFor === sessionId ? this.byGc.get(gcNumber) : undefined;
  }

  async load(sessionId: number): Promise<void> {
    try {
      const marks = await api.listSnapshotMarks(sessionId);
      this.marks = marks;
      this.marksFor = sessionId;
    } catch (e) {
      app.error(errorMessage(e));
    }
  }

  async loadGrowth(sessionId: number): Promise<void> {
    try {
      const g = await api.getHeapGrowth(sessionId);
      this.growth = g;
      this.growthFor = sessionId;
      this.growthError = null;
    } catch (e) {
      this.growthFor = sessionId;
      this.growth = null;
      this.growthError = errorMessage(e);
    }
  }

  /** One snapshot from the live recording `sessionId`: true when taken. */
  async take(sessionId: number, pid: number | null): Promise<boolean> {
    if (this.taking !== null) return false;
    this.taking = sessionId;
    const who = pid !== null ? `Process ${pid}` : 'The process';
    try {
      const heap = await api.liveHeapAtLastGc(sessionId);
      app.info_(
        heap !== null
          ? `${who}: its heap was ${formatMB(heap / 1e6)} at its last GC. A blocking gen2 GC now walks it; the process pauses meanwhile (the recording goes on).`
          : `${who}: a blocking gen2 GC now walks its heap; the process pauses meanwhile (the recording goes on).`,
      );
      const r = await api.takeLiveHeapSnapshot(sessionId, heap);
      if (this.marksFor === sessionId) this.marks = [...this.marks.filter((m) => m.snapshotSessionId !== r.sessionId), r.mark];
      void sessions.refresh();
      if (this.growthFor === sessionId) void this.loadGrowth(sessionId);
      return true;
    } catch (e) {
      app.error(`Snapshot of ${pid !== null ? `process ${pid}` : 'the process'}: ${errorMessage(e)}`);
      return false;
    } finally {
      this.taking = null;
    }
  }

  /** The growing-live-set finding's action: a snapshot now and another `delaySec` later, then their diff. */
  async takePair(sessionId: number, pid: number | null, delaySec: number): Promise<void> {
    if (this.pair !== null || this.taking !== null) return;
    this.pair = { sessionId, phase: 'first', dueAt: 0 };
    try {
      if (!(await this.take(sessionId, pid))) return;
      const dueAt = Date.now() + delaySec * 1000;
      this.pair = { sessionId, phase: 'waiting', dueAt };
      this.now = Date.now();
      const tick = setInterval(() => (this.now = Date.now()), 250);
      try {
        await new Promise((res) => setTimeout(res, Math.max(0, dueAt - Date.now())));
      } finally {
        clearInterval(tick);
      }
      this.pair = { sessionId, phase: 'second', dueAt };
      await this.take(sessionId, pid);
      await this.loadGrowth(sessionId);
    } finally {
      this.pair = null;
    }
  }
}

export const liveSnapshots = new LiveSnapshotState();
