/** The home screen's process list (refreshing while visible) and the sessions list. */
import type { DotnetProcess } from '../../src-main/shared/contract';
import type { SessionInfo } from '../../src-main/shared/session';
import { api, errorMessage, on } from '../lib/api';
import { FIRST_DESCENDING, sortSessions, type SessionSortKey } from './session-sort';

class ProcessesState {
  list = $state<DotnetProcess[]>([]);
  hints = $state<string[]>([]);
  loaded = $state(false);
  error = $state<string | undefined>(undefined);
  private timer: ReturnType<typeof setInterval> | undefined;

  async refresh(): Promise<void> {
    try {
      const r = await api.listProcesses();
      this.list = r.processes;
      this.hints = r.hints;
      this.error = undefined;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loaded = true;
    }
  }

  /** Refreshes every 2 s while a view shows the list; returns the stop function. */
  watch(): () => void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), 2000);
    return () => clearInterval(this.timer);
  }
}

class SessionsState {
  list = $state<SessionInfo[]>([]);
  loaded = $state(false);
  error = $state<string | undefined>(undefined);
  search = $state('');
  /** The Sessions page's order (session-sort.ts): newest taken first until a header is clicked. */
  sortKey = $state<SessionSortKey>('taken');
  sortDesc = $state(true);

  constructor() {
    on('sessions-changed', () => void this.refresh());
  }

  /** A header's click: that column (its natural direction first), or the other direction when it already sorts. */
  sortBy(key: SessionSortKey): void {
    if (this.sortKey === key) this.sortDesc = !this.sortDesc;
    else {
      this.sortKey = key;
      this.sortDesc = FIRST_DESCENDING[key];
    }
  }

  filtered = $derived.by(() => {
    const q = this.search.trim().toLowerCase();
    const sorted = sortSessions(this.list, this.sortKey, this.sortDesc);
    if (q === '') return sorted;
    return sorted.filter((s) => [s.name, s.processName ?? '', s.commandLine ?? '', s.notes, ...s.tags, s.status].some((t) => t.toLowerCase().includes(q)));
  });

  async refresh(): Promise<void> {
    try {
      this.list = await api.listSessions();
      this.error = undefined;
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loaded = true;
    }
  }
}

export const processes = new ProcessesState();
export const sessions = new SessionsState();
