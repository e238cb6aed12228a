/**
 * The open session's DATAS / Server GC data (getServerGc) for the Server GC lane group and the
 * memory headroom lane, and the per-heap balance of the selected GC (getHeapBalance). While a
 * session is recording, the data is fetched again as GCs arrive (at most once a second), so the
 * lanes update live. `version` changes with each answer (and a new session): the lanes rebuild
 * their columns then, not on every live batch, so a batch does not cost a pass over the session.
 */
import type { HeapBalanceRow, ServerGcData } from '../../src-main/shared/server-gc';
import { api, errorMessage } from '../lib/api';

const LIVE_REFRESH_MS = 1000;

export class ServerGcState {
  data = $state.raw<ServerGcData | undefined>(undefined);
  version = $state(0);
  error = $state<string | undefined>(undefined);
  balance = $state.raw<HeapBalanceRow[] | undefined>(undefined);
  /** The GC (index in the session) `balance` is for, once it is in. */
  balanceFor = $state.raw<number | null>(null);
  /** The GC the balance is (being) fetched for: not reactive, the effect that asks must not depend on it. */
  private balanceGcIndex: number | null = null;
  private sessionId = 0;
  private loadedForLength = -1;
  /** The GC count of the answer asked for last (answered or not): asked once per count. */
  private askedForLength = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  /** Called with the open session and its GC count: loads on a new session, refreshes (throttled) as a live one grows. */
  sync(sessionId: number, gcCount: number, live: boolean): void {
    if (sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      this.data = undefined;
      this.balance = undefined;
      this.balanceFor = null;
      this.balanceGcIndex = null;
      this.loadedForLength = -1;
      this.askedForLength = -1;
      this.version++;
      clearTimeout(this.timer);
      this.timer = undefined;
      if (sessionId !== 0) void this.load(gcCount);
      return;
    }
    // A count already asked for (answered or still on its way) is not asked again: the effect
    // that calls this re-runs when the view's series object changes, with the same count.
    if (sessionId === 0 || gcCount === this.askedForLength || this.timer !== undefined) return;
    if (!live && this.loadedForLength >= 0 && gcCount < this.loadedForLength) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.load(gcCount);
      },
      live ? LIVE_REFRESH_MS : 0,
    );
  }

  private async load(gcCount: number): Promise<void> {
    const id = this.sessionId;
    const seq = ++this.seq;
    this.askedForLength = gcCount;
    try {
      const d = await api.getServerGc(id);
      if (seq !== this.seq || id !== this.sessionId) return;
      this.data = d;
      this.error = undefined;
      this.loadedForLength = gcCount;
      this.version++;
    } catch (e) {
      if (id === this.sessionId) this.error = errorMessage(e);
    }
  }

  /** The per-heap balance of one GC (its index in the session), fetched once per GC. */
  async loadBalance(gcIndex: number | null): Promise<void> {
    if (gcIndex === this.balanceGcIndex) return;
    this.balanceGcIndex = gcIndex;
    this.balance = undefined;
    if (gcIndex === null) return;
    const id = this.sessionId;
    try {
      const b = await api.getHeapBalance(id, gcIndex);
      if (this.balanceGcIndex === gcIndex && id === this.sessionId) {
        this.balance = b;
        this.balanceFor = gcIndex;
      }
    } catch (e) {
      this.error = errorMessage(e);
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sessionId = 0;
    this.data = undefined;
  }
}

export const serverGc = new ServerGcState();
