/**
 * The Snapshot action on a process (issue 38): say how big its heap was at its last GC before
 * the pause, take the snapshot, open it.
 */
import { formatMB } from '../../src-main/shared/format';
import { api, errorMessage } from '../lib/api';
import { app } from './app.svelte';
import { sessions } from './lists.svelte';

class HeapSnapshotAction {
  /** The pid being snapshotted, if any. */
  taking = $state<number | null>(null);

  async take(pid: number): Promise<void> {
    if (this.taking !== null) return;
    this.taking = pid;
    try {
      const heap = await api.heapSizeAtLastGc(pid);
      app.info_(
        heap !== null
          ? `Process ${pid}: its heap was ${formatMB(heap / 1e6)} at its last GC. A blocking gen2 GC now walks it; the process pauses meanwhile.`
          : `Process ${pid}: a blocking gen2 GC now walks its heap; the process pauses meanwhile.`,
      );
      const r = await api.takeHeapSnapshot(pid, heap);
      await sessions.refresh();
      app.openSession(r.sessionId);
    } catch (e) {
      app.error(`Snapshot of process ${pid}: ${errorMessage(e)}`);
    } finally {
      this.taking = null;
    }
  }
}

export const heapSnapshot = new HeapSnapshotAction();
