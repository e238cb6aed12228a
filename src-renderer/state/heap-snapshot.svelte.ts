/**
 * The Snapshot action on a process (issue 38): say how big its heap was at its last GC before
 * the pause, take the snapshot, open it.
 */
import { formatInt, formatMB } from '../../src-main/shared/format';
import type { HeapSnapshotProgress } from '../../src-main/shared/heap-view';
import { api, errorMessage, on } from '../lib/api';
import { app } from './app.svelte';
import { sessions } from './lists.svelte';

class HeapSnapshotAction {
  /** The pid being snapshotted, if any. */
  taking = $state<number | null>(null);
  /** How far the snapshot being taken has got (the service's 'heap-snapshot-progress'). */
  progress = $state<HeapSnapshotProgress | null>(null);

  constructor() {
    on('heap-snapshot-progress', (p) => {
      if (p.pid === this.taking) this.progress = p;
    });
  }

  /** The snapshot's progress as a line: objects and bytes walked so far, then the step after the walk. */
  get progressText(): string {
    const p = this.progress;
    if (p === null) return 'Waiting for the heap walk…';
    const walked = `${formatInt(p.objects)} objects, ${formatMB(p.bytes / 1e6)}`;
    switch (p.phase) {
      case 'walking':
        return `Walking the heap: ${walked}`;
      case 'building':
        return `Walked ${walked}; building the graph…`;
      case 'analysing':
        return `Walked ${walked}; finding what holds what…`;
      case 'writing':
        return `Walked ${walked}; writing the .gcdump…`;
    }
  }

  async take(pid: number): Promise<void> {
    if (this.taking !== null) return;
    this.taking = pid;
    this.progress = null;
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
      this.progress = null;
    }
  }
}

export const heapSnapshot = new HeapSnapshotAction();
