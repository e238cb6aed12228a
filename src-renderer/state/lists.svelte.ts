/** The home screen's process list (refreshing while visible) and the sessions list. */
import type { DotnetProcess } from '../../src-main/shared/contract';
import type { SessionInfo } from '../../src-main/shared/session';
import { api, errorMessage, on } from '../lib/api';

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

  constructor() {
    on('sessions-changed', () => void this.refresh());
  }

  filtered = $derived.by(() => {
    const q = this.search.trim().toLowerCase();
    if (q === '') return this.list;
    return this.list.filter((s) => [s.name, s.processName ?? '', s.commandLine ?? '', s.notes, ...s.tags, s.status].some((t) => t.toLowerCase().includes(q)));
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
